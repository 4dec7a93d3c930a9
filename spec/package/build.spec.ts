/**
 * The build's configuration (tsup.config.ts) and the declaration prune (scripts/prune-declarations.js):
 * the library build has exactly the entries of package.json `exports` (an entry whose source is missing
 * fails the build instead of dropping out of dist/); a build with declarations type-checks first, so
 * `tsup` alone rolls up fresh ones; and a declaration whose source is gone is deleted from build/types/
 * (a file moved from `x.ts` to `x/index.ts` left `x.d.ts`, which the roll-up resolved first).
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

describe('scripts/prune-declarations.js', () => {
  const { pruneDeclarations } = require(path.join(ROOT, 'scripts', 'prune-declarations.js')) as {
    pruneDeclarations: (root: string) => string[];
  };
  let root: string;
  const write = (file: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
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
});
