/**
 * Test support: `node -r ./spec/support/register.js <file.ts>` runs a spec's child process (the
 * store contract's children, the MCP servers, the restart demo) from the TypeScript sources:
 * ts-node with its swc transpiler, which maps tsconfig.json's legacy decorators, design:* metadata
 * and useDefineForClassFields: false as jest.config.js's @swc/jest options do. No type check (`npm
 * test` runs `tsc --noEmit` first); swc transpiles a child's modules in about a fifth of the time
 * TypeScript's own transpileModule takes, and the specs start dozens of children.
 */
require('ts-node').register({ swc: true });
