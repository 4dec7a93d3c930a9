/**
 * `npm start`: replays the recorded provider calls through the sample assistant (see transcript.ts),
 * then shows a suspension surviving a restart (see runtime-demo.ts): this file, run again as a child
 * process with `--suspend-into <file>`, is the process that suspends the call and exits.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { runRestartDemo, suspendIntoFile } from './runtime-demo';
import { runTranscript } from './transcript';

const root = process.cwd();
const fixturesDir = path.join(root, 'samples', 'fixtures');
const manifestPath = path.join(root, 'samples', 'tools.manifest.json');

/** Runs this file as a child process that suspends the call into `file`; resolves its lines. */
async function suspendInChild(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [__filename, '--suspend-into', file], { cwd: root });
  return stdout.split('\n').filter((line) => line !== '');
}

async function main(): Promise<void> {
  const write = (line: string) => process.stdout.write(`${line}\n`);
  if (process.argv[2] === '--suspend-into') {
    await suspendIntoFile(process.argv[3], { fixturesDir, manifestPath, write });
    return;
  }
  await runTranscript({ fixturesDir, manifestPath, write });
  await runRestartDemo({ fixturesDir, manifestPath, write, suspendInChild });
}

main().catch((error: unknown) => {
  process.stderr.write(`sample failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
