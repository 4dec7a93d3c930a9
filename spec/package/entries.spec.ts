/**
 * The package's public surface, entry by entry (spec/package/entries.ts holds the exact lists): each
 * entry is wired the same way everywhere (package.json `exports` and `typesVersions`, tsup, jest,
 * tsconfig paths), its lib/ module names every export (no `export *`), exports exactly the pinned
 * names, and exports no `@internal` helper; `markRefusal` (only admission may mark an error as the
 * model's to fix) is reachable from none of them. The built dist/ files are checked against the same
 * lists by spec/package/dist.spec.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { markRefusal } from '../../lib/protocol/refusal';
import { ENTRIES, ROOT, exportedNames } from './entries';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
};
const sorted = (names: Iterable<string>) => [...names].sort();
const subpath = (specifier: string) => specifier.slice('scope-tool/'.length);
const load = (source: string) => require(path.join(ROOT, source)) as Record<string, unknown>;

function listFiles(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full, name);
    return entry.name === name ? [full] : [];
  });
}

describe('package entries: wiring', () => {
  it('package.json exports exactly the pinned entries, each with import and require builds and types', () => {
    const specifiers = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'scope-tool' : `scope-tool/${key.slice(2)}`));
    expect(sorted(specifiers)).toEqual(sorted(ENTRIES.map((e) => e.specifier)));
    for (const { specifier, dist } of ENTRIES) {
      const key = specifier === 'scope-tool' ? '.' : `./${subpath(specifier)}`;
      expect(pkg.exports[key]).toEqual({
        import: { types: `./dist/${dist}.d.mts`, default: `./dist/${dist}.mjs` },
        require: { types: `./dist/${dist}.d.ts`, default: `./dist/${dist}.js` },
      });
    }
  });

  it('typesVersions maps every subpath to its declarations, for moduleResolution node10 consumers', () => {
    const subpaths = ENTRIES.filter((e) => e.specifier !== 'scope-tool');
    expect(pkg.typesVersions).toEqual({
      '*': Object.fromEntries(subpaths.map((e) => [subpath(e.specifier), [`./dist/${e.dist}.d.ts`]])),
    });
  });

  it('tsup builds, jest maps and tsconfig resolves every entry to its lib/ module', () => {
    const tsup = fs.readFileSync(path.join(ROOT, 'tsup.config.ts'), 'utf8');
    const jest = require(path.join(ROOT, 'jest.config.js')) as {
      projects: { moduleNameMapper: Record<string, string> }[];
    };
    const tsconfig = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    for (const { specifier, source, dist } of ENTRIES) {
      expect(tsup).toContain(`${dist}: '${source}'`);
      for (const project of jest.projects) {
        expect(project.moduleNameMapper[`^${specifier}$`]).toBe(`<rootDir>/${source}`);
      }
      expect(tsconfig.compilerOptions.paths[specifier]).toEqual([source]);
    }
  });
});

describe.each(ENTRIES)('entry $specifier ($source)', ({ source, values, types }) => {
  it('names every export and exports exactly the pinned names', () => {
    const names = exportedNames(path.join(ROOT, source));
    expect(names.filter((n) => !n.typeOnly).map((n) => n.name)).toEqual(values);
    expect(names.filter((n) => n.typeOnly).map((n) => n.name)).toEqual(types);
  });

  it('exports no @internal helper', () => {
    const internal = exportedNames(path.join(ROOT, source)).filter((n) => n.internal);
    expect(internal.map((n) => `${n.name} (${n.definedIn})`)).toEqual([]);
  });

  it('has exactly the pinned run-time names when loaded', () => {
    expect(sorted(Object.keys(load(source)))).toEqual(values);
  });
});

describe('provider entries without their SDKs', () => {
  it.each(['lib/openai.ts', 'lib/anthropic.ts', 'lib/gemini.ts'])(
    '%s loads when no provider SDK can be loaded (the SDKs are type-only imports)',
    (source) => {
      jest.isolateModules(() => {
        for (const sdk of ['openai', '@anthropic-ai/sdk', '@google/genai']) {
          jest.doMock(sdk, () => {
            throw new Error(`Cannot find module '${sdk}'`);
          });
        }
        expect(Object.keys(load(source)).length).toBeGreaterThan(0);
      });
    },
  );
});

describe('markRefusal stays inside lib/', () => {
  /**
   * Every value reachable from an entry's module object (read like an importer does: re-exports are
   * getters) through own data properties and prototypes, to `depth` steps.
   */
  function reachable(entry: Record<string, unknown>, depth: number): Set<unknown> {
    const seen = new Set<unknown>([entry]);
    let frontier: unknown[] = Object.keys(entry).map((key) => entry[key]);
    for (let step = 1; step <= depth && frontier.length > 0; step++) {
      const next: unknown[] = [];
      for (const value of frontier) {
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
        seen.add(value);
        next.push(Object.getPrototypeOf(value));
        for (const key of Reflect.ownKeys(value)) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          if (descriptor !== undefined && 'value' in descriptor) next.push(descriptor.value);
        }
      }
      frontier = next;
    }
    return seen;
  }

  it.each(ENTRIES)('is not reachable from $specifier, by name or through its exported values', ({ source }) => {
    const entry = load(source);
    expect(Object.keys(entry)).not.toContain('markRefusal');
    expect(reachable(entry, 4).has(markRefusal)).toBe(false);
  });

  it('is still what admission uses (the check above looks for the right function)', () => {
    expect(reachable(load('lib/protocol/index.ts'), 1).has(markRefusal)).toBe(true);
  });
});

describe('named exports everywhere', () => {
  it.each(listFiles(path.join(ROOT, 'lib'), 'index.ts').map((f) => path.relative(ROOT, f)))(
    '%s lists its exports by name (no export *)',
    (file) => {
      expect(() => exportedNames(path.join(ROOT, file))).not.toThrow();
    },
  );

  it('samples import the package by its entries, never lib/ by path', () => {
    const relativeLib = fs
      .readdirSync(path.join(ROOT, 'samples'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from '(\.\.\/)+lib[/']/.test(fs.readFileSync(path.join(ROOT, 'samples', file), 'utf8')));
    expect(relativeLib).toEqual([]);
  });
});
