/**
 * The TypeScript code blocks of README.md and docs/*.md, and one TypeScript program that checks them
 * all (spec/docs/code-blocks.spec.ts). A ```ts block is one of three kinds:
 * - a quote of a repository file: its first line is `// <path>` (`// samples/readme-example.ts`) and the
 *   rest is that file's text exactly; the file is checked and loaded, and its own spec runs it;
 * - a complete module (```ts): checked, then run: loaded, and its exported `main()` awaited if any;
 * - a fragment (```ts fragment): checked only, as the body of an async function whose free names
 *   (`registry`, `openai`, ...) are the typed declarations of spec/docs/fragment-context.ts; its
 *   `import` lines stay at the top of the module.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const ROOT = path.join(__dirname, '..', '..');
/** Where the blocks are written as modules (build/ is not committed). */
export const BLOCKS_DIR = path.join(ROOT, 'build', 'doc-blocks');
const CONTEXT = path.join(ROOT, 'spec', 'docs', 'fragment-context.ts');

export type BlockKind = 'quote' | 'module' | 'fragment';

export interface CodeBlock {
  /** The document, relative to the repository: `README.md`, `docs/mcp.md`. */
  readonly doc: string;
  /** The 1-based line of the block's first code line in the document. */
  readonly line: number;
  readonly kind: BlockKind;
  readonly code: string;
  /** For a quote: the repository file it quotes. */
  readonly quotes?: string;
}

/** A fenced block whose language is TypeScript under another spelling, or ts with an unknown modifier. */
export interface BadFence {
  readonly doc: string;
  readonly line: number;
  readonly info: string;
}

const TS_LIKE = /^(?:ts|typescript|tsx|js|javascript|mts|cts)\b/;

/** The ```ts blocks of a Markdown text, and fences that look like TypeScript but are not `ts` / `ts fragment`. */
export function codeBlocks(doc: string, markdown: string): { blocks: CodeBlock[]; bad: BadFence[] } {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  const bad: BadFence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const [, indent, fence, rawInfo] = open as unknown as [string, string, string, string];
    const info = rawInfo.trim();
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).startsWith(indent + fence)) end++;
    const body = lines.slice(i + 1, end).map((l) => l.slice(indent.length));
    if (info === 'ts' || info === 'ts fragment') {
      const code = body.join('\n') + '\n';
      const quoted = /^\/\/ ((?:lib|samples|spec|bench|scripts)\/[\w./-]+\.ts)$/.exec(body[0] ?? '');
      if (info === 'ts' && quoted) {
        blocks.push({ doc, line: i + 2, kind: 'quote', code: body.slice(1).join('\n') + '\n', quotes: quoted[1] });
      } else {
        blocks.push({ doc, line: i + 2, kind: info === 'ts' ? 'module' : 'fragment', code });
      }
    } else if (TS_LIKE.test(info)) {
      bad.push({ doc, line: i + 1, info });
    }
    i = end;
  }
  return { blocks, bad };
}

/** README.md and every docs/*.md, relative to the repository. */
export function documents(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

/** A block as the module the program checks: its file, its text, and how many lines precede the code. */
export interface BlockModule {
  readonly block: CodeBlock;
  readonly file: string;
  readonly text: string;
  /** The module's line of the block's first code line (a fragment's imports stay on theirs: below). */
  readonly offset: number;
  /** A fragment's import lines, which keep their lines at the module's top. */
  readonly imports: number;
}

/** The module a block becomes (a quote is its repository file, unchanged). */
export function blockModule(block: CodeBlock): BlockModule {
  if (block.kind === 'quote') {
    return { block, file: path.join(ROOT, block.quotes as string), text: block.code, offset: -1, imports: 0 };
  }
  const name = `${block.doc.replace(/[/.]/g, '_')}_L${block.line}.ts`;
  const file = path.join(BLOCKS_DIR, name);
  if (block.kind === 'module') return { block, file, text: block.code, offset: 0, imports: 0 };
  const lines = block.code.replace(/\n$/, '').split('\n');
  const imports: string[] = [];
  let k = 0;
  // Leading import declarations (also over several lines) stay at the module's top.
  while (k < lines.length) {
    const line = lines[k] as string;
    if (/^import\b/.test(line)) {
      let j = k;
      while (!/;\s*$/.test(lines[j] as string) && j < lines.length - 1) j++;
      imports.push(...lines.slice(k, j + 1));
      k = j + 1;
    } else if (line.trim() === '' && imports.length > 0) {
      imports.push(line);
      k++;
    } else break;
  }
  const body = lines.slice(k);
  const context = path.relative(BLOCKS_DIR, CONTEXT).replace(/\\/g, '/').replace(/\.ts$/, '');
  const own = importedNames(imports.join('\n'));
  const given = contextNames().filter((n) => !own.has(n));
  const head = [
    ...imports,
    `import { ${given.join(', ')} } from '${context}';`,
    'export async function __fragment(): Promise<void> {',
  ];
  // The imports keep their lines; the body follows the head, in a function (for await and its own names).
  const text = [...head, ...body, '}', ''].join('\n');
  return { block, file, text, offset: head.length - imports.length, imports: k };
}

/** The names a fragment's own import declarations bind. */
function importedNames(imports: string): Set<string> {
  const source = ts.createSourceFile('imports.ts', imports, ts.ScriptTarget.ES2022);
  const out = new Set<string>();
  for (const s of source.statements) {
    const clause = ts.isImportDeclaration(s) ? s.importClause : undefined;
    if (clause?.name) out.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) out.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) out.add(e.name.text);
  }
  return out;
}

let names: string[] | undefined;

/** The names spec/docs/fragment-context.ts declares for fragments. */
export function contextNames(): string[] {
  if (names !== undefined) return names;
  const source = ts.createSourceFile(CONTEXT, fs.readFileSync(CONTEXT, 'utf8'), ts.ScriptTarget.ES2022);
  names = source.statements.flatMap((s) => {
    const exported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return [];
    if (ts.isVariableStatement(s)) return s.declarationList.declarations.map((d) => d.name.getText(source));
    if ((ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s)) && s.name) return [s.name.text];
    return [];
  });
  return names;
}

/** One problem of the program, at its document and line: `docs/mcp.md:42: TS2304 Cannot find name 'x'.` */
export interface BlockProblem {
  readonly doc: string;
  readonly line: number;
  readonly message: string;
}

/**
 * Writes the blocks' modules to build/doc-blocks/ and checks them, with the quoted files, in one
 * program under tsconfig.json's options (whose `paths` map `scope-tool/*` to lib/, as jest.config.js
 * does). Each diagnostic is reported at the document line it comes from.
 */
export function checkBlocks(blocks: readonly CodeBlock[]): { modules: BlockModule[]; problems: BlockProblem[] } {
  const modules = blocks.map(blockModule);
  fs.rmSync(BLOCKS_DIR, { recursive: true, force: true });
  fs.mkdirSync(BLOCKS_DIR, { recursive: true });
  for (const m of modules) if (m.block.kind !== 'quote') fs.writeFileSync(m.file, m.text);
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, declaration: false, sourceMap: false };
  // The project's own declaration files (lib/dto's module declarations) are roots as in tsconfig.json.
  const declarations = parsed.fileNames.filter((f) => f.endsWith('.d.ts'));
  const program = ts.createProgram({ rootNames: [...modules.map((m) => m.file), ...declarations], options });
  const byFile = new Map(modules.map((m) => [path.resolve(m.file), m]));
  const problems: BlockProblem[] = [];
  // Only the blocks' files are checked: lib/ is tsc's (`npm test` runs `tsc --noEmit` first).
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...modules.flatMap((m) => {
      const file = program.getSourceFile(m.file);
      return file ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : [];
    }),
  ];
  for (const d of diagnostics) {
    const text = `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    const owner = d.file === undefined ? undefined : byFile.get(path.resolve(d.file.fileName));
    if (d.file === undefined || d.start === undefined || owner === undefined) {
      problems.push({ doc: d.file?.fileName ?? '(program)', line: 0, message: text });
      continue;
    }
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    problems.push({ doc: owner.block.doc, line: owner.block.line + lineInBlock(owner, line), message: text });
  }
  return { modules, problems };
}

/** The 0-based line of the block (its `// path` line included) that a 0-based line of its module comes from. */
function lineInBlock(m: BlockModule, line: number): number {
  return line < m.imports ? line : line - m.offset;
}
