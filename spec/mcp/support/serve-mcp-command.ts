/** How the MCP specs start samples/serve-mcp.ts from its TypeScript sources (no build needed). */
import * as path from 'node:path';

/** The repository root. */
export const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * The command (argv) that runs samples/serve-mcp.ts from its sources (spec/support/register.js),
 * with `scope-tool` names resolved to lib/ by resolve-package.js.
 */
export const SERVE_MCP_COMMAND: readonly string[] = [
  process.execPath,
  '-r',
  path.join(ROOT, 'spec', 'support', 'register.js'),
  '-r',
  path.join(ROOT, 'spec', 'mcp', 'support', 'resolve-package.js'),
  path.join(ROOT, 'samples', 'serve-mcp.ts'),
];
