/**
 * The `context` factory runs inside the call's containment. A factory that
 * throws, or an async one that rejects (which used to become an unhandled rejection), fails that
 * call with the generic text; its message and stack go to `onError` only, and the server keeps
 * answering. Over Streamable HTTP with the SDK Client, and in memory.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, serveStreamableHttp } from '../../lib/mcp';
import type { McpServerOptions } from '../../lib/mcp';
import { contextFailed } from '../../lib/mcp/messages';
import { testRegistry } from './support/registry';
import type { Observed } from './support/registry';

const LEAKED = /secret|redis|admin|at \S+:\d+/;
const FAILED = { content: [{ type: 'text', text: 'error: tool "get_weather" failed' }], isError: true };

/** A factory whose first call rejects (async) or throws (sync); later calls give `{ ok: true }`. */
function failingOnce(kind: 'async' | 'sync'): McpServerOptions['context'] {
  let calls = 0;
  const decide = () => {
    calls += 1;
    if (calls === 1) throw new Error('redis://admin:secret@db');
    return { ok: true };
  };
  return kind === 'sync' ? decide : async () => (await Promise.resolve(), decide());
}

describe.each(['async', 'sync'] as const)('a %s context factory that fails', (kind) => {
  it('over Streamable HTTP: the client gets the generic failure, onError the error; answers go on', async () => {
    const errors: unknown[] = [];
    const observed: Observed = { aborted: [], contexts: [], started: () => undefined };
    const options = { context: failingOnce(kind), onError: (e: unknown) => void errors.push(e) };
    const server = await serveStreamableHttp(testRegistry(observed), options);
    const client = new Client({ name: 'containment-spec', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const failed = await client.callTool({ name: 'get_weather', arguments: { location: 'Atlantis' } });
      expect(failed).toEqual(FAILED);
      expect(JSON.stringify(failed)).not.toMatch(LEAKED);
      expect(observed.contexts).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toEqual(new Error(contextFailed('get_weather')));
      expect((errors[0] as Error).cause).toEqual(new Error('redis://admin:secret@db'));
      // The same session, then a new one, still get answers.
      const ok = await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } });
      expect(ok.isError).toBe(false);
      expect(observed.contexts).toEqual([{ ok: true }]);
      const again = new Client({ name: 'containment-spec-2', version: '1.0.0' });
      await again.connect(new StreamableHTTPClientTransport(server.url));
      expect((await again.listTools()).tools.length).toBeGreaterThan(0);
      await again.close();
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('in memory: the same generic failure, the error to onError only', async () => {
    const errors: unknown[] = [];
    const server = createMcpServer(testRegistry(), { context: failingOnce(kind), onError: (e) => errors.push(e) });
    const client = new Client({ name: 'containment-spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      expect(await client.callTool({ name: 'get_weather', arguments: { location: 'Atlantis' } })).toEqual(FAILED);
      expect(errors).toHaveLength(1);
      expect((await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } })).isError).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('the context factory after admission', () => {
  it('is not run for arguments the contract refuses', async () => {
    const infos: string[] = [];
    const server = createMcpServer(testRegistry(), { context: (info) => void infos.push(info.toolName) });
    const client = new Client({ name: 'containment-spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      expect((await client.callTool({ name: 'get_weather', arguments: {} })).isError).toBe(true);
      expect(infos).toEqual([]);
      expect((await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } })).isError).toBe(false);
      expect(infos).toEqual(['get_weather']);
    } finally {
      await client.close();
    }
  });
});

describe('an onError that throws', () => {
  it("does not put its own message in the client result (the SDK sends a failed handler's message)", async () => {
    const server = createMcpServer(testRegistry(), {
      onError: () => {
        throw new Error('sink redis://admin:secret@db');
      },
    });
    const client = new Client({ name: 'containment-spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const result = await client.callTool({ name: 'boom', arguments: {} });
      expect(result).toEqual({ content: [{ type: 'text', text: 'error: tool "boom" failed' }], isError: true });
    } finally {
      await client.close();
    }
  });
});
