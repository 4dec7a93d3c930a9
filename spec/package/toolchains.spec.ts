/**
 * A consumer on toolchains that emit no `design:paramtypes` (issue 15 item 2): tsx (esbuild) and
 * Vitest compile spec/package/fixtures/toolchains with `experimentalDecorators` only, and a guarded
 * call of a tool whose input class is given as `@Tool({ input })` completes. The consumer is a
 * temporary project with the package built from lib/ (index and decorators, CommonJS and ESM, as
 * `npm run build` builds them, into its own folder rather than the shared dist/) installed as
 * node_modules/scope-tool, and the package's dependencies and the peers it uses linked beside it.
 * With `emitDecoratorMetadata` added to its tsconfig, tsx still records no metadata and Vitest does.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'toolchains');
/** The peers the fixture imports, and the test runner its test file imports. */
const CONSUMER_PACKAGES = ['class-validator', 'class-transformer', 'vitest'];

interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly bin?: string | Record<string, string>;
}

function packageJson(dir: string): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** The file a package's command runs (its package.json `bin`). */
function bin(name: string): string {
  const dir = path.join(ROOT, 'node_modules', name);
  const field = packageJson(dir).bin;
  const file = typeof field === 'string' ? field : field?.[name];
  if (file === undefined) throw new Error(`${name} declares no bin ${name}`);
  return path.join(dir, file);
}

let consumer: string;

/** Runs `node <args>` in the consumer; the status, stdout, and stderr when it failed. */
function node(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, args, {
    cwd: consumer,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.status === 0 ? '' : run.stderr };
}

beforeAll(() => {
  consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-toolchains-'));
  const modules = path.join(consumer, 'node_modules');
  const pkg = path.join(modules, 'scope-tool');
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  const tsup = spawnSync(
    process.execPath,
    [
      bin('tsup'),
      '--no-config',
      '--entry.index',
      'lib/index.ts',
      '--entry.decorators',
      'lib/decorators/index.ts',
      '--format',
      'cjs,esm',
      '--splitting',
      '--target',
      'node20',
      '--tsconfig',
      'tsconfig.json',
      '--out-dir',
      path.join(pkg, 'dist'),
      '--silent',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  if (tsup.status !== 0) throw new Error(`tsup failed: ${tsup.stderr}`);
  const linked = [...Object.keys(packageJson(ROOT).dependencies ?? {}), ...CONSUMER_PACKAGES];
  for (const name of linked) {
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), link, 'dir');
  }
  for (const file of fs.readdirSync(FIXTURE)) fs.copyFileSync(path.join(FIXTURE, file), path.join(consumer, file));
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
}, 60_000);

afterAll(() => {
  if (consumer !== undefined) fs.rmSync(consumer, { recursive: true, force: true });
});

describe('a consumer without design:paramtypes', () => {
  it('completes a guarded call under tsx (CommonJS), with no metadata emitted', () => {
    const run = node([bin('tsx'), 'main.ts']);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      paramtypes: false,
      output: 'created "Crash on start" (CreateIssueInput)',
      asked: 1,
      refused: 'ERR_INVALID_INVOCATION',
    });
  });

  it('passes its Vitest test (ESM), which asserts the same guarded call', () => {
    expect(vitest()).toEqual({ status: 0, stderr: '', passed: 1, failed: 0 });
  });
});

/** Runs the consumer's Vitest test; its status, stderr and pass counts. */
function vitest(env: Record<string, string> = {}): object {
  const report = path.join(consumer, 'vitest.json');
  fs.rmSync(report, { force: true });
  const run = node([bin('vitest'), 'run', '--reporter=json', `--outputFile=${report}`], env);
  const json = (fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : {}) as {
    numPassedTests?: number;
    numFailedTests?: number;
  };
  return { status: run.status, stderr: run.stderr, passed: json.numPassedTests, failed: json.numFailedTests };
}

// Issue 15, item 9: the docs said Vitest emits no metadata; Vitest 4.1 follows the tsconfig
// (docs/install.md, docs/decorators.md say which toolchains emit it).
describe('the same consumer with emitDecoratorMetadata set in its tsconfig', () => {
  let original: string;
  beforeAll(() => {
    const file = path.join(consumer, 'tsconfig.json');
    original = fs.readFileSync(file, 'utf8');
    const config = JSON.parse(original) as { compilerOptions: Record<string, unknown> };
    const compilerOptions = { ...config.compilerOptions, emitDecoratorMetadata: true };
    fs.writeFileSync(file, JSON.stringify({ ...config, compilerOptions }));
  });
  afterAll(() => {
    if (original !== undefined) fs.writeFileSync(path.join(consumer, 'tsconfig.json'), original);
  });

  it('still records no design:paramtypes under tsx (esbuild does not implement the option)', () => {
    const run = node([bin('tsx'), 'main.ts']);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual(expect.objectContaining({ paramtypes: false }));
  });

  it('records design:paramtypes under Vitest, and the call completes', () => {
    expect(vitest({ EXPECT_PARAMTYPES: '1' })).toEqual({ status: 0, stderr: '', passed: 1, failed: 0 });
  });
});
