/**
 * Test support: lets `node -r ./spec/support/register.js -r ./spec/mcp/support/resolve-package.js
 * <file.ts>` run TypeScript that imports scope-tool by name (the samples do), resolving
 * `scope-tool`, `scope-tool/decorators` and `scope-tool/mcp` to the lib/ sources, as tsconfig
 * paths and jest's moduleNameMapper do. No build needed, so the spawned servers test the sources.
 */
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..', '..');
const ENTRIES = {
  'scope-tool': 'lib/index.ts',
  'scope-tool/decorators': 'lib/decorators/index.ts',
  'scope-tool/mcp': 'lib/mcp/index.ts',
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveScopeTool(request, ...rest) {
  const entry = ENTRIES[request];
  return resolve.call(this, entry === undefined ? request : path.join(ROOT, entry), ...rest);
};
