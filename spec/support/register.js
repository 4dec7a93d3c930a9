/**
 * Test support: `node -r ./spec/support/register.js <file.ts>` runs a spec's child process (the
 * store contract's children, the MCP servers, the restart demo) from the TypeScript sources: each
 * `.ts` file is transpiled by swc, with jest's options (spec/support/swc-options.js), as it is
 * required. No type check (`npm test` runs `tsc --noEmit` first), and no TypeScript compiler loaded:
 * a child starts in about half the CPU time ts-node's swc mode took (0.5 against 1.0 s for
 * lib/runtime), and the specs start dozens of children.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');
const OPTIONS = require('./swc-options');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...OPTIONS, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};
