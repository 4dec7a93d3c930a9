import path from 'node:path';
import ts from 'typescript';
import { messageOf } from '../protocol/errors';
import { generateCommand, type GenerateCommandOptions } from './generate-command';
import { EXIT, type CliIo, type ExitStatus } from './io';

/**
 * `scope-tool generate --watch`: runs `scope-tool generate` once, then again each time a source file
 * of the project changes, until `signal` aborts (the bin entry aborts on SIGINT). TypeScript's own
 * watch API (`ts.createWatchProgram` over the tsconfig) decides which files count and batches a
 * burst of saves into one regeneration. Everything goes to stderr, one line per regeneration
 * (`scope-tool generate: wrote ...`) plus the warnings and errors of that run; a failed run
 * (generation errors, ERR_INVALID_TOOL when the project cannot be loaded) is printed and watching
 * goes on.
 * @returns resolves to 0 once `signal` aborts
 */
export function watchCommand(options: GenerateCommandOptions, io: CliIo, signal: AbortSignal): Promise<ExitStatus> {
  const project = path.resolve(io.cwd, options.project);
  // stdout stays free (a pipe reading it would see nothing but the first run's lines otherwise).
  const quiet: CliIo = { stdout: io.stderr, stderr: io.stderr, cwd: io.cwd };
  const regenerate = (): void => {
    try {
      generateCommand(options, quiet);
    } catch (err) {
      io.stderr(`scope-tool: ${messageOf(err)}\n`);
    }
  };
  const host = ts.createWatchCompilerHost(
    project,
    { noEmit: true },
    ts.sys,
    ts.createSemanticDiagnosticsBuilderProgram,
    () => undefined, // type errors are the compiler's business; the generator reports its own
    () => undefined, // "File change detected": the regeneration line says it
  );
  host.afterProgramCreate = regenerate;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(EXIT.OK);
    io.stderr(`scope-tool generate --watch: watching ${path.relative(io.cwd, project) || project} (Ctrl-C stops)\n`);
    const watch = ts.createWatchProgram(host);
    signal.addEventListener(
      'abort',
      () => {
        watch.close();
        resolve(EXIT.OK);
      },
      { once: true },
    );
  });
}
