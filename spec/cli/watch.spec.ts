import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { run, type CliIo } from '../../lib/cli';

const PROJECT = path.join(__dirname, '..', 'schema', 'fixtures', 'project');
const NODE_MODULES = path.join(__dirname, '..', '..', 'node_modules');

const LIMITS = `import { IsInt, Max } from 'class-validator';
import { Tool, Toolset } from './decorators';

/** How many notes to list. */
export class ListInput {
  /** At most this many. */
  @IsInt() @Max(50) limit!: number;
}

@Toolset()
export class LimitsTools {
  /** List notes. */
  @Tool({ name: 'list_notes' })
  list(input: ListInput): string[] {
    return [String(input.limit)];
  }
}
`;

/** Polls `done` every 100 ms, up to `ms` (a bound on waiting, not an assertion on speed). */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done();
}

/** The `maximum` of list_notes' `limit` in the manifest, or undefined while there is none. */
function maximum(file: string): unknown {
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const tool = manifest.tools.find((t: { name: string }) => t.name === 'list_notes');
    return tool?.definition?.input_schema?.properties?.limit?.maximum;
  } catch {
    return undefined; // caught mid-write
  }
}

describe('scope-tool generate --watch (issue 15 item 4)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'scope-tool-watch-'));
    for (const f of ['tsconfig.json', 'decorators.ts']) cpSync(path.join(PROJECT, f), path.join(dir, f));
    writeFileSync(path.join(dir, 'limits.tools.ts'), LIMITS);
    symlinkSync(NODE_MODULES, path.join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('regenerates the manifest when a DTO changes, keeps going after a refusal, and stops on abort', async () => {
    let out = '';
    let err = '';
    const io: CliIo = { cwd: dir, stdout: (t) => void (out += t), stderr: (t) => void (err += t) };
    const manifest = path.join(dir, 'tools.manifest.json');
    const stop = new AbortController();
    const running = run(['generate', '--watch'], io, stop.signal);
    try {
      expect(await until(() => maximum(manifest) === 50, 20_000)).toBe(true);
      const wrote = () => err.split('\n').filter((l) => l.startsWith('scope-tool generate: wrote ')).length;
      expect(wrote()).toBe(1);

      // A refused source: reported, nothing written, still watching.
      const file = path.join(dir, 'limits.tools.ts');
      writeFileSync(file, LIMITS.replace('limit!: number;', 'limit!: number;\n  extra!: Map<string, number>;'));
      expect(await until(() => err.includes('nothing written'), 20_000)).toBe(true);
      expect(maximum(manifest)).toBe(50);

      writeFileSync(file, LIMITS.replace('@Max(50)', '@Max(100)'));
      expect(await until(() => maximum(manifest) === 100, 20_000)).toBe(true);
      expect(wrote()).toBe(2);
      expect(out).toBe(''); // everything on stderr
    } finally {
      stop.abort();
    }
    await expect(running).resolves.toBe(0);
  }, 90_000);

  it('the bin entry stops watching on SIGINT and exits 0', async () => {
    const manifest = path.join(dir, 'tools.manifest.json');
    rmSync(manifest, { force: true });
    const entry = path.join(__dirname, '..', '..', 'lib', 'cli', 'index.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', entry, 'generate', '--watch'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      expect(await until(() => maximum(manifest) !== undefined, 60_000)).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(err.startsWith('scope-tool generate --watch: watching tsconfig.json')).toBe(true);
  }, 90_000);
});
