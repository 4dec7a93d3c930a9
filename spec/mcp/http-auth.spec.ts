/**
 * Bearer token authentication of serveStreamableHttp (the SDK's
 * requireBearerAuth behavior without express): 401 / 403 with `WWW-Authenticate`, RFC 9728
 * protected resource metadata, `authInfo` and the request headers in the `context` factory, and
 * a Guard policy reading the token's scopes from `CallOptions.context`, called by the SDK Client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  InsufficientScopeError,
  InvalidClientError,
  InvalidRequestError,
  InvalidTokenError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { FuncTool, Guard, Registry, ToolError } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import { serveStreamableHttp } from '../../lib/mcp';
import type { McpCallInfo, McpHttpOptions, McpHttpServer } from '../../lib/mcp';
import { BEARER, resourceMetadataInvalid } from '../../lib/mcp/messages';
import { INITIALIZE, PING, initialize, send } from './support/raw-http';

/** The auth-params of a `WWW-Authenticate: Bearer ...` challenge (RFC 6750 section 3), by name. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  const text = String(header);
  expect(text.startsWith('Bearer ')).toBe(true);
  return Object.fromEntries([...text.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * Tokens the verifier knows: `writer` and `reader` (of client alice and bob), `expired`, `broken`;
 * `oauth-*` throw an SDK OAuthError with a secret in its text; `desk-*` are two users (subjects)
 * of one public OAuth client.
 */
const verifier = {
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    switch (token) {
      case 'writer':
        return { token, clientId: 'alice', scopes: ['mcp', 'notes:write'], expiresAt: inAnHour() };
      case 'reader':
        return { token, clientId: 'bob', scopes: ['mcp', 'notes:read'], expiresAt: inAnHour() };
      case 'outsider':
        return { token, clientId: 'carol', scopes: ['notes:write'], expiresAt: inAnHour() };
      case 'expired':
        return { token, clientId: 'alice', scopes: ['mcp', 'notes:write'], expiresAt: inAnHour() - 3660 };
      case 'broken':
        throw new Error('token store unreachable at redis://admin:secret@db');
      case 'oauth-server':
        throw new ServerError('upstream db password=hunter2');
      case 'oauth-request':
        throw new InvalidRequestError('SECRET-IN-REQ');
      case 'oauth-client':
        throw new InvalidClientError('client secret SECRET-CLIENT mismatched');
      case 'oauth-token':
        throw new InvalidTokenError('token of bob@example.com revoked, SECRET-TOKEN');
      case 'oauth-scope':
        throw new InsufficientScopeError('needs SECRET-SCOPE');
      case 'desk-ann':
      case 'desk-ben':
        return { token, clientId: 'desk', scopes: ['mcp'], expiresAt: inAnHour(), extra: { sub: token.slice(5) } };
      default:
        throw new InvalidTokenError('Unknown token');
    }
  },
};

/** Records what the `context` factory received and what the tool saw. */
interface Seen {
  infos: McpCallInfo[];
  saved: unknown[];
}

/** One tool, `save_note`, behind a policy that reads the scopes the context factory put there. */
function notesRegistry(seen: Seen): Registry {
  const decode = (value: JsonValue) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ToolError('ERR_INVALID_INVOCATION', 'not an object');
    }
    return value as { text: string };
  };
  const save = FuncTool.create(
    {
      name: 'save_note',
      description: 'Saves a note.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      decode,
    },
    (input, call) => {
      seen.saved.push(call.context);
      return `saved ${input.text}`;
    },
  );
  const policy = (_authorization: unknown, options: { context?: unknown }) =>
    ((options.context as { scopes?: string[] } | undefined)?.scopes ?? []).includes('notes:write');
  return new Registry(new Guard({ tool: save, authorizer: policy }));
}

function options(seen: Seen, errors: unknown[]): McpHttpOptions {
  return {
    auth: {
      verifier,
      requiredScopes: ['mcp'],
      resourceMetadata: {
        authorization_servers: ['https://auth.example.com'],
        scopes_supported: ['mcp', 'notes:write', 'notes:read'],
      },
    },
    context: (info) => {
      seen.infos.push(info);
      return { user: info.authInfo?.clientId, scopes: info.authInfo?.scopes ?? [], agent: info.headers['x-agent'] };
    },
    onError: (error) => errors.push(error),
  };
}

async function connect(server: McpHttpServer, token: string | undefined): Promise<{ client: Client }> {
  const headers: Record<string, string> = { 'x-agent': 'spec-agent' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const transport = new StreamableHTTPClientTransport(server.url, { requestInit: { headers } });
  const client = new Client({ name: 'auth-spec', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close();
    throw error;
  }
  return { client };
}

describe('serveStreamableHttp with a bearer token verifier', () => {
  const seen: Seen = { infos: [], saved: [] };
  const errors: unknown[] = [];
  let server: McpHttpServer;
  let metadataUrl: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await serveStreamableHttp(notesRegistry(seen), options(seen, errors));
    metadataUrl = `http://${server.url.host}/.well-known/oauth-protected-resource/mcp`;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });

  it('runs the tool for a token with the scope the policy reads; the factory got authInfo, headers', async () => {
    const { client } = await connect(server, 'writer');
    clients.push(client);
    const result = await client.callTool({ name: 'save_note', arguments: { text: 'pack' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'saved pack' }], isError: false });
    expect(seen.saved.at(-1)).toEqual({ user: 'alice', scopes: ['mcp', 'notes:write'], agent: 'spec-agent' });
    const info = seen.infos.at(-1) as McpCallInfo;
    const expected = { token: 'writer', clientId: 'alice', scopes: ['mcp', 'notes:write'] };
    expect(info.authInfo).toEqual(expect.objectContaining(expected));
    expect(info.headers.authorization).toBe('Bearer writer');
  });

  it('refuses the call (not authorized) for a token without the scope; the tool does not run', async () => {
    const { client } = await connect(server, 'reader');
    clients.push(client);
    const before = seen.saved.length;
    const result = await client.callTool({ name: 'save_note', arguments: { text: 'pack' } });
    const text = 'error: tool "save_note" is not authorized';
    expect(result).toEqual({ content: [{ type: 'text', text }], isError: true });
    expect(seen.saved).toHaveLength(before);
  });

  it('refuses the SDK Client without a token (401); it never connects', async () => {
    // StreamableHTTPError carries the HTTP status as its code.
    await expect(connect(server, undefined)).rejects.toMatchObject({ code: 401 });
  });

  it('answers a missing, malformed, unknown, expired token with 401, WWW-Authenticate naming metadata', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, BEARER.missing],
      [{ authorization: 'Basic d3JpdGVyOg==' }, BEARER.format],
      [{ authorization: 'Bearer' }, BEARER.format],
      [{ authorization: 'Bearer nobody' }, BEARER.invalid],
      [{ authorization: 'Bearer expired' }, BEARER.expired],
    ];
    for (const [headers, description] of cases) {
      const response = await send(server.url, { headers, body: INITIALIZE });
      expect([headers, response.status]).toEqual([headers, 401]);
      expect(challenge(response.headers['www-authenticate'])).toEqual({
        error: 'invalid_token',
        error_description: description,
        scope: 'mcp',
        resource_metadata: metadataUrl,
      });
      expect(JSON.parse(response.body)).toEqual({ error: 'invalid_token', error_description: description });
    }
  });

  it('answers a token without requiredScopes with 403 insufficient_scope', async () => {
    const response = await send(server.url, { headers: { authorization: 'Bearer outsider' }, body: INITIALIZE });
    expect(response.status).toBe(403);
    expect(challenge(response.headers['www-authenticate'])).toEqual({
      error: 'insufficient_scope',
      error_description: BEARER.scope,
      scope: 'mcp',
      resource_metadata: metadataUrl,
    });
  });

  it('answers a verifier that fails with 500, its error to onError only', async () => {
    const response = await send(server.url, { headers: { authorization: 'Bearer broken' }, body: INITIALIZE });
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(JSON.parse(response.body)).toEqual({ error: 'server_error', error_description: 'Internal Server Error' });
    expect((errors.at(-1) as Error).message).toContain('redis://admin:secret@db');
  });

  it('answers any other OAuthError of the verifier with 500 and a generic body, the error to onError', async () => {
    // Regression: ServerError and InvalidRequestError were answered 400 with their own text.
    const cases: [string, string][] = [
      ['oauth-server', 'upstream db password=hunter2'],
      ['oauth-request', 'SECRET-IN-REQ'],
      ['oauth-client', 'client secret SECRET-CLIENT mismatched'],
    ];
    for (const [token, message] of cases) {
      const response = await send(server.url, { headers: { authorization: `Bearer ${token}` }, body: INITIALIZE });
      expect([token, response.status]).toEqual([token, 500]);
      expect(JSON.parse(response.body)).toEqual({ error: 'server_error', error_description: 'Internal Server Error' });
      expect(response.headers['www-authenticate']).toBeUndefined();
      expect(errors.at(-1)).toMatchObject({ message });
    }
  });

  it("answers the verifier's token and scope errors with fixed descriptions, never the verifier's text", async () => {
    const before = errors.length;
    const invalid = await send(server.url, { headers: { authorization: 'Bearer oauth-token' }, body: INITIALIZE });
    expect(invalid.status).toBe(401);
    expect(JSON.parse(invalid.body)).toEqual({ error: 'invalid_token', error_description: 'Invalid token' });
    expect(invalid.headers['www-authenticate']).toContain('error_description="Invalid token"');
    const scope = await send(server.url, { headers: { authorization: 'Bearer oauth-scope' }, body: INITIALIZE });
    expect(scope.status).toBe(403);
    expect(JSON.parse(scope.body)).toEqual({ error: 'insufficient_scope', error_description: 'Insufficient scope' });
    for (const response of [invalid, scope]) {
      expect(`${response.body} ${String(response.headers['www-authenticate'])}`).not.toMatch(/SECRET|bob@/);
    }
    expect(errors).toHaveLength(before);
  });

  it('serves the RFC 9728 protected resource metadata without a token', async () => {
    const response = await send(server.url, { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      resource: server.url.href,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp', 'notes:write', 'notes:read'],
    });
  });

  it('keeps a session to the client that opened it: another valid token gets 404 for its id', async () => {
    const session = await initialize(server.url, { authorization: 'Bearer writer' });
    const ping = async (headers: Record<string, string>) =>
      (await send(server.url, { headers: { 'mcp-session-id': session, ...headers }, body: PING })).status;
    expect(await ping({ authorization: 'Bearer writer' })).toBe(200);
    expect(await ping({ authorization: 'Bearer reader' })).toBe(404);
    expect(await ping({})).toBe(401);
  });

  it('binds a session to the OAuth client, not the user: users of one public client share it (documented)', async () => {
    const session = await initialize(server.url, { authorization: 'Bearer desk-ann' });
    const other = { 'mcp-session-id': session, authorization: 'Bearer desk-ben' };
    expect((await send(server.url, { headers: other, body: PING })).status).toBe(200);
  });

  it('refuses to start with metadata that breaks RFC 9728 or a verifier without verifyAccessToken', async () => {
    const registry = notesRegistry({ infos: [], saved: [] });
    const broken = { auth: { verifier, resourceMetadata: { resource: 'not a url' } } };
    const refused = serveStreamableHttp(registry, broken);
    await expect(refused).rejects.toThrow(TypeError);
    await expect(refused).rejects.toThrow(resourceMetadataInvalid('resource: ').message);
    const noVerifier = { auth: { verifier: {} as typeof verifier } };
    await expect(serveStreamableHttp(registry, noVerifier)).rejects.toThrow(TypeError);
  });
});
