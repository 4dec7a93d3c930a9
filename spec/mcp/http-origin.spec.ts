/**
 * serveStreamableHttp checks Host and Origin against allow-lists (DNS
 * rebinding). Raw requests with forged headers, always sent to 127.0.0.1, to servers bound to
 * 127.0.0.1, ::ffff:127.0.0.1 and 0.0.0.0 (which used to accept any Host).
 */
import { serveStreamableHttp } from '../../lib/mcp';
import type { McpHttpOptions, McpHttpServer } from '../../lib/mcp';
import { HTTP_REFUSAL, limitNotPositive, notAnOrigin } from '../../lib/mcp/messages';
import { INITIALIZE, send } from './support/raw-http';
import { testRegistry } from './support/registry';

const servers: McpHttpServer[] = [];

async function serve(options: McpHttpOptions): Promise<McpHttpServer> {
  const server = await serveStreamableHttp(testRegistry(), options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The status of an initialize with these headers (`host: null`: no Host header). */
async function statusOf(server: McpHttpServer, host: string | null, headers: Record<string, string> = {}) {
  return (await send(server.url, { host, headers, body: INITIALIZE })).status;
}

const REFUSED_BODY = {
  jsonrpc: '2.0',
  error: { code: -32000, message: expect.stringContaining('DNS rebinding') },
  id: null,
};
const warning = (text: string) =>
  expect.objectContaining({ name: 'McpHttpWarning', message: expect.stringContaining(text) });

describe('serveStreamableHttp Host allow-list', () => {
  it('bound to 127.0.0.1: accepts the loopback names with the port, refuses forged and foreign-port Host', async () => {
    const server = await serve({});
    const port = server.url.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect([host, await statusOf(server, host)]).toEqual([host, 200]);
    }
    const forged = [
      'attacker.example',
      `attacker.example:${port}`,
      `127.0.0.1:1`,
      `evil@127.0.0.1:${port}`,
      `localhost:${port}/x`,
      '',
    ];
    for (const host of forged) {
      expect([host, await statusOf(server, host)]).toEqual([host, 403]);
    }
    // Node itself answers 400 to an HTTP/1.1 request without Host (requireHostHeader).
    expect(await statusOf(server, null)).toBe(400);
    const refused = await send(server.url, { host: `attacker.example:${port}`, body: INITIALIZE });
    expect(refused.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refused.body)).toEqual(REFUSED_BODY);
  });

  it('bound to ::ffff:127.0.0.1 (regression: any Host passed): loopback names and the bound address only', async () => {
    const server = await serve({ host: '::ffff:127.0.0.1' });
    const port = server.url.port;
    expect(await statusOf(server, `127.0.0.1:${port}`)).toBe(200);
    expect(await statusOf(server, server.url.host)).toBe(200);
    expect(await statusOf(server, `attacker.example:${port}`)).toBe(403);
  });

  it('bound to 0.0.0.0 (regression: any Host passed): warns, accepts loopback names unless allowedHosts', async () => {
    const errors: unknown[] = [];
    const server = await serve({ host: '0.0.0.0', onError: (e) => errors.push(e) });
    const port = server.url.port;
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(errors).toEqual([warning('allowedHosts')]);
    expect(await statusOf(server, `127.0.0.1:${port}`)).toBe(200);
    expect(await statusOf(server, `attacker.example:${port}`)).toBe(403);
    expect(await statusOf(server, `0.0.0.0:${port}`)).toBe(403);
    expect(await statusOf(server, `192.168.1.20:${port}`)).toBe(403);
  });

  it('with allowedHosts: name:port accepts that port, a bare name any port; all interfaces still warn', async () => {
    const errors: unknown[] = [];
    const allowedHosts = ['mcp.example.com', 'MCP.internal:8443'];
    const server = await serve({ host: '0.0.0.0', allowedHosts, onError: (e) => errors.push(e) });
    expect(errors).toEqual([warning('unless auth is set')]);
    expect(await statusOf(server, 'mcp.example.com:1234')).toBe(200);
    expect(await statusOf(server, 'mcp.example.com')).toBe(200);
    expect(await statusOf(server, 'mcp.internal:8443')).toBe(200);
    expect(await statusOf(server, 'mcp.internal:8444')).toBe(403);
    expect(await statusOf(server, `127.0.0.1:${server.url.port}`)).toBe(403);
  });

  it('bound to 127.0.0.1 sends no warning', async () => {
    const errors: unknown[] = [];
    await serve({ onError: (e) => errors.push(e) });
    expect(errors).toEqual([]);
  });
});

describe('serveStreamableHttp Origin allow-list', () => {
  it('by default accepts no Origin and the loopback origins on any port, refuses any other Origin', async () => {
    const server = await serve({});
    expect(await statusOf(server, server.url.host)).toBe(200);
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1:8443', 'http://[::1]:3000', 'http://localhost']) {
      expect([origin, await statusOf(server, server.url.host, { origin })]).toEqual([origin, 200]);
    }
    const forged = [
      'https://attacker.example',
      'http://localhost.attacker.example',
      'null',
      'file://',
      'http://localhost:5173/path',
      'ftp://localhost',
    ];
    for (const origin of forged) {
      expect([origin, await statusOf(server, server.url.host, { origin })]).toEqual([origin, 403]);
    }
    const refused = await send(server.url, { headers: { origin: 'https://attacker.example' }, body: INITIALIZE });
    expect(JSON.parse(refused.body)).toEqual(REFUSED_BODY);
  });

  it('with allowedOrigins accepts exactly those origins', async () => {
    const server = await serve({ allowedOrigins: ['https://App.example.com', 'http://localhost:3000'] });
    expect(await statusOf(server, server.url.host, { origin: 'https://app.example.com' })).toBe(200);
    expect(await statusOf(server, server.url.host, { origin: 'http://localhost:3000' })).toBe(200);
    expect(await statusOf(server, server.url.host, { origin: 'http://localhost:3001' })).toBe(403);
    expect(await statusOf(server, server.url.host, { origin: 'https://app.example.com.attacker.example' })).toBe(403);
  });

  it('refuses to start with an allowedOrigins entry not an origin, or a limit not a positive integer', async () => {
    const bare = { allowedOrigins: ['app.example.com'] };
    await expect(serveStreamableHttp(testRegistry(), bare)).rejects.toThrow(TypeError);
    // Regression: the URL parser dropped the path (and the rest) silently.
    const more = ['https://a.example/path', 'https://a.example/', 'https://a.example?x=1', 'https://u@a.example'];
    for (const entry of more) {
      const refused = serveStreamableHttp(testRegistry(), { allowedOrigins: [entry] });
      await expect(refused).rejects.toThrow(notAnOrigin(entry));
    }
    await expect(serveStreamableHttp(testRegistry(), { maxSessions: 0 })).rejects.toThrow(RangeError);
    const fraction = serveStreamableHttp(testRegistry(), { sessionIdleMs: 1.5 });
    await expect(fraction).rejects.toThrow(limitNotPositive('serveStreamableHttp', 'sessionIdleMs', 1.5));
  });
});

describe('serveStreamableHttp request target', () => {
  it('refuses an absolute-form target with 400, whatever its authority (regression: the Host check passed)', async () => {
    const server = await serve({});
    const port = server.url.port;
    // RFC 9112 section 3.2.2: the target's authority would replace Host; this server is no proxy.
    for (const path of ['http://evil.example/mcp', `http://127.0.0.1:${port}/mcp`, '*']) {
      const response = await send(server.url, { path, body: INITIALIZE });
      expect([path, response.status]).toEqual([path, 400]);
      const message = HTTP_REFUSAL.target;
      expect(JSON.parse(response.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
    }
    // A path beginning with // names no host: it is routed as that path.
    expect((await send(server.url, { path: '//evil.example/mcp', body: INITIALIZE })).status).toBe(404);
    expect((await send(server.url, { path: '/mcp?x=1', body: INITIALIZE })).status).toBe(200);
  });
});
