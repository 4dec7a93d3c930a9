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

/** How many differences a `stale:` line of `scope-tool check` lists before `and N more`. @internal */
export const LISTED_DIFFERENCES = 3;

/** A value of a difference as printed: JSON, cut at 60 characters; undefined is `absent`. */
function shown(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * The `stale:` line of `scope-tool check` for one tool, naming what differs (a JSON Pointer inside the
 * tool's entry, from lib/schema/compare.ts toolDifferences):
 * `stale: create_note (NotesTools.createNote): /definition/input_schema/properties/title/maxLength is
 * 80 in the sources but 120 in tools.manifest.json`. A fingerprint alone says the source text changed.
 * @internal
 */
export function staleTool(
  tool: string,
  origin: string,
  differences: readonly { readonly pointer: string; readonly inSources: unknown; readonly inFile: unknown }[],
  file: string,
): string {
  const what = differences
    .slice(0, LISTED_DIFFERENCES)
    .map((d) =>
      d.pointer === '/fingerprint'
        ? 'the source text changed (its fingerprint differs) though its definition did not'
        : `${d.pointer === '' ? 'the entry' : d.pointer} is ${shown(d.inSources)} in the sources but ${shown(d.inFile)} in ${file}`,
    );
  const more = differences.length - LISTED_DIFFERENCES;
  if (more > 0) what.push(`and ${more} more`);
  return `stale: ${tool} (${origin}): ${what.length > 0 ? what.join('; ') : 'the manifest entry no longer matches the source'}`;
}

/** The `missing:` line of `scope-tool check`: a tool the sources have and the file lacks. @internal */
export function missingTool(tool: string, origin: string, file: string): string {
  return `missing: ${tool} (${origin}): in the sources but not in ${file}`;
}

/** The `extra:` line of `scope-tool check`: a tool the file lists and the sources no longer have. @internal */
export function extraTool(tool: string, file: string): string {
  return `extra: ${tool}: in ${file} but no longer in the sources`;
}

/** The last line of a failed `scope-tool check`. @internal */
export function outOfDate(file: string): string {
  return `scope-tool check: ${file} is out of date; run scope-tool generate`;
}
