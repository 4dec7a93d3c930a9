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
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { BenchTool } from '../fixtures';

/** A connected client and the way to close both ends. */
export interface McpPair {
  readonly client: Client;
  close(): Promise<void>;
}

/** Connects an SDK Client to `server` over a fresh in-memory transport pair. */
export async function connectClient(server: {
  connect(t: InMemoryTransport): Promise<void>;
  close(): Promise<void>;
}): Promise<McpPair> {
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

/**
 * A bare JSON-RPC client on an in-memory transport: it sends a request and resolves with the
 * response's `result` as the server sent it, without the SDK Client's schema parse of the result.
 * What it measures is the server's side of a request (and the transport), not the client's.
 */
export interface RawPair {
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** Connects a RawPair to `server` and runs the MCP initialize handshake. */
export async function connectRaw(server: {
  connect(t: InMemoryTransport): Promise<void>;
  close(): Promise<void>;
}): Promise<RawPair> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  clientTransport.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: unknown; result?: unknown; error?: { message: string } };
    if (typeof m.id !== 'number') return;
    const pending = waiting.get(m.id);
    if (pending === undefined) return;
    waiting.delete(m.id);
    if (m.error !== undefined) pending.reject(new Error(`bench: ${m.error.message}`));
    else pending.resolve(m.result);
  };
  await clientTransport.start();
  let nextId = 0;
  const request = (method: string, params?: Record<string, unknown>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      clientTransport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  await request('initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'scope-tool-bench-raw', version: '1.0.0' },
  });
  await clientTransport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    close: async () => {
      await clientTransport.close();
      await server.close();
    },
  };
}

/**
 * An SDK server holding the bench tools. Each callback returns the answer as the scope-tool server
 * sends it (see `mcpToolResult`), so both servers put the same result on the wire: the JSON text
 * as a text block and the object as `structuredContent` (MCP's structured tool output).
 */
export function sdkServer(tools: readonly BenchTool[]): McpServer {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  for (const t of tools) {
    const fn = t.fn as (input: unknown) => Record<string, unknown>;
    server.registerTool(t.name, { description: t.description, inputSchema: t.zod }, async (input: unknown) => {
      const answer = fn(input);
      return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }], structuredContent: answer };
    });
  }
  return server;
}

/** An SDK server with `count` small tools (`tool_0` ... ), for tools/list. */
export function sdkServerOf(count: number): McpServer {
  const server = new McpServer({ name: `bench-sdk-${count}`, version: '1.0.0' });
  for (let i = 0; i < count; i++) {
    server.registerTool(
      `tool_${i}`,
      {
        description: `Tool number ${i}.`,
        inputSchema: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(50) }).strict(),
      },
      async () => ({ content: [{ type: 'text' as const, text: String(i) }] }),
    );
  }
  return server;
}

/** One `tools/call` from the raw arguments text. */
export function mcpCall(client: Client, name: string, args: string): Promise<unknown> {
  return client.callTool({ name, arguments: JSON.parse(args) as Record<string, unknown> });
}
