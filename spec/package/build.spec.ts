/**
 * The build's configuration (tsup.config.ts) and the upkeep of build/types/ (scripts/typecheck.js): the
 * library build has exactly the entries of package.json `exports` (an entry whose source is missing
 * fails the build instead of dropping out of dist/); a build with declarations type-checks first, so
 * `tsup` alone rolls up fresh ones; a declaration whose source is gone is deleted from build/types/ (a
 * file moved from `x.ts` to `x/index.ts` left `x.d.ts`, which the roll-up resolved first); a lib/
 * source without its declaration (one deleted by hand, which an incremental check does not rewrite) is
 * found, and then the check runs in full. The check itself runs in the repository: an edit with an old
 * modification time, and a changed declaration in node_modules, are checked again.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ENTRIES, ROOT } from './entries';

type BuildConfig = { entry: Record<string, string>; dts?: { entry: Record<string, string> } };

/** tsup.config.ts's config function called as tsup calls it, with execFileSync recorded instead of run. */
function configFor(cli: { dts?: boolean }): { blocks: BuildConfig[]; ran: unknown[][] } {
  const ran: unknown[][] = [];
  let blocks: BuildConfig[] = [];
  jest.isolateModules(() => {
    jest.doMock('node:child_process', () => ({ execFileSync: (...args: unknown[]) => void ran.push(args) }));
    const config = (require(path.join(ROOT, 'tsup.config.ts')) as { default: (cli: object) => BuildConfig[] }).default;
    blocks = config(cli);
  });
  jest.dontMock('node:child_process');
  return { blocks, ran };
}

describe('tsup.config.ts', () => {
  it('builds exactly the entries of package.json exports, from sources that exist', () => {
    const library = configFor({ dts: false }).blocks[0];
    expect(library.entry).toEqual(Object.fromEntries(ENTRIES.map(({ dist, source }) => [dist, source])));
    expect(Object.values(library.entry).filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
    expect(library.dts?.entry).toEqual(
      Object.fromEntries(ENTRIES.map(({ dist, source }) => [dist, `build/types/${source.replace(/\.ts$/, '.d.ts')}`])),
    );
  });

  it('type-checks (writing build/types/) before a build with declarations, and not for --no-dts', () => {
    expect(configFor({}).ran).toEqual([['npm', ['run', 'typecheck', '--silent'], { stdio: 'inherit' }]]);
    expect(configFor({ dts: false }).ran).toEqual([]);
  });
});

describe('scripts/typecheck.js', () => {
  const { pruneDeclarations, missingDeclarations, typecheck } = require(path.join(ROOT, 'scripts', 'typecheck.js')) as {
    pruneDeclarations: (root: string) => string[];
    missingDeclarations: (root: string) => string[];
    typecheck: (root: string, stdio?: 'inherit' | 'pipe') => number;
  };
  let root: string;
  const write = (file: string, text = '') => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  /** Writes `file` keeping its modification time (as `cp -p`, `rsync -t` or an edit during a check leave it). */
  const rewriteKeepingTime = (file: string, text: string) => {
    const { atime, mtime } = fs.statSync(path.join(root, file));
    fs.writeFileSync(path.join(root, file), text);
    fs.utimesSync(path.join(root, file), atime, mtime);
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-prune-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('deletes the declarations of removed sources and the folders left empty, and keeps the rest', () => {
    for (const file of ['lib/a.ts', 'lib/x/index.ts', 'spec/s.spec.ts']) write(file);
    for (const file of ['a.d.ts', 'x.d.ts', 'x/index.d.ts', 'gone/y.d.ts', 'gone/z/w.d.ts'])
      write(`build/types/lib/${file}`);
    write('build/types/spec/s.spec.d.ts');
    write('build/types/tsconfig.tsbuildinfo');
    expect(pruneDeclarations(root).sort()).toEqual(
      ['lib/gone/y.d.ts', 'lib/gone/z/w.d.ts', 'lib/x.d.ts'].map((f) => f.split('/').join(path.sep)),
    );
    const left: string[] = [];
    const walk = (dir: string) =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .forEach((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : left.push(path.relative(root, path.join(dir, e.name))),
        );
    walk(path.join(root, 'build'));
    expect(left.sort()).toEqual([
      'build/types/lib/a.d.ts',
      'build/types/lib/x/index.d.ts',
      'build/types/spec/s.spec.d.ts',
      'build/types/tsconfig.tsbuildinfo',
    ]);
    expect(fs.existsSync(path.join(root, 'build/types/lib/gone'))).toBe(false);
  });

  it('does nothing without build/types/', () => {
    expect(pruneDeclarations(root)).toEqual([]);
  });

  it('names the lib/ sources whose declaration is missing (a declaration deleted by hand)', () => {
    for (const file of ['lib/a.ts', 'lib/p/output.ts', 'lib/p/types.d.ts']) write(file);
    write('build/types/lib/a.d.ts');
    expect(missingDeclarations(root)).toEqual([path.join('lib', 'p', 'output.ts')]);
    write('build/types/lib/p/output.d.ts');
    expect(missingDeclarations(root)).toEqual([]);
  });

  it('checks again a source or a dependency declaration whose text changed, whatever its modification time', () => {
    const options = {
      strict: true,
      declaration: true,
      target: 'ES2022',
      lib: ['ES2022'],
      types: [],
      module: 'commonjs',
      rootDir: '.',
    };
    write('tsconfig.json', JSON.stringify({ compilerOptions: options, include: ['lib'] }));
    write('tsconfig.types.json', fs.readFileSync(path.join(ROOT, 'tsconfig.types.json'), 'utf8'));
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'typescript'), path.join(root, 'node_modules', 'typescript'), 'dir');
    write('node_modules/dep/package.json', JSON.stringify({ name: 'dep', types: 'index.d.ts' }));
    write('node_modules/dep/index.d.ts', 'export declare function f(x: string): number;\n');
    write(
      'lib/a.ts',
      "import { f } from 'dep';\nexport interface A { readonly x: number }\nexport const n = f('1');\n",
    );
    expect(typecheck(root, 'pipe')).toBe(0);
    const declaration = () => fs.readFileSync(path.join(root, 'build/types/lib/a.d.ts'), 'utf8');
    expect(declaration()).not.toMatch(/\by: string/);
    rewriteKeepingTime(
      'lib/a.ts',
      "import { f } from 'dep';\nexport interface A { readonly x: number; readonly y: string }\nexport const n = f('1');\n",
    );
    expect(typecheck(root, 'pipe')).toBe(0);
    expect(declaration()).toMatch(/\by: string/);
    rewriteKeepingTime('node_modules/dep/index.d.ts', 'export declare function f(x: number): number;\n');
    expect(typecheck(root, 'pipe')).not.toBe(0);
  }, 60_000);
});
