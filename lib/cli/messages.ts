/**
 * Every message of the `scope-tool` command that is not the generator's (lib/schema/messages.ts):
 * the errors of the command itself, each named by a code. Tests assert codes; the sentences are
 * tested once, in spec/cli/messages.spec.ts.
 * @internal
 */

/** The codes of the errors the `scope-tool` command itself raises. @internal */
export type CliErrorCode = 'ERR_GENERATOR_NOT_INSTALLED';

/**
 * An error of the `scope-tool` command, printed as `scope-tool: CODE: message` (exit status 1).
 * ERR_GENERATOR_NOT_INSTALLED carries the package that is `missing` and what to `install`.
 * @internal
 */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly missing?: string,
    readonly install?: string,
  ) {
    super(message);
  }
}

/**
 * `scope-tool generate` or `check` cannot load `missing` (typescript-json-schema, or the typescript it
 * depends on) from the project: says which package to install, as a dev dependency, in which range.
 * @internal
 */
export function generatorNotInstalled(command: string, missing: string, install: string): CliError {
  return new CliError(
    'ERR_GENERATOR_NOT_INSTALLED',
    `scope-tool ${command} needs the package ${missing}, which is not installed in this project ` +
      `(scope-tool itself does not depend on it, so that services run without it); ` +
      `install it as a dev dependency: npm install --save-dev ${install}`,
    missing,
    install,
  );
}
