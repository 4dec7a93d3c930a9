/**
 * Where the CLI finds the schema generator's packages: typescript-json-schema, an optional peer of
 * scope-tool installed as a dev dependency of the user's project (package.json peerDependencies),
 * and the typescript that typescript-json-schema itself depends on. The CLI compiles with that
 * typescript rather than the project's own, so the two always agree and a project that compiles
 * with another TypeScript (6, or 7 which has no compiler API) still generates; the CLI build maps
 * `typescript` to lib/cli/typescript.ts (tsup.config.ts). scope-tool's run-time entries load neither
 * (spec/package/dist.spec.ts).
 * @internal
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { generatorNotInstalled } from './messages';

/** The peer the generator needs and its range, as package.json peerDependencies declares it. @internal */
export const GENERATOR_PEER = Object.freeze({ name: 'typescript-json-schema', range: '~0.68.0' });

/** The files the generator loads: typescript-json-schema's entry and the typescript it depends on. @internal */
export interface GeneratorFiles {
  readonly generator: string;
  readonly typescript: string;
}

/**
 * Resolves the generator's packages as Node resolves them from the directory `from` (the CLI's
 * own directory, dist/ inside node_modules/scope-tool, by default).
 * @param command the command that needs them (`generate`, `check`), named in the error
 * @throws CliError ERR_GENERATOR_NOT_INSTALLED naming the package that is missing and the install command
 * @internal
 */
export function findGenerator(command: string, from: string = __dirname): GeneratorFiles {
  const install = `${GENERATOR_PEER.name}@${GENERATOR_PEER.range}`;
  const generator = resolveFrom(path.join(from, 'scope-tool-cli.js'), GENERATOR_PEER.name);
  if (generator === undefined) throw generatorNotInstalled(command, GENERATOR_PEER.name, install);
  const typescript = resolveFrom(generator, 'typescript');
  if (typescript === undefined) throw generatorNotInstalled(command, 'typescript', install);
  return { generator, typescript };
}

function resolveFrom(file: string, name: string): string | undefined {
  try {
    return createRequire(file).resolve(name);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}
