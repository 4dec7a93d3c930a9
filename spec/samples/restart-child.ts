/**
 * The child process of spec/samples/restart-demo.spec.ts (not a spec): what `node
 * build/samples/main.js --suspend-into <file>` does after `npm start` built it, run from the
 * sources through spec/support/register.js (swc). `scope-tool` entries resolve to lib/ as tsconfig.json `paths` say.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
const paths = tsconfig.compilerOptions.paths as Record<string, string[]>;
const resolver = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = resolver._resolveFilename;
resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
  const mapped = paths[request]?.[0];
  return resolve.call(this, mapped === undefined ? request : path.join(ROOT, mapped), ...rest);
};

const demo = require('../../samples/runtime-demo') as typeof import('../../samples/runtime-demo');
demo
  .suspendIntoFile(process.argv[2], {
    fixturesDir: path.join(ROOT, 'samples', 'fixtures'),
    manifestPath: path.join(ROOT, 'samples', 'tools.manifest.json'),
    write: (line) => process.stdout.write(`${line}\n`),
  })
  .catch((error: unknown) => {
    process.stderr.write(`restart child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
