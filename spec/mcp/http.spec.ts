/**
 * serveStreamableHttp on 127.0.0.1 (port 0) driven by the SDK's Client over
 * StreamableHTTPClientTransport: list, call, invalid arguments, refused call, elicitation resumed
 * and declined, cancellation, progress; plus the endpoint's own refusals (path, Host, session).
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveStreamableHttp } from '../../lib/mcp';
import type { McpHttpServer } from '../../lib/mcp';
import { PROGRESS } from '../../lib/mcp/messages';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { filed, testRegistry } from './support/registry';
import type { Observed } from './support/registry';

function raw(
  url: URL,
  init: { method: string; path?: string; host?: string; body?: string; session?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: init.path ?? url.pathname,
        method: init.method,
        headers: {
          host: init.host ?? url.host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(init.session === undefined ? {} : { 'mcp-session-id': init.session }),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('serveStreamableHttp with the SDK Client on loopback', () => {
  const observed: Observed = { aborted: [], contexts: [], started: () => undefined };
  const answers: ElicitResult[] = [];
  let server: McpHttpServer;
  let client: Client;

  beforeAll(async () => {
    server = await serveStreamableHttp(testRegistry(observed), { context: (info) => ({ session: info.sessionId }) });
    client = new Client({ name: 'http-spec', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => answers.shift() ?? { action: 'cancel' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('listens on 127.0.0.1 at /mcp on a free port', () => {
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(server.url.pathname).toBe('/mcp');
    expect(Number(server.url.port)).toBeGreaterThan(0);
  });

  it('lists the tools and runs a call within a session', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(testRegistry().definitions().length);
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Weather in Lima: 18 degrees, cloudy' }],
      isError: false,
    });
    expect(observed.contexts.at(-1)).toEqual({ session: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('answers invalid arguments and a refused call with isError results', async () => {
    const invalid = await client.callTool({ name: 'get_weather', arguments: {} });
    expect(invalid).toEqual({
      content: [{ type: 'text', text: expect.stringContaining('required member "location"') }],
      isError: true,
    });
    const refused = await client.callTool({ name: 'delete_all', arguments: {} });
    expect(refused).toEqual({ content: [{ type: 'text', text: notAuthorizedText('delete_all') }], isError: true });
  });

  it('elicits over the request stream and resumes, or fails when declined', async () => {
    answers.push({ action: 'accept', content: { approve: true, title: 'Trip' } });
    const resumed = await client.callTool({ name: 'file_note', arguments: { text: 'pack' } });
    expect(resumed.content).toEqual([{ type: 'text', text: filed('Trip', '{"step":"confirm"}') }]);
    answers.push({ action: 'decline' });
    const declined = await client.callTool({ name: 'file_note', arguments: { text: 'pack' } });
    expect(declined.isError).toBe(true);
  });

  it('cancels a running call (notifications/cancelled aborts its signal)', async () => {
    const started = new Promise<void>((resolve) => (observed.started = (name) => name === 'slow' && resolve()));
    const aborted = new Promise<void>((resolve) => {
      const push = observed.aborted.push.bind(observed.aborted);
      observed.aborted.push = (...items: string[]) => (resolve(), push(...items));
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, { signal: controller.signal });
    await started;
    controller.abort('enough');
    await expect(call).rejects.toBeDefined();
    await aborted;
    expect(observed.aborted).toContain('slow');
  });

  it('reports progress on the request stream, ahead of the elicitation', async () => {
    const progress: Progress[] = [];
    let atElicitation: string[] = [];
    const handler = (): ElicitResult => (
      (atElicitation = progress.map((p) => p.message as string)),
      { action: 'accept', content: { approve: false } }
    );
    client.setRequestHandler(ElicitRequestSchema, async () => handler());
    const result = await client.callTool({ name: 'file_note', arguments: { text: 'x' } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Not filed.' }]);
    expect(atElicitation).toEqual([PROGRESS.admitted, PROGRESS.waiting]);
  });

  it('refuses other paths (404), a foreign Host header (403), and requests without a session (400)', async () => {
    expect(await raw(server.url, { method: 'POST', path: '/other', body: '{}' })).toBe(404);
    expect(await raw(server.url, { method: 'POST', host: 'attacker.example', body: '{}' })).toBe(403);
    expect(await raw(server.url, { method: 'GET' })).toBe(400);
    expect(await raw(server.url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })).toBe(400);
    expect(await raw(server.url, { method: 'POST', body: '{' })).toBe(400);
  });
});

describe('serveStreamableHttp body limit (regression: only initialize was bounded)', () => {
  it('answers 413 to an oversized POST inside an open session, and the tool does not run', async () => {
    const started: string[] = [];
    const observed: Observed = { aborted: [], contexts: [], started: (name) => void started.push(name) };
    const server = await serveStreamableHttp(testRegistry(observed), { maxBodyBytes: 2000 });
    const client = new Client({ name: 'limit-spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(server.url);
    try {
      await client.connect(transport);
      const session = transport.sessionId as string;
      expect(typeof session).toBe('string');
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'forecast', arguments: { city: 'x'.repeat(500_000) } },
      });
      expect(await raw(server.url, { method: 'POST', body, session })).toBe(413);
      expect(started).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
