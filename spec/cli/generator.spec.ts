/**
 * The generator's packages come from the user's project (lib/cli/generator.ts): typescript-json-schema,
 * an optional peer in the range package.json declares, and the typescript it depends on. Where they
 * are missing, the command fails with ERR_GENERATOR_NOT_INSTALLED before loading anything.
 * spec/package/dist.spec.ts runs the built CLI in a project without them.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findGenerator, GENERATOR_PEER } from '../../lib/cli/generator';
import { CliError } from '../../lib/cli/messages';

const ROOT = path.join(__dirname, '..', '..');

interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

let empty: string;
beforeAll(() => {
  empty = mkdtempSync(path.join(os.tmpdir(), 'scope-tool-no-generator-'));
});
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('the generator packages', () => {
  it('are no dependency of scope-tool; typescript-json-schema is an optional peer in the range the CLI names', () => {
    expect(Object.keys(pkg.dependencies ?? {}).filter((n) => n.startsWith('typescript'))).toEqual([]);
    expect(pkg.peerDependencies?.[GENERATOR_PEER.name]).toBe(GENERATOR_PEER.range);
    expect(pkg.peerDependenciesMeta?.[GENERATOR_PEER.name]?.optional).toBe(true);
    expect(pkg.peerDependencies?.typescript).toBeUndefined();
  });

  it('resolves typescript-json-schema and the typescript it depends on', () => {
    const found = findGenerator('generate');
    const tjs = realpathSync(path.join(ROOT, 'node_modules', 'typescript-json-schema'));
    expect(found.generator.startsWith(tjs + path.sep)).toBe(true);
    expect(found.typescript).toContain(`${path.sep}typescript${path.sep}`);
  });

  it('names typescript-json-schema when the project lacks it', () => {
    const error = thrown(() => findGenerator('check', empty));
    expect(error).toBeInstanceOf(CliError);
    expect(error).toEqual(
      expect.objectContaining({
        code: 'ERR_GENERATOR_NOT_INSTALLED',
        missing: GENERATOR_PEER.name,
        install: `${GENERATOR_PEER.name}@${GENERATOR_PEER.range}`,
      }),
    );
  });

  it('names typescript when typescript-json-schema cannot load it', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scope-tool-no-typescript-'));
    try {
      const tjs = path.join(project, 'node_modules', 'typescript-json-schema');
      mkdirSync(tjs, { recursive: true });
      writeFileSync(path.join(tjs, 'package.json'), JSON.stringify({ name: 'typescript-json-schema', main: 'x.js' }));
      writeFileSync(path.join(tjs, 'x.js'), '');
      const error = thrown(() => findGenerator('generate', project));
      expect(error).toEqual(
        expect.objectContaining({
          code: 'ERR_GENERATOR_NOT_INSTALLED',
          missing: 'typescript',
          install: `${GENERATOR_PEER.name}@${GENERATOR_PEER.range}`,
        }),
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
