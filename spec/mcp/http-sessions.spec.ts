/**
 * Sessions of serveStreamableHttp expire when idle, the session cap is per
 * client (authenticated clientId, else remote address) beside the global one, and a request
 * whose body stalls is cut (408, connection closed). Small limits; no assertion on time.
 */
import { connect as tcp } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { serveStreamableHttp } from '../../lib/mcp';
import type { McpHttpOptions, McpHttpServer } from '../../lib/mcp';
import { limitNotPositive, limitTooLong } from '../../lib/mcp/messages';
import { INITIALIZE, PING, initialize, openStream, send } from './support/raw-http';
import { testRegistry } from './support/registry';
import type { Observed } from './support/registry';

const servers: McpHttpServer[] = [];
const closers: (() => void)[] = [];

async function serve(options: McpHttpOptions, observed?: Observed): Promise<McpHttpServer> {
  const server = await serveStreamableHttp(testRegistry(observed), options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await Promise.all(servers.splice(0).map((s) => s.close()));
  jest.restoreAllMocks();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retries an initialize until it is admitted (the jest timeout bounds the wait). */
async function initializeWhenAdmitted(url: URL): Promise<{ session: string; refusals: number[] }> {
  const refusals: number[] = [];
  for (;;) {
    const response = await send(url, { body: INITIALIZE });
    const id = response.headers['mcp-session-id'];
    if (response.status === 200 && typeof id === 'string') return { session: id, refusals };
    refusals.push(response.status);
    await sleep(20);
  }
}

const ping = async (url: URL, session: string, headers: Record<string, string> = {}) =>
  (await send(url, { body: PING, headers: { 'mcp-session-id': session, ...headers } })).status;

describe('idle sessions expire (regression: 100 initializes locked everyone out for good)', () => {
  it('closes a session with no request open after sessionIdleMs: its id gets 404 and its place is free', async () => {
    const server = await serve({ maxSessions: 1, sessionIdleMs: 100 });
    const first = await initialize(server.url);
    expect(await ping(server.url, first)).toBe(200);
    const { refusals } = await initializeWhenAdmitted(server.url);
    expect(refusals[0]).toBe(503);
    expect(new Set(refusals)).toEqual(new Set([503]));
    expect(await ping(server.url, first)).toBe(404);
  });

  it('keeps a session with an open GET stream (the SDK Client holds one) past both limits', async () => {
    // Long enough for the SDK Client's handshake (initialize, then initialized, then the GET) on a busy machine;
    // bodyTimeoutMs limits receiving a request, never an open response stream.
    const server = await serve({ sessionIdleMs: 1000, bodyTimeoutMs: 500 });
    const client = new Client({ name: 'idle-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    closers.push(() => void client.close());
    await sleep(2500);
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } });
    expect(result.isError).toBe(false);
  });

  it('keeps a session with a call running past sessionIdleMs', async () => {
    const started: string[] = [];
    const observed: Observed = { aborted: [], contexts: [], started: (name) => void started.push(name) };
    // Idle limit long enough that the call reaches the session on a loaded machine; the call then
    // stays open for more than twice that limit.
    const server = await serve({ sessionIdleMs: 400 }, observed);
    const session = await initialize(server.url);
    const params = { name: 'slow', arguments: {} };
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params });
    // A cancelled call gets no response, so this request stays open until the server closes.
    let ended: unknown;
    send(server.url, { body: call, headers: { 'mcp-session-id': session } }).then(
      (r) => (ended = r),
      (e: unknown) => (ended = { error: String(e) }),
    );
    while (!started.includes('slow')) {
      if (ended !== undefined) throw new Error(`the call ended before the tool started: ${JSON.stringify(ended)}`);
      await sleep(10);
    }
    await sleep(1000);
    expect(await ping(server.url, session)).toBe(200);
    expect(ended).toBeUndefined();
  });
});

describe('sessions end after sessionMaxLifetimeMs (regression: held GET streams kept places for good)', () => {
  it('closes a session with an open GET stream after its lifetime: the stream ends, its id gets 404', async () => {
    const server = await serve({ maxSessions: 1, sessionMaxLifetimeMs: 300 });
    const session = await initialize(server.url);
    const stream = await openStream(server.url, session);
    closers.push(stream.close);
    expect(stream.status).toBe(200);
    await stream.ended; // the server ends it; without a lifetime this never happens
    expect(await ping(server.url, session)).toBe(404);
    expect(typeof (await initialize(server.url))).toBe('string');
  });

  it('refuses a sessionMaxLifetimeMs that is not a positive integer or longer than a Node timer', async () => {
    const zero = serveStreamableHttp(testRegistry(), { sessionMaxLifetimeMs: 0 });
    await expect(zero).rejects.toThrow(limitNotPositive('serveStreamableHttp', 'sessionMaxLifetimeMs', 0));
    // A longer setTimeout would fire after 1 ms and close every session at once.
    const long = serveStreamableHttp(testRegistry(), { sessionMaxLifetimeMs: 2 ** 31 });
    await expect(long).rejects.toThrow(
      limitTooLong('serveStreamableHttp', 'sessionMaxLifetimeMs', 2 ** 31 - 1, 2 ** 31),
    );
    await expect(serveStreamableHttp(testRegistry(), { sessionIdleMs: 2 ** 31 })).rejects.toThrow(RangeError);
  });
});

describe('an initialize the transport refuses opens no session', () => {
  /** Every transport that handled a request, and those closed since. */
  function watchTransports() {
    const handled = new Set<StreamableHTTPServerTransport>();
    const closed = new Set<StreamableHTTPServerTransport>();
    const proto = StreamableHTTPServerTransport.prototype;
    const handleRequest = proto.handleRequest;
    const close = proto.close;
    jest.spyOn(proto, 'handleRequest').mockImplementation(function (this: StreamableHTTPServerTransport, ...args) {
      handled.add(this);
      return handleRequest.apply(this, args);
    });
    jest.spyOn(proto, 'close').mockImplementation(function (this: StreamableHTTPServerTransport) {
      closed.add(this);
      return close.apply(this);
    });
    return { handled, open: () => [...handled].filter((t) => !closed.has(t)) };
  }

  it('closes its transport and server at once (regression: each stayed until sessionIdleMs, uncounted)', async () => {
    const transports = watchTransports();
    const server = await serve({ maxSessions: 1 });
    for (let i = 0; i < 20; i += 1) {
      // 406: the SDK wants Accept: application/json, text/event-stream.
      const refused = await send(server.url, { body: INITIALIZE, headers: { accept: 'application/json' } });
      expect(refused.status).toBe(406);
    }
    expect(transports.handled.size).toBe(20);
    expect(transports.open()).toEqual([]);
    // The cap of one is free, and the one session admitted is the only transport left open.
    const session = await initialize(server.url);
    expect(transports.open().map((t) => t.sessionId)).toEqual([session]);
    await server.close();
    expect(transports.open()).toEqual([]);
  });
});

describe('the session cap is per client', () => {
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const expiresAt = Math.floor(Date.now() / 1000) + 3600;
      return { token, clientId: token.replace(/-\d+$/, ''), scopes: [], expiresAt };
    },
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('authenticated: a client at its cap loses its least recently used idle session; others keep theirs', async () => {
    const server = await serve({ auth: { verifier }, maxSessionsPerClient: 2 });
    const a1 = await initialize(server.url, bearer('alice-1'));
    const a2 = await initialize(server.url, bearer('alice-2'));
    const b1 = await initialize(server.url, bearer('bob'));
    expect(await ping(server.url, a1, bearer('alice'))).toBe(200); // a2 is now the least recently used
    const a3 = await initialize(server.url, bearer('alice'));
    expect(await ping(server.url, a2, bearer('alice'))).toBe(404);
    expect(await ping(server.url, a1, bearer('alice'))).toBe(200);
    expect(await ping(server.url, a3, bearer('alice'))).toBe(200);
    expect(await ping(server.url, b1, bearer('bob'))).toBe(200);
  });

  it('authenticated: a client whose sessions are all busy gets 429, while another client still gets in', async () => {
    const server = await serve({ auth: { verifier }, maxSessionsPerClient: 2, maxSessions: 10 });
    for (let i = 0; i < 2; i += 1) {
      const session = await initialize(server.url, bearer('mallory'));
      const stream = await openStream(server.url, session, bearer('mallory'));
      expect(stream.status).toBe(200);
      closers.push(stream.close);
    }
    const refused = await send(server.url, { body: INITIALIZE, headers: bearer('mallory') });
    expect(refused.status).toBe(429);
    const message = expect.stringContaining('this client has 2 open sessions');
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
    expect(typeof (await initialize(server.url, bearer('alice')))).toBe('string');
  });

  it('without auth the client is its remote address (all of these come from 127.0.0.1)', async () => {
    const server = await serve({ maxSessionsPerClient: 1 });
    const session = await initialize(server.url);
    const stream = await openStream(server.url, session);
    closers.push(stream.close);
    expect((await send(server.url, { body: INITIALIZE })).status).toBe(429);
  });
});

describe('a stalled request body is cut', () => {
  it('answers 408 and closes the connection when a tools/call body stops arriving; the tool never runs', async () => {
    const started: string[] = [];
    const errors: unknown[] = [];
    const observed: Observed = { aborted: [], contexts: [], started: (name) => void started.push(name) };
    const server = await serve({ bodyTimeoutMs: 200, onError: (e) => errors.push(e) }, observed);
    const session = await initialize(server.url);
    const params = { name: 'get_weather', arguments: { location: 'Lima' } };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = tcp(Number(server.url.port), '127.0.0.1', () => {
        socket.write(
          `POST ${server.url.pathname} HTTP/1.1\r\nHost: ${server.url.host}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nMcp-Session-Id: ${session}\r\n` +
            `Content-Length: ${body.length}\r\n\r\n` +
            body.slice(0, 20),
        );
      });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(started).toEqual([]);
    expect(errors).toEqual([]);
    expect(await ping(server.url, session)).toBe(200);
  });
});
