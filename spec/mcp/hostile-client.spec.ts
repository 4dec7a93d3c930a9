/**
 * createMcpServer against a client that sends what the SDK Client never would, as raw JSON-RPC over
 * an in-memory pair: requests the SDK drops, malformed and polluted elicitation answers, in both
 * flows (elicitation inside the call, and 2026-07-28 `input_required`).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../lib/mcp';
import type { McpServerOptions } from '../../lib/mcp';
import { testRegistry } from './support/registry';

/** A JSON-RPC message as it travels (the members these specs read). */
interface Message {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/**
 * One server, initialized as a 2025-11-25 client with form elicitation. `request` resolves with the
 * response, `ask` answers the server's requests (elicitation/create), `errors` is what onError got.
 */
async function raw(options: McpServerOptions = {}) {
  const errors: unknown[] = [];
  const server = createMcpServer(testRegistry(), { onError: (e) => errors.push(e), ...options });
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  const replies = new Map<unknown, (message: Message) => void>();
  let answer: (request: Message) => unknown = () => undefined;
  mine.onmessage = (message: Message) => {
    if ('method' in message && 'id' in message) {
      const result = answer(message);
      if (result !== undefined) void mine.send({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
    } else if ('id' in message) replies.get(message.id)?.(message);
  };
  await server.connect(theirs);
  await mine.start();
  let next = 0;
  const request = (method: string, params?: unknown) =>
    new Promise<Message>((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      void mine.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'raw', version: '1.0.0' },
  });
  await mine.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    errors,
    send: (message: unknown) => mine.send(message as JSONRPCMessage),
    answer: (with_: (request: Message) => unknown) => void (answer = with_),
    close: () => mine.close(),
  };
}

/** Resolves once `errors` holds `count` entries (onError is told after the message was read). */
async function reported(errors: unknown[], count: number): Promise<string[]> {
  for (let i = 0; i < 100 && errors.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return errors.map((e) => (e as Error).message);
}

describe('a client the SDK would not be', () => {
  it('protocol errors the SDK answers nobody reach onError', async () => {
    // Regression (hostile review F10): the SDK drops a request its schema refuses (a progress token
    // that is not a string or an integer, params that are not an object) without a response, and a
    // response to no request of its own; none of it reached the server's owner.
    const session = await raw();
    await session.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: {}, _meta: { progressToken: 1.5 } },
    });
    await session.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: [1] });
    await session.send({ jsonrpc: '2.0', id: 99, result: { action: 'accept' } });
    const messages = await reported(session.errors, 3);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/^Unknown message type: .*"progressToken":1\.5/);
    expect(messages[1]).toMatch(/^Unknown message type: .*"params":\[1\]/);
    expect(messages[2]).toMatch(/^Received a response for an unknown message ID: .*"id":99/);
    await session.close();
  });

  it('a tools/call without a string name is InvalidParams, as the SDK checks it', async () => {
    // Regression (hostile review F10): the server's own params schema refused these first, and the
    // SDK answered its ZodError as InternalError (-32603).
    const session = await raw();
    for (const params of [{ name: 5 }, undefined, { arguments: {} }]) {
      const reply = await session.request('tools/call', params);
      expect([reply.error?.code, reply.error?.message]).toEqual([
        ErrorCode.InvalidParams,
        expect.stringMatching(/^MCP error -32602: Invalid tools\/call request: /),
      ]);
    }
    await session.close();
  });
});
