import { Command, CommanderError } from 'commander';
import { messageOf } from '../protocol/errors';
import { findGenerator } from './generator';
import { EXIT, type CliIo, type ExitStatus } from './io';
import { CliError } from './messages';

/**
 * Runs `scope-tool` with `argv` (the arguments after the program name) and returns the exit status
 * instead of exiting, so tests run it in-process and the bin entry sets `process.exitCode`.
 * Statuses: 0 success (and `--help`), 1 generation or check failure (ToolError codes included),
 * 2 usage error (unknown command or option, missing argument). `signal` stops `generate --watch`
 * (which then resolves to 0); without it, `--watch` runs until the process ends.
 */
export async function run(argv: readonly string[], io: CliIo, signal?: AbortSignal): Promise<ExitStatus> {
  let status: ExitStatus = EXIT.OK;
  const program = new Command('scope-tool')
    .description('Build-time tools of scope-tool: generate and check the tool manifest.')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run scope-tool --help for usage)');
  program
    .command('generate')
    .description('read the TypeScript project, derive every @Tool input schema and write the manifest')
    .option('--project <tsconfig>', 'tsconfig.json of the project', 'tsconfig.json')
    .option('--out <file>', 'manifest file to write (default: tools.manifest.json beside the tsconfig)')
    .option('--strict', 'fail on warnings (checks only the decoder makes)', false)
    .option('--watch', 'regenerate whenever a source file changes, until Ctrl-C', false)
    .action(async (opts: { project: string; out?: string; strict: boolean; watch: boolean }) => {
      findGenerator('generate');
      if (opts.watch) {
        const { watchCommand } = await import('./watch-command');
        status = await watchCommand(opts, io, signal ?? new AbortController().signal);
      } else {
        const { generateCommand } = await import('./generate-command');
        status = generateCommand(opts, io);
      }
    });
  program
    .command('check')
    .description('exit non-zero when the manifest no longer matches the sources')
    .option('--project <tsconfig>', 'tsconfig.json of the project', 'tsconfig.json')
    .option('--manifest <file>', 'manifest file to verify (default: tools.manifest.json beside the tsconfig)')
    .action(async (opts: { project: string; manifest?: string }) => {
      findGenerator('check');
      const { checkCommand } = await import('./check-command');
      status = checkCommand(opts, io);
    });
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    if (argv.length === 0) {
      io.stderr(program.helpInformation());
      return EXIT.USAGE;
    }
    return status;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    // Generation failures (ToolError codes) and anything unexpected: the message only, no stack.
    const code = err instanceof CliError ? `${err.code}: ` : '';
    io.stderr(`scope-tool: ${code}${messageOf(err)}\n`);
    return EXIT.FAILED;
  }
}
