/**
 * Serve a Registry over MCP Streamable HTTP (one endpoint; POST for messages, GET for the
 * server-to-client stream, DELETE to end a session), bound to 127.0.0.1 by default.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Registry } from '../protocol';
import { createMcpServer } from './server';
import type { McpServerOptions } from './server';

/** Options of serveStreamableHttp. */
export interface McpHttpOptions extends McpServerOptions {
  /** The interface to listen on (default `127.0.0.1`: loopback only). */
  readonly host?: string;
  /** The TCP port (default 0: a free port, read it from `url`). */
  readonly port?: number;
  /** The endpoint path (default `/mcp`). */
  readonly path?: string;
  /** At most this many open sessions; an initialize beyond them is refused with 503 (default 100). */
  readonly maxSessions?: number;
  /** The largest POST body accepted, in bytes (default 4,194,304); larger is refused with 413. */
  readonly maxBodyBytes?: number;
  /**
   * `Host` header values accepted (DNS rebinding protection). Default on loopback:
   * `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`; elsewhere every host is accepted
   * unless you list them.
   */
  readonly allowedHosts?: readonly string[];
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: URL;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Serves `registry` over Streamable HTTP. Each client session (started by an `initialize` POST,
 * identified by the `mcp-session-id` header afterwards) gets its own MCP server built by
 * createMcpServer, so elicitation requests and cancellations stay within their session.
 * Requests for other paths get 404, an unknown session 404, a request without a session that is
 * not `initialize` 400, a `Host` not allowed 403.
 * @throws ToolError as createMcpServer does (checked once before listening)
 * @throws Error when the port cannot be bound (EADDRINUSE, EACCES)
 */
export async function serveStreamableHttp(registry: Registry, options: McpHttpOptions = {}): Promise<McpHttpServer> {
  createMcpServer(registry, options);
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const maxSessions = options.maxSessions ?? 100;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: ReadonlySet<string> | undefined;

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (sessions.size >= maxSessions) return reply(res, 503, `too many open sessions (${maxSessions}); end one with DELETE and retry`);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createMcpServer(registry, options).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== endpoint) return reply(res, 404, `no MCP endpoint at ${url.pathname}; use ${endpoint}`);
    if (allowedHosts !== undefined && !allowedHosts.has(String(req.headers.host ?? ''))) {
      return reply(res, 403, 'Host header not allowed (DNS rebinding protection)');
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return reply(res, 404, 'session not found; initialize a new session');
      if (req.method !== 'POST') return transport.handleRequest(req, res);
      // Every POST is bounded, not only the initialize request.
      const sessionBody = await readBody(req, maxBody);
      if (sessionBody === TOO_LARGE) return reply(res, 413, `request body exceeds ${maxBody} bytes`);
      if (sessionBody === INVALID) return reply(res, 400, 'request body is not JSON', -32700);
      return transport.handleRequest(req, res, sessionBody);
    }
    if (req.method !== 'POST') return reply(res, 400, 'no session: send initialize (POST) first');
    const body = await readBody(req, maxBody);
    if (body === TOO_LARGE) return reply(res, 413, `request body exceeds ${maxBody} bytes`);
    if (body === INVALID) return reply(res, 400, 'request body is not JSON', -32700);
    if (!isInitializeRequest(body)) return reply(res, 400, 'no session: send initialize (POST) first');
    return startSession(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  if (options.allowedHosts !== undefined) allowedHosts = new Set(options.allowedHosts);
  else if (LOOPBACK.has(host)) allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: new URL(`http://${shownHost}:${port}${endpoint}`),
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

const TOO_LARGE = Symbol('too large');
const INVALID = Symbol('invalid');

async function readBody(req: IncomingMessage, max: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return TOO_LARGE;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return INVALID;
  }
}

function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
