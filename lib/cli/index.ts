#!/usr/bin/env node
/**
 * The `scope-tool` bin entry (dist/cli.js). Importing it does nothing; run as the main module it
 * runs the CLI on `process.argv` and sets `process.exitCode`. typescript and
 * typescript-json-schema are loaded as external packages (never bundled).
 */
import { run } from './run';

export { run } from './run';
export { EXIT, type CliIo, type ExitStatus } from './io';
export { generateCommand, type GenerateCommandOptions } from './generate-command';
export { checkCommand, type CheckCommandOptions } from './check-command';

if (require.main === module) {
  void run(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  }).then((status) => {
    process.exitCode = status;
  });
}
