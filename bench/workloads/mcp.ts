/**
 * MCP workloads with the official SDK: a `McpServer` with `registerTool` (zod input schema) and
 * the SDK `Client`, linked by an `InMemoryTransport` pair (no network). Per call:
 * `JSON.parse` of the model's arguments (an MCP `tools/call` carries an object) and
 * `client.callTool`, which runs the JSON-RPC round trip, the server's zod validation and the
 * callback. Also `tools/list` against servers of 5 and 50 tools.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import type { BenchTool } from '../fixtures';

/** A connected client and the way to close both ends. */
export interface McpPair {
  readonly client: Client;
  close(): Promise<void>;
}

/** Connects an SDK Client to `server` over a fresh in-memory transport pair. */
export async function connectClient(server: { connect(t: InMemoryTransport): Promise<void>; close(): Promise<void> }): Promise<McpPair> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'scope-tool-bench', version: '1.0.0' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** An SDK server holding the bench tools; each callback returns the answer as JSON text content. */
export function sdkServer(tools: readonly BenchTool[]): McpServer {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  for (const t of tools) {
    const fn = t.fn as (input: unknown) => object;
    server.registerTool(t.name, { description: t.description, inputSchema: t.zod }, async (input: unknown) => ({
      content: [{ type: 'text' as const, text: JSON.stringify(fn(input)) }],
    }));
  }
  return server;
}

/** An SDK server with `count` small tools (`tool_0` ... ), for tools/list. */
export function sdkServerOf(count: number): McpServer {
  const server = new McpServer({ name: `bench-sdk-${count}`, version: '1.0.0' });
  for (let i = 0; i < count; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Tool number ${i}.`, inputSchema: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(50) }).strict() },
      async () => ({ content: [{ type: 'text' as const, text: String(i) }] }),
    );
  }
  return server;
}

/** One `tools/call` from the raw arguments text. */
export function mcpCall(client: Client, name: string, args: string): Promise<unknown> {
  return client.callTool({ name, arguments: JSON.parse(args) as Record<string, unknown> });
}
