/**
 * No unbounded growth: a long run of refused calls (bad JSON, schema violations, unknown tools,
 * denied policies, each rendered for the model) leaves the heap where it started. The workload
 * (heap-workload.ts) runs in a child `node --expose-gc` process, transpiled on load; the heap is
 * read after forced full collections, in bytes, never by time.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Loads .ts files through TypeScript's transpiler (no type check), then runs the workload. */
const LOADER = `
const fs = require('fs');
const ts = require('typescript');
require.extensions['.ts'] = (module, filename) => {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions: {
    module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true,
    experimentalDecorators: true, emitDecoratorMetadata: true, useDefineForClassFields: false } });
  module._compile(out.outputText, filename);
};
require(process.argv[1]).main().catch((e) => { console.error(e); process.exit(1); });
`;

describe('heap over a long run of refused calls', () => {
  it('does not grow with the number of refused calls (10,000 refusals retain under 1 MB)', () => {
    const workload = join(__dirname, 'heap-workload.ts');
    const out = execFileSync(process.execPath, ['--expose-gc', '-e', LOADER, workload], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const { refused, start, middle, end } = JSON.parse(out.trim().split('\n').pop() as string) as Record<
      string,
      number
    >;
    expect(refused).toBe(10_700);
    // 100 retained bytes per refusal would be 1 MB; the second run must not add what the first did.
    expect(end - start).toBeLessThan(1024 * 1024);
    expect(end - middle).toBeLessThan(512 * 1024);
  });
});
