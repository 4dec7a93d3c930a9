/**
 * Serve a Registry over MCP Streamable HTTP (one endpoint; POST for messages, GET for the
 * server-to-client stream, DELETE to end a session), bound to 127.0.0.1 by default.
 *
 * Every request passes, in order: the request target (400 unless origin-form, `/path`), the `Host`
 * allow-list and the `Origin` allow-list (DNS rebinding, 403), the path (404; the RFC 9728
 * protected resource metadata is served beside the endpoint when `auth` is set), the bearer token
 * (`auth`: 401/403 with `WWW-Authenticate`), the session (404 unknown, 400 none) and the body (413
 * too large, 400 not JSON, 408 too slow). A POST without a session whose request declares protocol
 * revision 2026-07-28 in its `_meta` envelope is served alone, without a session (see
 * serveStreamableHttp).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  InsufficientScopeError,
  InvalidTokenError,
  OAuthError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Registry } from '../protocol';
import {
  BEARER,
  HTTP_REFUSAL,
  bodyTooLarge,
  clientSessionsBusy,
  noEndpoint,
  notAnOrigin,
  notAuthInfo,
  resourceMetadataInvalid,
  tooManySessions,
  verifierRequired,
  wildcardWarning,
} from './messages';
import { META_KEYS, STATELESS_PROTOCOL_VERSION } from './input-required';
import { createMcpServer, defaultSealer, limitOption, safeOnError, serverLimits } from './server';
import type { McpServerOptions } from './server';

/**
 * Bearer token authentication of serveStreamableHttp, as the SDK's `requireBearerAuth` does it
 * (RFC 6750 bearer tokens, RFC 9728 protected resource metadata, MCP authorization).
 */
export interface McpHttpAuthOptions {
  /**
   * Verifies the token of `Authorization: Bearer <token>` (the SDK's `OAuthTokenVerifier` shape,
   * so an SDK provider such as `ProxyOAuthServerProvider` fits). Throw the SDK's
   * `InvalidTokenError` for a token that is unknown or revoked (401 `invalid_token`) and
   * `InsufficientScopeError` for a token that may not use this server (403 `insufficient_scope`);
   * their messages are not sent (the client gets the fixed descriptions `Invalid token` and
   * `Insufficient scope`), so they may name what the verifier saw. Any other error, other OAuth
   * errors included (`ServerError`, `InvalidRequestError`, ...), answers 500 with the generic body
   * `server_error` / `Internal Server Error` and goes to `onError`. The AuthInfo must carry
   * `expiresAt` (seconds since the epoch): a token without it, or past it, is refused with 401, as
   * the SDK refuses it. Sessions belong to `AuthInfo.clientId` (see `maxSessionsPerClient`).
   */
  readonly verifier: { verifyAccessToken(token: string): Promise<AuthInfo> };
  /** Scopes every request needs (default none); a token without all of them gets 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[];
  /**
   * When set, a token whose `AuthInfo.resource` (RFC 8707) is not this URL (fragment and one
   * trailing slash aside) is refused with 401.
   */
  readonly expectedResource?: URL;
  /**
   * Members of the RFC 9728 metadata served (GET) at `/.well-known/oauth-protected-resource<path>`,
   * `authorization_servers` in particular. `resource` defaults to the endpoint URL (`url`); set
   * it to the public URL behind a proxy. Checked with the SDK's schema before listening.
   */
  readonly resourceMetadata?: Partial<OAuthProtectedResourceMetadata>;
  /**
   * The metadata URL sent as `resource_metadata` in `WWW-Authenticate`. Default: the well-known
   * URL of `resource` (`https://host/mcp` → `https://host/.well-known/oauth-protected-resource/mcp`).
   */
  readonly resourceMetadataUrl?: URL;
}

/** Options of serveStreamableHttp. */
export interface McpHttpOptions extends McpServerOptions {
  /**
   * The interface to listen on (default `127.0.0.1`: loopback only). `0.0.0.0` or `::` (all
   * interfaces) is reported to `onError` as an `McpHttpWarning` when listening starts.
   */
  readonly host?: string;
  /** The TCP port (default 0: a free port, read it from `url`). */
  readonly port?: number;
  /** The endpoint path (default `/mcp`). */
  readonly path?: string;
  /** At most this many open sessions in all; an initialize beyond them is refused with 503 (default 100). */
  readonly maxSessions?: number;
  /**
   * At most this many open sessions per client (default 10): the authenticated `clientId` with
   * `auth`, else the remote address (an IPv6 address by its /64 prefix). An initialize beyond
   * them closes that client's least recently used idle session (no request open), or, when all
   * are busy, is refused with 429.
   *
   * A session belongs to the client that opened it: with `auth` the OAuth client
   * (`AuthInfo.clientId`), not the user. A public client shared by several users (one clientId,
   * different subjects) shares this cap, and each of its users' tokens is accepted for the
   * sessions of the others (session ids are random UUIDs, sent only to the one who opened them).
   * Where users must be kept apart, give each its own clientId in the verifier's AuthInfo (for
   * example `${clientId}/${subject}`).
   */
  readonly maxSessionsPerClient?: number;
  /**
   * A session with no request open for this long, in ms, is closed (default 900,000: 15 min);
   * its id then gets 404. An open GET stream or a running call keeps a session alive, up to
   * `sessionMaxLifetimeMs`.
   */
  readonly sessionIdleMs?: number;
  /**
   * A session is closed this long after its initialize, in ms, open streams and running calls
   * included (default 86,400,000: 24 h); its id then gets 404 and the client initializes again
   * (as MCP requires of a client whose session id gets 404). This bounds how long held-open GET
   * streams can keep places under `maxSessions`; it does not stop a client that reopens them
   * (use `auth`, whose per-client cap counts by clientId, not by address). At most 2,147,483,647
   * (about 24.8 days, the longest Node timer), as for `sessionIdleMs`.
   */
  readonly sessionMaxLifetimeMs?: number;
  /** The largest POST body accepted, in bytes (default 4,194,304); larger is refused with 413. */
  readonly maxBodyBytes?: number;
  /**
   * The time a client has to send one whole request, headers and body, in ms (default 30,000;
   * Node's `server.requestTimeout`, checked every quarter of it, at most every 5 s); a stalled
   * request gets 408 and its connection is closed. Response streams are not limited.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * `Host` header values accepted (DNS rebinding protection), compared without case: `name:port`
   * accepts that port only, `name` any port. Default: `localhost`, `127.0.0.1`, `[::1]` and the
   * bound address, each with the bound port, when bound to a loopback address (127.0.0.0/8,
   * `::1`, `::ffff:127.x.x.x`, `localhost`) or to all interfaces (`0.0.0.0`, `::`: list the
   * names remote clients use); the bound address with the port when bound to another address.
   * A missing or other Host gets 403.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * `Origin` header values accepted (`scheme://host[:port]`, nothing after it: a path, even `/`,
   * a query or userinfo throws TypeError); a request without `Origin` (not from a browser)
   * passes. Default: `http` and `https` origins of `localhost`, `127.0.0.1` and `[::1]`, any
   * port. Any other Origin, `null` included, gets 403.
   */
  readonly allowedOrigins?: readonly string[];
  /** Bearer token authentication of every request to the endpoint (default: none). */
  readonly auth?: McpHttpAuthOptions;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  /**
   * The endpoint, e.g. `http://127.0.0.1:54321/mcp` (bound to all interfaces: the loopback
   * address of that family, `127.0.0.1` or `[::1]`).
   */
  readonly url: URL;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** One open session: its transport, whose it is, and how busy. */
interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The per-client key (`client:<clientId>` or `address:<address>`). */
  readonly owner: string;
  /**
   * The authenticated clientId that opened it; another client's token gets 404 for it. Users of
   * one OAuth client share it (see McpHttpOptions.maxSessionsPerClient).
   */
  readonly clientId: string | undefined;
  /** HTTP requests of this session whose responses are still open. */
  open: number;
  lastUsed: number;
  idle: NodeJS.Timeout | undefined;
  /** Closes it `sessionMaxLifetimeMs` after its initialize. */
  lifetime: NodeJS.Timeout | undefined;
  /** Set once its transport closed: no timer is armed for it again. */
  closed: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Serves `registry` over Streamable HTTP. Each client session (started by an `initialize` POST,
 * identified by the `mcp-session-id` header afterwards) gets its own MCP server built by
 * createMcpServer, so elicitation requests and cancellations stay within their session.
 * Sessions, and the calls suspended on an elicitation, live in this process's memory (see
 * createMcpServer: nothing of them is in a store): behind a load balancer, route every request of
 * a session (`mcp-session-id` header) to the instance that opened it; another instance answers
 * 404 for that id, and the client initializes again.
 *
 * Protocol revision 2026-07-28 is served without sessions: a POST without `mcp-session-id` whose
 * body is one JSON-RPC request declaring `io.modelcontextprotocol/protocolVersion: "2026-07-28"`
 * in its `_meta` (what the SDK v2 client sends once `server/discover` negotiated that revision) is
 * answered alone, by a server built for that request (`application/json`, one response; progress
 * notifications are not sent), and nothing of it stays: a suspended `tools/call` ends with
 * `input_required` and a sealed `requestState`, and its retry may reach any instance that shares
 * the `sealer` (its keys and use store), which resumes it once. Without a `sealer` option every
 * request of this server shares one sealer of its own (a random key, claims in memory), so retries
 * must come back to this instance. Requests of earlier revisions keep the session and elicitation
 * flow above.
 * Refusals carry a JSON-RPC error body (`auth` refusals the OAuth error body): a request target
 * that is not a path (absolute-form `http://host/mcp`, `*`) 400, a `Host` or `Origin` not allowed
 * 403, another path 404, a missing, invalid or expired token 401 and a token without
 * `requiredScopes` 403 (both with `WWW-Authenticate: Bearer`), an unknown or expired session 404,
 * a request without a session that is neither `initialize` nor a 2026-07-28 request 400, a
 * 2026-07-28 request whose `MCP-Protocol-Version` header names another revision 400, a body larger than `maxBodyBytes`
 * 413, a body that is not JSON 400, a request slower than `bodyTimeoutMs` 408, an initialize
 * beyond `maxSessionsPerClient` 429 and beyond `maxSessions` 503. An initialize the
 * SDK transport refuses (e.g. 406 for an `Accept` without `text/event-stream`) opens no session.
 * @throws ToolError as createMcpServer does (checked once before listening)
 * @throws RangeError when a limit is not a positive integer (`port`: 0 to 65535), or
 *   `sessionIdleMs` / `sessionMaxLifetimeMs` / `elicitationTimeoutMs` exceeds 2,147,483,647 ms
 *   (a longer Node timer fires at once); `maxElicitations` too (see createMcpServer)
 * @throws TypeError when `auth.verifier` has no `verifyAccessToken`, `auth.resourceMetadata`
 *   breaks RFC 9728 (the SDK's schema), or an `allowedOrigins` entry is not an origin
 * @throws Error when the port cannot be bound (EADDRINUSE, EACCES)
 */
export async function serveStreamableHttp(registry: Registry, options: McpHttpOptions = {}): Promise<McpHttpServer> {
  serverLimits(options, 'serveStreamableHttp');
  createMcpServer(registry, options);
  const onError = safeOnError(options.onError);
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const maxSessions = limit(options, 'maxSessions', 100);
  const perClient = limit(options, 'maxSessionsPerClient', 10);
  const idleMs = limit(options, 'sessionIdleMs', 900_000);
  const lifetimeMs = limit(options, 'sessionMaxLifetimeMs', 86_400_000);
  const maxBody = limit(options, 'maxBodyBytes', 4 * 1024 * 1024);
  const bodyTimeout = limit(options, 'bodyTimeoutMs', 30_000);
  const originAllowed = originCheck(options.allowedOrigins);
  const auth = options.auth;
  if (auth !== undefined && typeof auth.verifier?.verifyAccessToken !== 'function') {
    throw verifierRequired();
  }
  // Checked before listening (a refusal must not leave the port bound); `resource` is known after.
  if (auth !== undefined) resourceMetadata(auth, new URL(`http://localhost${endpoint}`));
  const metadataPath = `/.well-known/oauth-protected-resource${endpoint === '/' ? '' : endpoint}`;
  const sessions = new Map<string, Session>();
  // One sealer for every server this endpoint builds: a 2026-07-28 retry reaches another per-request server.
  const serverOptions: McpHttpOptions = { ...options, sealer: options.sealer ?? defaultSealer() };
  let hostAllowed: (value: string | undefined) => boolean = () => false;
  let metadata: OAuthProtectedResourceMetadata | undefined;
  let metadataUrl: string | undefined;

  const arm = (session: Session) => {
    clearTimeout(session.idle);
    if (session.closed) return;
    session.idle = setTimeout(() => void session.transport.close().catch(onError), idleMs);
    session.idle.unref();
  };
  /** Counts the request's response as open until it closes, then the idle clock runs again. */
  const track = (session: Session, res: ServerResponse) => {
    session.open += 1;
    session.lastUsed = Date.now();
    clearTimeout(session.idle);
    res.once('close', () => {
      session.open -= 1;
      session.lastUsed = Date.now();
      if (session.open === 0) arm(session);
    });
  };

  /** Room for one more session of `owner`: closes its least recently used idle session if needed. */
  const admit = async (owner: string): Promise<'ok' | 'client' | 'all'> => {
    const own = [...sessions.values()].filter((s) => s.owner === owner);
    if (own.length >= perClient) {
      const idle = own.filter((s) => s.open === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle === undefined) return 'client';
      await idle.transport.close();
    }
    return sessions.size >= maxSessions ? 'all' : 'ok';
  };

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown, authInfo?: AuthInfo) => {
    const owner =
      authInfo !== undefined ? `client:${authInfo.clientId}` : `address:${addressKey(req.socket.remoteAddress)}`;
    const room = await admit(owner);
    if (room === 'client') {
      return reply(res, 429, clientSessionsBusy(perClient));
    }
    if (room === 'all') {
      return reply(res, 503, tooManySessions(maxSessions));
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        session.lifetime = setTimeout(() => void transport.close().catch(onError), lifetimeMs);
        session.lifetime.unref();
      },
    });
    const session: Session = {
      transport,
      owner,
      clientId: authInfo?.clientId,
      open: 0,
      lastUsed: Date.now(),
      idle: undefined,
      lifetime: undefined,
      closed: false,
    };
    transport.onclose = () => {
      session.closed = true;
      clearTimeout(session.idle);
      clearTimeout(session.lifetime);
      const id = transport.sessionId;
      if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    };
    track(session, res);
    const server = createMcpServer(registry, serverOptions);
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (406, 415, 400) opened no session: nothing else would
      // ever close this server and transport (they are in no map), so close them now.
      const id = transport.sessionId;
      if (id === undefined || sessions.get(id) !== session) await server.close();
    }
  };

  /** One 2026-07-28 request, answered by a server built for it alone (no session). */
  const serveStateless = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: JSONRPCRequest,
    authInfo?: AuthInfo,
  ) => {
    const declared = req.headers['mcp-protocol-version'];
    if (declared !== undefined && declared !== STATELESS_PROTOCOL_VERSION) {
      return reply(res, 400, HTTP_REFUSAL.versionMismatch);
    }
    const server = createMcpServer(registry, serverOptions);
    const exchange = new SingleExchange(body.id);
    await server.connect(exchange);
    // A client gone before the answer aborts the call (closing the server aborts its handlers).
    res.once('close', () => void server.close().catch(onError));
    exchange.onmessage?.(body, { authInfo, requestInfo: { headers: req.headers } });
    const answer = await exchange.answer;
    await server.close();
    if (answer === undefined || res.writableEnded || res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Origin-form only (RFC 9112 section 3.2.1): an absolute-form target (`http://other/mcp`) would
    // name another authority than the Host checked below (section 3.2.2); this is no proxy.
    const target = req.url ?? '';
    if (!target.startsWith('/')) {
      return reply(res, 400, HTTP_REFUSAL.target);
    }
    if (!hostAllowed(req.headers.host)) {
      return reply(res, 403, HTTP_REFUSAL.host);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) {
      return reply(res, 403, HTTP_REFUSAL.origin);
    }
    // Prefixed, not resolved: `//other/mcp` is the path `//other/mcp`, never the host `other`.
    const url = new URL(`http://localhost${target}`);
    if (metadata !== undefined && url.pathname === metadataPath && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(metadata));
    }
    if (url.pathname !== endpoint) return reply(res, 404, noEndpoint(url.pathname, endpoint));
    let authInfo: AuthInfo | undefined;
    if (auth !== undefined) {
      try {
        authInfo = await authenticate(req, auth);
      } catch (error) {
        return refuseToken(res, error, auth, metadataUrl, onError);
      }
      // StreamableHTTPServerTransport.handleRequest reads `req.auth` into the handlers' `extra.authInfo`.
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined || session.clientId !== authInfo?.clientId) {
        return reply(res, 404, HTTP_REFUSAL.session);
      }
      track(session, res);
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      // Every POST is bounded, not only the initialize request.
      const sessionBody = await readBody(req, maxBody);
      if (sessionBody === TOO_LARGE) return reply(res, 413, bodyTooLarge(maxBody));
      if (sessionBody === INVALID) return reply(res, 400, HTTP_REFUSAL.notJson, -32700);
      return session.transport.handleRequest(req, res, sessionBody);
    }
    if (req.method !== 'POST') return reply(res, 400, HTTP_REFUSAL.noSession);
    const body = await readBody(req, maxBody);
    if (body === TOO_LARGE) return reply(res, 413, bodyTooLarge(maxBody));
    if (body === INVALID) return reply(res, 400, HTTP_REFUSAL.notJson, -32700);
    if (isStatelessRequest(body)) return serveStateless(req, res, body, authInfo);
    if (!isInitializeRequest(body)) return reply(res, 400, HTTP_REFUSAL.noSession);
    return startSession(req, res, body, authInfo);
  };

  // requestTimeout cuts a request (headers and body) that takes longer: Node answers 408 and
  // closes the connection; headersTimeout may not exceed it.
  const http = createServer(
    {
      requestTimeout: bodyTimeout,
      headersTimeout: Math.min(60_000, bodyTimeout),
      connectionsCheckingInterval: Math.max(1, Math.min(5_000, Math.floor(bodyTimeout / 4))),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // A request cut by the body timeout (or abandoned by its client) is no server error.
        if (!req.complete && req.destroyed) return;
        onError(error);
        if (!res.headersSent) reply(res, 500, HTTP_REFUSAL.internal);
        else res.end();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const everywhere = isWildcard(host);
  const shownHost = everywhere ? (isIP(host) === 6 ? '[::1]' : '127.0.0.1') : bracketed(host);
  const endpointUrl = new URL(`http://${shownHost}:${port}${endpoint}`);
  hostAllowed = hostCheck(options.allowedHosts ?? defaultHosts(host, port));
  if (everywhere) onError(wildcardWarning(`${host || '0.0.0.0'}, port ${port}`, options.allowedHosts !== undefined));
  if (auth !== undefined) {
    metadata = resourceMetadata(auth, endpointUrl);
    metadataUrl = (auth.resourceMetadataUrl ?? wellKnownUrl(new URL(metadata.resource))).href;
  }
  return {
    url: endpointUrl,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** One JSON-RPC request declaring protocol revision 2026-07-28 in its `_meta` envelope. */
function isStatelessRequest(body: unknown): body is JSONRPCRequest {
  if (!isJSONRPCRequest(body)) return false;
  const meta = (body.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.[META_KEYS.protocolVersion] === STATELESS_PROTOCOL_VERSION;
}

/**
 * The transport of one 2026-07-28 request: delivers it to the server, and resolves `answer` with
 * the server's response to it (undefined if the server closed first). Notifications the server
 * sends meanwhile (progress) have no stream to go to and are dropped.
 */
class SingleExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly answer: Promise<JSONRPCMessage | undefined>;
  private settle: (message: JSONRPCMessage | undefined) => void = () => undefined;

  constructor(private readonly id: string | number) {
    this.answer = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && message.id === this.id && !('method' in message)) this.settle(message);
  }

  async close(): Promise<void> {
    this.settle(undefined);
    this.onclose?.();
  }
}

type Limit =
  'maxSessions' | 'maxSessionsPerClient' | 'sessionIdleMs' | 'sessionMaxLifetimeMs' | 'maxBodyBytes' | 'bodyTimeoutMs';

function limit(options: McpHttpOptions, name: Limit, fallback: number): number {
  const timer = name === 'sessionIdleMs' || name === 'sessionMaxLifetimeMs';
  return limitOption('serveStreamableHttp', name, options[name], fallback, timer);
}

function isWildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || (isIP(host) === 6 && new URL(`http://[${host}]`).hostname === '[::]');
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** The Host values of the default allow-list (see McpHttpOptions.allowedHosts). */
function defaultHosts(host: string, port: number): string[] {
  const names = isLoopback(host) || isWildcard(host) ? [...LOOPBACK_NAMES] : [];
  // As a URL writes it (the Host clients send): `::ffff:127.0.0.1` is `[::ffff:7f00:1]`.
  if (!isWildcard(host)) names.push(new URL(`http://${bracketed(host)}`).hostname);
  const hosts = names.map((name) => `${name}:${port}`);
  return port === 80 ? [...hosts, ...names] : hosts;
}

/** `name` or `[v6]`, then an optional `:port`; anything else (userinfo, spaces, paths) is refused. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

function hostCheck(allowed: readonly string[]): (value: string | undefined) => boolean {
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const entry of allowed) {
    const text = String(entry).toLowerCase();
    (HOST_HEADER.exec(text)?.[2] === undefined ? anyPort : exact).add(text);
  }
  return (value) => {
    const match = value === undefined ? null : HOST_HEADER.exec(value);
    if (match === null) return false;
    return exact.has(value!.toLowerCase()) || anyPort.has(match[1].toLowerCase());
  };
}

function originCheck(allowed: readonly string[] | undefined): (value: string) => boolean {
  const parse = (value: string): URL | undefined => {
    try {
      return new URL(value);
    } catch {
      return undefined;
    }
  };
  if (allowed === undefined) {
    return (value) => {
      const url = parse(value);
      if (url === undefined || url.origin !== value.toLowerCase()) return false;
      return /^https?:$/.test(url.protocol) && LOOPBACK_NAMES.includes(url.hostname);
    };
  }
  const origins = new Set(
    allowed.map((entry) => {
      const url = parse(String(entry));
      // `scheme://authority` and nothing after it; the URL parser would drop a path silently.
      const bare = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]+$/i.test(String(entry));
      if (url === undefined || url.origin === 'null' || !bare) throw notAnOrigin(entry);
      return url.origin;
    }),
  );
  return (value) => {
    const url = parse(value);
    return url !== undefined && url.origin === value.toLowerCase() && origins.has(url.origin);
  };
}

/** Per-client key of a remote address: IPv4 (also IPv4-mapped) as is, IPv6 by its /64 prefix. */
function addressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped !== null) return mapped[1];
  if (isIP(bare) !== 6) return bare;
  const [head, tail] = bare.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0');
  const groups = tail === undefined ? front : [...front, ...zeros, ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** RFC 9728 §3.1: the well-known URL of a resource, its path appended. */
function wellKnownUrl(resource: URL): URL {
  const path = resource.pathname === '/' ? '' : resource.pathname;
  return new URL(`/.well-known/oauth-protected-resource${path}`, resource);
}

function resourceMetadata(auth: McpHttpAuthOptions, endpoint: URL): OAuthProtectedResourceMetadata {
  const candidate = { resource: endpoint.href, ...auth.resourceMetadata };
  const parsed = OAuthProtectedResourceMetadataSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw resourceMetadataInvalid(issues);
  }
  return parsed.data;
}

/** The SDK's requireBearerAuth checks, without express. @throws the SDK's OAuthError subclasses */
async function authenticate(req: IncomingMessage, auth: McpHttpAuthOptions): Promise<AuthInfo> {
  const header = req.headers.authorization;
  if (header === undefined) throw new InvalidTokenError(BEARER.missing);
  const token = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header)?.[1];
  if (token === undefined) throw new InvalidTokenError(BEARER.format);
  let info: AuthInfo;
  try {
    info = await auth.verifier.verifyAccessToken(token);
  } catch (error) {
    // The verifier's own text may name what it saw (a token, a user, a database): the client
    // gets a fixed description; any other error is passed on (500, onError).
    if (isOAuthError(error, InvalidTokenError.errorCode)) throw new InvalidTokenError(BEARER.invalid);
    if (isOAuthError(error, InsufficientScopeError.errorCode)) throw new InsufficientScopeError(BEARER.scope);
    throw error;
  }
  if (typeof info !== 'object' || info === null || typeof info.clientId !== 'string' || !Array.isArray(info.scopes)) {
    throw notAuthInfo();
  }
  if (auth.expectedResource !== undefined && !sameResource(info.resource, auth.expectedResource)) {
    throw new InvalidTokenError(BEARER.resource);
  }
  if (!(auth.requiredScopes ?? []).every((scope) => info.scopes.includes(scope))) {
    throw new InsufficientScopeError(BEARER.scope);
  }
  if (typeof info.expiresAt !== 'number' || Number.isNaN(info.expiresAt)) {
    throw new InvalidTokenError(BEARER.noExpiry);
  }
  if (info.expiresAt < Date.now() / 1000) throw new InvalidTokenError(BEARER.expired);
  return info;
}

function sameResource(reported: URL | undefined, expected: URL): boolean {
  const plain = (url: URL) => url.href.replace(/#.*$/, '').replace(/\/$/, '');
  return reported !== undefined && plain(new URL(String(reported))) === plain(expected);
}

/**
 * An OAuth error of this code: the SDK's class, also from another copy of the SDK (its ESM and
 * CommonJS builds are distinct classes), by its `errorCode`.
 */
function isOAuthError(error: unknown, code: string): boolean {
  return error instanceof Error && (error as Partial<OAuthError>).errorCode === code;
}

/**
 * 401 / 403 with `WWW-Authenticate: Bearer ...` (RFC 6750 §3) for the token and scope errors
 * authenticate throws (its own descriptions); 500 with a generic body, the error to `onError`, for
 * anything else a verifier threw, another OAuthError included.
 */
function refuseToken(
  res: ServerResponse,
  error: unknown,
  auth: McpHttpAuthOptions,
  metadataUrl: string | undefined,
  onError: (error: unknown) => void,
): void {
  const status = error instanceof InvalidTokenError ? 401 : error instanceof InsufficientScopeError ? 403 : 500;
  if (status === 500) onError(error);
  const oauth = status !== 500 ? (error as OAuthError) : new ServerError(BEARER.server);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401 || status === 403) {
    // authenticate's own texts; kept quoted-string safe all the same.
    const description = oauth.message.replace(/[^\x20-\x7e]|["\\]/g, '');
    const parts = [`error="${oauth.errorCode}"`, `error_description="${description}"`];
    if ((auth.requiredScopes ?? []).length > 0) parts.push(`scope="${(auth.requiredScopes ?? []).join(' ')}"`);
    if (metadataUrl !== undefined) parts.push(`resource_metadata="${metadataUrl}"`);
    headers['www-authenticate'] = `Bearer ${parts.join(', ')}`;
  }
  res.writeHead(status, headers);
  res.end(JSON.stringify(oauth.toResponseObject()));
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
