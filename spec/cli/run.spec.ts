import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run, type CliIo } from '../../lib/cli';

const PROJECT = path.join(__dirname, '..', 'schema', 'fixtures', 'project');
const NODE_MODULES = path.join(__dirname, '..', '..', 'node_modules');

interface Captured extends CliIo {
  out: string;
  err: string;
}

function capture(cwd: string): Captured {
  const io: Captured = {
    out: '',
    err: '',
    cwd,
    stdout: (t) => {
      io.out += t;
    },
    stderr: (t) => {
      io.err += t;
    },
  };
  return io;
}

/** A small copy of the sample project (notes only) in a temp dir, with node_modules linked. */
function tempProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scope-tool-cli-'));
  for (const f of ['tsconfig.json', 'decorators.ts', 'notes.tools.ts'])
    cpSync(path.join(PROJECT, f), path.join(dir, f));
  symlinkSync(NODE_MODULES, path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The lines a run wrote, without the final newline. */
const lines = (text: string) => text.replace(/\n$/, '').split('\n');

/** Per printed generator message: its kind, `file:line`, `Class.member` and decorator. */
function places(text: string): string[][] {
  return lines(text)
    .map((line) => /^ {2}(error|warning): (\S+): (\S+): (@\w+) /.exec(line))
    .filter((match) => match !== null)
    .map((match) => match!.slice(1));
}

describe('scope-tool generate and check', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempProject();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  // The one test of the whole output format (report.ts): the others assert exit codes and names.
  it('generate prints per tool what it warned about and why, writes the manifest and exits 0', async () => {
    const io = capture(dir);
    await expect(run(['generate'], io)).resolves.toBe(0);
    expect(io.out).toBe(
      'create_note: 1 warning\n' +
        '  warning: notes.tools.ts:7: CreateNoteInput.title: @IsAlpha is checked by the decoder only ' +
        '(its locale- and option-dependent rule has no JSON Schema form)\n' +
        'scope-tool generate: wrote tools.manifest.json (2 tools, 1 warning)\n',
    );
    expect(io.err).toBe('');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8'));
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(['create_note', 'listNotes']);
    expect(readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8').endsWith('}\n')).toBe(true);
  });

  it('without --out or --manifest, the manifest sits beside the tsconfig, whatever the working directory (issue 15 item 4)', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'scope-tool-cwd-'));
    try {
      const project = path.join(dir, 'tsconfig.json');
      await expect(
        run(['generate', '--project', project, '--out', 'x.manifest.json'], capture(elsewhere)),
      ).resolves.toBe(0);
      // An explicit path stays relative to the working directory.
      expect(existsSync(path.join(elsewhere, 'x.manifest.json'))).toBe(true);
      rmSync(path.join(dir, 'tools.manifest.json'), { force: true });
      await expect(run(['generate', '--project', project], capture(elsewhere))).resolves.toBe(0);
      expect(existsSync(path.join(dir, 'tools.manifest.json'))).toBe(true);
      expect(existsSync(path.join(elsewhere, 'tools.manifest.json'))).toBe(false);
      await expect(run(['check', '--project', project], capture(elsewhere))).resolves.toBe(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('check passes on a fresh manifest with one OK line', async () => {
    const io = capture(dir);
    await expect(run(['check'], io)).resolves.toBe(0);
    expect(lines(io.out)).toHaveLength(1);
    expect(io.out.startsWith('scope-tool check: OK, ')).toBe(true);
    expect(io.out).toContain('tools.manifest.json');
    expect(io.out).toContain('(2 tools)');
    expect(io.err).toBe('');
  });

  it('check names stale, missing and extra tools after the sources change, and exits 1', async () => {
    const file = path.join(dir, 'notes.tools.ts');
    const source = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      source
        .replace('@Length(1, 120)', '@Length(1, 80)')
        .replace('@Tool()\n  listNotes', "@Tool({ name: 'list_notes' })\n  listNotes"),
    );
    const io = capture(dir);
    await expect(run(['check', '--manifest', 'tools.manifest.json'], io)).resolves.toBe(1);
    const [stale, missing, extra, summary, ...rest] = lines(io.err);
    expect([stale, missing, extra].map((line) => line.split(': ').slice(0, 2))).toEqual([
      ['stale', 'create_note (NotesTools.createNote)'],
      ['missing', 'list_notes (NotesTools.listNotes)'],
      ['extra', 'listNotes'],
    ]);
    // The stale line names the keyword @Length(1, 80) changed, by its JSON Pointer, and nothing else.
    expect(stale.split(': ').slice(2).join(': ').split('; ')).toEqual([
      expect.stringMatching(/^\/definition\/input_schema\/properties\/title\/maxLength is 80 /),
    ]);
    expect(summary.startsWith('scope-tool check: tools.manifest.json ')).toBe(true);
    expect(summary.endsWith('; run scope-tool generate')).toBe(true);
    expect(rest).toEqual([]);
    writeFileSync(file, source);
  });

  it('generate --strict turns warnings into errors and writes nothing', async () => {
    const io = capture(dir);
    await expect(run(['generate', '--strict', '--out', 'strict.manifest.json'], io)).resolves.toBe(1);
    expect(io.out).toBe('');
    expect(lines(io.err)[0]).toBe('create_note: 1 error');
    expect(places(io.err)).toEqual([['error', 'notes.tools.ts:7', 'CreateNoteInput.title', '@IsAlpha']]);
    const summary = lines(io.err).at(-1)!;
    expect(summary.startsWith('scope-tool generate: 1 warning with --strict;')).toBe(true);
    expect(summary.endsWith('(nothing written)')).toBe(true);
    expect(existsSync(path.join(dir, 'strict.manifest.json'))).toBe(false);
  });

  it('generate --strict with errors and warnings counts the warnings among the errors, per tool and in the summary', async () => {
    const broken = path.join(dir, 'broken.tools.ts');
    writeFileSync(
      broken,
      "import { IsString, Max } from 'class-validator';\n" +
        "import { Tool, Toolset } from './decorators';\n" +
        'export class BrokenInput {\n' +
        '  @IsString() @Max(3) code!: string;\n' +
        '}\n' +
        '@Toolset()\n' +
        'export class BrokenTools {\n' +
        '  @Tool() broken(_input: BrokenInput): void {}\n' +
        '}\n',
    );
    try {
      const io = capture(dir);
      await expect(run(['generate', '--strict', '--out', 'strict.manifest.json'], io)).resolves.toBe(1);
      expect(io.out).toBe('');
      const [create, broken, summary, ...rest] = lines(io.err).filter((line) => !line.startsWith(' '));
      expect([create, broken, rest]).toEqual(['create_note: 1 error', 'broken: 1 error', []]);
      expect(summary.startsWith('scope-tool generate: 2 errors (1 warning with --strict);')).toBe(true);
      expect(summary.endsWith('(nothing written)')).toBe(true);
      expect(places(io.err)).toEqual([
        ['error', 'notes.tools.ts:7', 'CreateNoteInput.title', '@IsAlpha'],
        ['error', 'broken.tools.ts:4', 'BrokenInput.code', '@Max'],
      ]);
      expect(existsSync(path.join(dir, 'strict.manifest.json'))).toBe(false);
    } finally {
      rmSync(broken, { force: true });
    }
  });

  it('check on an absent manifest tells to run generate and exits 1 without compiling', async () => {
    const io = capture(dir);
    await expect(run(['check', '--manifest', 'nope.json'], io)).resolves.toBe(1);
    expect(lines(io.err)).toHaveLength(1);
    expect(io.err).toContain('nope.json does not exist');
    expect(io.err).toContain('scope-tool generate');
  });

  it('an unreadable tsconfig is a generation failure (exit 1) with the message only', async () => {
    const io = capture(dir);
    await expect(run(['generate', '--project', 'missing.json'], io)).resolves.toBe(1);
    expect(lines(io.err)).toEqual([expect.stringMatching(/^scope-tool: tool: invalid tool: /)]);
    expect(io.err).toContain('missing.json');
    expect(io.err).toContain('--project');
    expect(io.err).not.toMatch(/\n\s+at /);
  });
});

describe('scope-tool usage', () => {
  it('an unknown command is a usage error (exit 2)', async () => {
    const io = capture(os.tmpdir());
    await expect(run(['frobnicate'], io)).resolves.toBe(2);
    expect(io.err).toContain("unknown command 'frobnicate'");
  });

  it('an unknown option is a usage error (exit 2)', async () => {
    const io = capture(os.tmpdir());
    await expect(run(['generate', '--frob'], io)).resolves.toBe(2);
    expect(io.err).toContain("unknown option '--frob'");
  });

  it('no command at all is a usage error (exit 2) that shows the commands', async () => {
    const io = capture(os.tmpdir());
    await expect(run([], io)).resolves.toBe(2);
    expect(io.err).toContain('generate');
    expect(io.err).toContain('check');
  });

  it('--help exits 0', async () => {
    const io = capture(os.tmpdir());
    await expect(run(['--help'], io)).resolves.toBe(0);
    expect(io.out).toContain('Usage: scope-tool');
  });
});
