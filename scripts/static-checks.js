/**
 * `npm test`'s first stage: `npm run typecheck` and `npm run lint` side by side (each keeps one core
 * busy; jest, which needs both, starts after). Each one's output is printed when it ends, whole, so
 * the two never interleave; the exit status is 1 when either failed.
 */
const { Buffer } = require('node:buffer');
const { spawn } = require('node:child_process');
const process = require('node:process');

/** Runs `npm run <script> --silent`; resolves with its exit status once its output is printed. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script, '--silent'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`npm run ${script}: ${error.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(chunks));
      resolve(code ?? 1);
    });
  });
}

Promise.all([run('typecheck'), run('lint')]).then((codes) => {
  process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
});
