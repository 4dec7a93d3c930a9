/**
 * `npm run serve:mcp`: the samples' toolsets (weather, notes, diagnostics, the README greeter)
 * served as an MCP server over stdio. Connect any MCP client, for example:
 *
 *   npx @modelcontextprotocol/inspector-cli --cli node build/samples/serve-mcp.js --method tools/list
 *
 * Every call runs as the sample caller `mcp-user` with the scopes weather:read and notes:write,
 * so the Guards of the samples decide as they do in the main sample. Diagnostics go to stderr;
 * stdout carries JSON-RPC only.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from 'scope-tool';
import type { Registry } from 'scope-tool';
import { serveStdio } from 'scope-tool/mcp';
import { DiagnosticsTools } from './assistant/diagnostics.tools';
import { NotesStore } from './assistant/notes-store';
import { NotesTools } from './assistant/notes.tools';
import type { Caller } from './assistant/policies';
import { WeatherTools } from './assistant/weather.tools';
import { GreeterTools } from './readme-example';

/** The caller every MCP call of the sample runs as. */
export const MCP_CALLER: Caller = { user: 'mcp-user', scopes: ['weather:read', 'notes:write'] };

/** Finds samples/tools.manifest.json from the sources (samples/) or the build (build/samples/). */
export function sampleManifestPath(): string {
  const candidates = [
    path.join(__dirname, 'tools.manifest.json'),
    path.join(__dirname, '..', '..', 'samples', 'tools.manifest.json'),
  ];
  const found = candidates.find((file) => fs.existsSync(file));
  if (found === undefined)
    throw new Error(
      `samples/tools.manifest.json not found (looked at ${candidates.join(', ')}); run npm run generate:samples`,
    );
  return found;
}

/** The samples' registry, built from the manifest as samples/transcript.ts builds it. */
export function createSampleRegistry(manifestPath = sampleManifestPath()): Registry {
  return createRegistry({
    manifest: manifestPath,
    toolsets: [new WeatherTools(), new NotesTools(new NotesStore()), new DiagnosticsTools(), new GreeterTools()],
  });
}

async function main(): Promise<void> {
  const registry = createSampleRegistry();
  const server = await serveStdio(registry, {
    name: 'scope-tool-samples',
    version: '0.1.0',
    context: () => ({ ...MCP_CALLER }),
    onError: (error) =>
      process.stderr.write(`serve-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  process.stderr.write(`serve-mcp: serving ${registry.definitions().length} tools over stdio\n`);
  await server.closed;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`serve-mcp failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
