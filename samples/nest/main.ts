/** `npm run sample:nest`: the assistant as a NestJS application, replaying the recorded provider calls (see run.ts). */
import * as path from 'node:path';
import { runNestSample } from './run';

const root = process.cwd();
runNestSample({
  fixturesDir: path.join(root, 'samples', 'fixtures'),
  manifestPath: path.join(root, 'samples', 'tools.manifest.json'),
  write: (line) => process.stdout.write(`${line}\n`),
}).catch((error: unknown) => {
  process.stderr.write(`sample failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
