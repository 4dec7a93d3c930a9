import path from 'node:path';
/**
 * Where a CLI run writes and which directory it resolves paths against. The bin entry passes the
 * process's streams; tests pass collectors and a temporary directory.
 */
export interface CliIo {
  /** Writes one chunk of normal output (already newline-terminated). */
  readonly stdout: (text: string) => void;
  /** Writes one chunk of diagnostics (already newline-terminated). */
  readonly stderr: (text: string) => void;
  /** The directory relative paths (`--project`, `--out`, `--manifest`) are resolved against. */
  readonly cwd: string;
}

/** Exit statuses of `scope-tool`: 0 success, 1 generation or check failure, 2 usage error. */
export const EXIT = Object.freeze({ OK: 0, FAILED: 1, USAGE: 2 } as const);

/** The exit status a CLI command returns. */
export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

/** The manifest's file name when no path is given: it sits beside the project's tsconfig. */
export const DEFAULT_MANIFEST = 'tools.manifest.json';

/**
 * The manifest path of a command: `given` (--out, --manifest) relative to the working directory, as
 * every path a user types; without it, DEFAULT_MANIFEST in the tsconfig's folder (the project root),
 * whatever the working directory. `project`: the resolved tsconfig path.
 */
export function manifestPath(cwd: string, project: string, given: string | undefined): string {
  return given === undefined ? path.join(path.dirname(project), DEFAULT_MANIFEST) : path.resolve(cwd, given);
}
