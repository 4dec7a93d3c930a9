/** `npm start`: replays the recorded provider calls through the sample assistant (see transcript.ts). */
import * as path from 'node:path';
import { runTranscript } from './transcript';

const root = process.cwd();
runTranscript({
  fixturesDir: path.join(root, 'samples', 'fixtures'),
  manifestPath: path.join(root, 'samples', 'tools.manifest.json'),
  write: (line) => process.stdout.write(`${line}\n`),
}).catch((error: unknown) => {
  process.stderr.write(`sample failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
