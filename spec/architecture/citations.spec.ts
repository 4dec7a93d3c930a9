/**
 * Citations of the repository's documents in code and comments (docs/architecture.md, introduction):
 * every `docs/<file>.md` named in lib/, spec/, samples/, bench/, scripts/ or README.md exists, and
 * every `docs/<file>.md section N[.M]` (also `sections A and B`) names a numbered heading of that
 * file, and its `rule K` / `step K` (also `rules 3 and 8 to 10`) a numbered item of that section, as
 * in `docs/architecture.md section 4 rule 7` or `docs/reference-semantics.md section 7.3 step 8`.
 * Nothing cites the design inputs outside the repository, which a user's clone does not have.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const SCANNED = ['lib', 'spec', 'samples', 'bench', 'scripts', 'README.md'];
const SKIPPED = new Set(['node_modules', 'corpora']);
const EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs|md)$/;

function listFiles(at: string): string[] {
  if (!fs.existsSync(at)) return [];
  if (fs.statSync(at).isFile()) return EXTENSIONS.test(at) ? [at] : [];
  return fs
    .readdirSync(at, { withFileTypes: true })
    .filter((e) => !SKIPPED.has(e.name))
    .flatMap((e) => listFiles(path.join(at, e.name)));
}

/** A document's numbered sections: `## 3. Title` or `### 3.6 Title` → id `3` / `3.6`, with its body. */
interface Section {
  readonly level: number;
  readonly items: ReadonlySet<number>;
}

/** Reads the numbered headings of a Markdown text and the numbered list items of each section's body. */
export function sectionsOf(markdown: string): Map<string, Section> {
  const lines = markdown.split('\n');
  const headings: { id: string; level: number; line: number }[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^(#{1,6})\s+(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(line);
    if (m) headings.push({ id: m[2] as string, level: (m[1] as string).length, line: i });
  });
  const sections = new Map<string, Section>();
  headings.forEach((h, k) => {
    const next = headings.slice(k + 1).find((o) => o.level <= h.level);
    const items = new Set<number>();
    let inFence = false;
    for (const line of lines.slice(h.line + 1, next?.line ?? lines.length)) {
      if (/^\s*```/.test(line)) inFence = !inFence;
      const item = inFence ? null : /^\s*(\d+)\.\s/.exec(line);
      if (item) items.add(Number(item[1]));
    }
    sections.set(h.id, { level: h.level, items });
  });
  return sections;
}

const LIST = String.raw`(?:, | and | to |-)`;
const CITATION = new RegExp(
  String.raw`docs/([A-Za-z0-9_-]+)\.md` +
    String.raw`(?:,? (sections?) (\d+(?:\.\d+)*(?:(?:, | and )\d+(?:\.\d+)*)*))?` +
    String.raw`(?:,? (?:rule|step)s? (\d+(?:${LIST}\d+)*))?`,
  'g',
);

/** `3, 8 to 10` → 3, 8, 9, 10. */
function numbersOf(list: string): number[] {
  const out: number[] = [];
  const parts = list.split(/, | and /);
  for (const part of parts) {
    const range = /^(\d+)(?: to |-)(\d+)$/.exec(part);
    if (range) {
      for (let n = Number(range[1]); n <= Number(range[2]); n++) out.push(n);
    } else {
      out.push(...part.split(/ to |-/).map(Number));
    }
  }
  return out;
}

/** A comment's lines as one line: line breaks with their `*` or `//` continuation become one space. */
function flatten(text: string): string {
  return text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
}

/**
 * The problems of the citations in `text`: a document that does not exist, a section without its
 * heading, a rule or step the section does not number, or `docs/x.md` followed by a bare number.
 * @param readDoc - the text of `docs/<name>.md`, or undefined when there is no such file
 */
export function citationProblems(text: string, readDoc: (name: string) => string | undefined): string[] {
  const problems: string[] = [];
  const flat = flatten(text);
  for (const m of flat.matchAll(CITATION)) {
    const [cited, name, , sectionList, itemList] = m;
    const doc = readDoc(name as string);
    if (doc === undefined) {
      problems.push(`${cited}: docs/${name}.md does not exist`);
      continue;
    }
    const after = flat.slice((m.index ?? 0) + cited.length);
    if (sectionList === undefined) {
      if (/^,? (?:§|\d|sections? )/.test(after)) problems.push(`${cited}${after.slice(0, 12)}: write "section N"`);
      continue;
    }
    const sections = sectionsOf(doc);
    const ids = sectionList.split(/, | and /);
    for (const id of ids) {
      if (!sections.has(id)) problems.push(`${cited}: docs/${name}.md has no heading numbered ${id}`);
    }
    if (itemList !== undefined) {
      for (const id of ids) {
        const section = sections.get(id);
        for (const n of numbersOf(itemList)) {
          if (section !== undefined && !section.items.has(n)) {
            problems.push(`${cited}: section ${id} of docs/${name}.md has no item numbered ${n}`);
          }
        }
      }
    }
  }
  return problems;
}

/** Citations of the design inputs outside the repository, or of the reference by a bare number. */
export function outsideCitations(text: string): string[] {
  const flat = flatten(text);
  const found: string[] = [];
  for (const re of [
    /\bDESIGN\b(?:\.md)?[^\n]{0,30}/g,
    /\bSTYLE\.md\b[^\n]{0,30}/g,
    /\.\.\/shared\b[^\n]{0,30}/g,
    /(?<!docs\/)\breference-semantics\b[^\n]{0,30}/g,
    /\breference (?:section )?\d[^\n]{0,30}/g,
  ]) {
    for (const m of flat.matchAll(re)) found.push(m[0]);
  }
  return found;
}

/** A file path under one of the repository's folders, as documentation names it (`spec/x/y.spec.ts`). */
const REPO_PATH = /\b(?:lib|spec|samples|docs|bench|scripts)\/[A-Za-z0-9_./-]+\.(?:ts|md|json)\b/g;

const readDoc = (name: string): string | undefined => {
  const file = path.join(ROOT, 'docs', `${name}.md`);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};

const files = SCANNED.flatMap((p) => listFiles(path.join(ROOT, p))).filter((f) => f !== __filename);
const rel = (f: string): string => path.relative(ROOT, f).split(path.sep).join('/');

describe('citations of docs/', () => {
  it('reads the files and finds citations of both documents in lib/', () => {
    const libText = files.filter((f) => rel(f).startsWith('lib/')).map((f) => fs.readFileSync(f, 'utf8'));
    expect(libText.length).toBeGreaterThan(50);
    expect(libText.some((t) => t.includes('docs/architecture.md section'))).toBe(true);
    expect(libText.some((t) => t.includes('docs/reference-semantics.md section'))).toBe(true);
  });

  it('every cited document, section and rule exists', () => {
    const problems = files.flatMap((f) =>
      citationProblems(fs.readFileSync(f, 'utf8'), readDoc).map((p) => `${rel(f)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('nothing cites DESIGN.md, STYLE.md, the shared folder or the reference by a bare number', () => {
    const found = files.flatMap((f) => outsideCitations(fs.readFileSync(f, 'utf8')).map((c) => `${rel(f)}: ${c}`));
    expect(found).toEqual([]);
  });
});

describe('paths named in README.md and docs/', () => {
  it('every repository file the documentation names exists', () => {
    const docs = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const named = docs.flatMap((doc) =>
      [...fs.readFileSync(path.join(ROOT, doc), 'utf8').matchAll(REPO_PATH)].map((m) => ({ doc, file: m[0] })),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ file }) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it('every relative link resolves, to a file and to a heading of it for an anchor', () => {
    const docs = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const links = docs.flatMap((doc) =>
      markdownLinks(fs.readFileSync(path.join(ROOT, doc), 'utf8')).map((target) => ({ doc, target })),
    );
    expect(links.length).toBeGreaterThan(10);
    const broken = links.filter(({ doc, target }) => {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const at = file === '' ? path.join(ROOT, doc) : path.join(ROOT, path.dirname(doc), file);
      if (!fs.existsSync(at)) return true;
      return anchor !== undefined && !headingSlugs(fs.readFileSync(at, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});

/** The targets of a Markdown text's inline links that stay in the repository (no scheme), outside code. */
export function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^()\s]+)\)/g)].map((m) => m[1] as string).filter((t) => !/^[a-z]+:/i.test(t));
}

/** GitHub's anchors of a Markdown text's headings: lower case, punctuation dropped, spaces as `-`. */
export function headingSlugs(markdown: string): Set<string> {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
  return new Set(
    [...prose.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) =>
      (m[1] as string)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

describe('the citation checker', () => {
  const doc = ['# T', '## 1. One', '1. a', '2. b', '## 3. Three', '### 3.2 Two', '1. x', '```', '7. code', '```'];
  const read = (name: string) => (name === 'arch' ? doc.join('\n') : undefined);

  it('accepts sections, subsections, rules and lists of them', () => {
    const text = '// docs/arch.md section 1 rules 1 and 2; docs/arch.md sections 1 and 3.2, step\n// 1';
    expect(citationProblems(text, read)).toEqual([]);
    expect(citationProblems('docs/arch.md section 1 rules 1 to 2', read)).toEqual([]);
  });

  it('refuses a missing document, section, rule, or a bare number', () => {
    expect(citationProblems('docs/nope.md section 1', read)).toHaveLength(1);
    expect(citationProblems('docs/arch.md section 2', read)).toHaveLength(1);
    expect(citationProblems('docs/arch.md section 3.3', read)).toHaveLength(1);
    expect(citationProblems('docs/arch.md section 1 rule 3', read)).toHaveLength(1);
    expect(citationProblems('docs/arch.md section 3.2 rule 7', read)).toHaveLength(1);
    expect(citationProblems('docs/arch.md section 1 rules 1 to 4', read)).toHaveLength(2);
    expect(citationProblems('docs/arch.md 3.2', read)).toHaveLength(1);
  });

  it('reads links outside code and the anchors GitHub gives headings', () => {
    const text = [
      '# The path of one call',
      '## `scope-tool/mcp` (stdio)',
      '[a](docs/x.md#y) `[b](c.md)`',
      '[d](https://e)',
    ];
    expect(markdownLinks(text.join('\n'))).toEqual(['docs/x.md#y']);
    expect([...headingSlugs(text.join('\n'))]).toEqual(['the-path-of-one-call', 'scope-toolmcp-stdio']);
  });

  it('finds citations of what a clone does not have', () => {
    for (const text of [
      '(DESIGN.md 3.6)',
      '(DESIGN 3.8)',
      `see ..${'/'}shared/x`,
      'reference-semantics 3.1',
      'Order (reference 7.3)',
    ]) {
      expect(outsideCitations(text)).toHaveLength(1);
    }
    expect(outsideCitations('docs/reference-semantics.md section 2; docs/architecture.md section 3')).toEqual([]);
  });
});
