/**
 * Raw HTTP for the Streamable HTTP specs: requests with forged or missing headers (Host, Origin,
 * Authorization), always connected to 127.0.0.1 whatever the server is bound to.
 */
import { request } from 'node:http';
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';

/** A finished response. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What to send; `host: null` sends no Host header at all. */
export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly host?: string | null;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** An `initialize` request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

/** A `ping` request body. */
export const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

function open(url: URL, init: RawRequest): ClientRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...init.headers,
  };
  if (init.host !== null) headers.host = init.host ?? url.host;
  return request({
    host: '127.0.0.1',
    port: url.port,
    path: init.path ?? url.pathname,
    method: init.method ?? 'POST',
    headers,
    setHost: false,
  });
}

/** Sends one request and reads the whole response. */
export function send(url: URL, init: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = open(url, init);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Opens a session with a raw `initialize` and returns its id. */
export async function initialize(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const response = await send(url, { body: INITIALIZE, headers });
  const id = response.headers['mcp-session-id'];
  if (response.status !== 200 || typeof id !== 'string') {
    throw new Error(`initialize answered ${response.status}: ${response.body}`);
  }
  return id;
}

/**
 * Opens the session's GET stream (SSE) and resolves with its status once the headers arrive; the
 * stream stays open until `close` is called or the server ends it (`ended` then resolves).
 */
export function openStream(
  url: URL,
  session: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; close: () => void; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const streamHeaders = { accept: 'text/event-stream', 'mcp-session-id': session, ...headers };
    const req = open(url, { method: 'GET', headers: streamHeaders });
    req.on('response', (res) => {
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy(), ended });
    });
    req.on('error', reject);
    req.end();
  });
}
