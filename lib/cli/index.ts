#!/usr/bin/env node
/**
 * The `scope-tool` bin entry (dist/cli.js). Importing it does nothing; run as the main module it
 * runs the CLI on `process.argv` and sets `process.exitCode`. The commands and the generator load
 * when a command runs, from the user's project (lib/cli/generator.ts): `--help` and the error that
 * names a missing typescript-json-schema need neither typescript nor typescript-json-schema.
 */
import { run } from './run';

export { run } from './run';
export { EXIT, type CliIo, type ExitStatus } from './io';
export type { GenerateCommandOptions } from './generate-command';
export type { CheckCommandOptions } from './check-command';

if (require.main === module) {
  // SIGINT (Ctrl-C) stops `generate --watch` cleanly; other commands keep Node's default (exit).
  const stop = new AbortController();
  if (process.argv.includes('--watch')) process.once('SIGINT', () => stop.abort());
  void run(
    process.argv.slice(2),
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      cwd: process.cwd(),
    },
    stop.signal,
  ).then((status) => {
    process.exitCode = status;
  });
}
