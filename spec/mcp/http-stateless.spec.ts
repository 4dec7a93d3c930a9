/**
 * serveStreamableHttp under protocol revision 2026-07-28 (lib/mcp/http.ts): the SDK v2 client
 * (`@modelcontextprotocol/client`, `versionNegotiation: { mode: 'auto' }`) over real HTTP on
 * loopback, against two instances sharing the sealer keys and one runtime store, behind a fetch
 * that routes like a load balancer: the first instance answers `input_required`, the retry reaches
 * the second, which resumes the call, once; no session is opened. Hostile retries (replayed,
 * altered, another principal's state) are refused; the SDK v1 client keeps its session and the
 * elicitation flow on the same endpoint.
 */
import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ContinuationSealer, serveStreamableHttp } from '../../lib/mcp';
import type { McpHttpServer } from '../../lib/mcp';
import { HTTP_REFUSAL, stateNotResumed } from '../../lib/mcp/messages';
import { MemoryStore } from '../../lib/runtime';
import { filed, testRegistry } from './support/registry';

const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } =
  require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');

const VERSION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const FILE = { name: 'file_note', arguments: { text: 'Q3' } };
const APPROVE = { action: 'accept' as const, content: { approve: true, title: 'Q3' } };
const FILED = filed('Q3', '{"step":"confirm"}');

/** One POST as a client sends it; the instance is told the caller by `x-user`. */
interface Sent {
  readonly url: string;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** A JSON-RPC response as these tests read it. */
interface Reply {
  readonly id?: number;
  readonly result: {
    readonly resultType?: string;
    readonly isError?: boolean;
    readonly requestState?: string;
    readonly supportedVersions?: string[];
    readonly content?: unknown;
  };
  readonly error: { readonly message: string };
}

function textOf(result: object): string {
  const content = (result as { content?: unknown }).content ?? [];
  return (content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join('|');
}

describe('serveStreamableHttp under 2026-07-28: any instance resumes a suspended call', () => {
  let a: McpHttpServer;
  let b: McpHttpServer;

  beforeAll(async () => {
    const keys = [{ id: 'k1', secret: randomBytes(32) }];
    const store = new MemoryStore();
    const options = () => ({
      sealer: new ContinuationSealer({ keys, currentKeyId: 'k1', useStore: store }),
      principal: (info: { headers: Readonly<Record<string, string | string[] | undefined>> }) =>
        String(info.headers['x-user'] ?? ''),
    });
    [a, b] = await Promise.all([
      serveStreamableHttp(testRegistry(), options()),
      serveStreamableHttp(testRegistry(), options()),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  /** POSTs one JSON-RPC request to `url` as `user`; the status and the parsed body. */
  async function post(url: URL, body: object, user = 'alice', headers: Record<string, string> = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'x-user': user,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      session: response.headers.get('mcp-session-id'),
      body: (await response.json()) as Reply,
    };
  }

  const call = (params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { ...FILE, _meta: ENVELOPE, ...params },
  });

  it('the v2 client negotiates 2026-07-28 over HTTP; input_required from one instance, the retry completes on the other', async () => {
    const sent: Sent[] = [];
    // A load balancer: a retry (it carries requestState) goes to b, everything else to a.
    const balancer = async (_url: string | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      const retry = (body.params as { requestState?: unknown } | undefined)?.requestState !== undefined;
      const target = retry ? b.url : a.url;
      const headers = new Headers(init?.headers);
      headers.set('x-user', 'alice');
      sent.push({ url: target.href, headers, body });
      return fetch(target, { ...init, headers });
    };
    const client = new V2Client(
      { name: 'spec', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return APPROVE;
    });
    await client.connect(new V2Transport(a.url, { fetch: balancer }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('file_note');
      const result = await client.callTool(FILE);
      expect([asked, textOf(result as object)]).toEqual([['File the note "Q3"?'], FILED]);
    } finally {
      await client.close();
    }
    const calls = sent.filter((s) => s.body.method === 'tools/call');
    expect(calls.map((s) => s.url)).toEqual([a.url.href, b.url.href]);
    expect(sent.some((s) => s.body.method === 'initialize')).toBe(false);
    expect(sent.map((s) => s.headers.get('mcp-session-id'))).toEqual(sent.map(() => null));
    expect(calls.map((s) => s.headers.get('mcp-protocol-version'))).toEqual([VERSION, VERSION]);

    // The retry the client sent, replayed to either instance: refused, the call ran once.
    const retry = calls[1].body;
    for (const server of [a, b]) {
      const again = await post(server.url, retry);
      expect([again.status, again.session, again.body.result.isError, textOf(again.body.result)]).toEqual([
        200,
        null,
        true,
        stateNotResumed('file_note', 'replayed'),
      ]);
    }
  });

  it('an altered state, or one sealed for another principal, is refused; the right retry then completes', async () => {
    const first = await post(a.url, call());
    expect([first.status, first.session, first.body.result.resultType]).toEqual([200, null, 'input_required']);
    const state = first.body.result.requestState!;
    const altered = state.slice(0, -2) + (state.endsWith('A') ? 'BB' : 'AA');
    const answer = { inputResponses: { input: APPROVE } };
    const tampered = await post(b.url, call({ ...answer, requestState: altered }));
    const foreign = await post(b.url, call({ ...answer, requestState: state }), 'mallory');
    for (const refused of [tampered, foreign]) {
      expect([refused.body.result.isError, textOf(refused.body.result)]).toEqual([
        true,
        stateNotResumed('file_note', 'tampered'),
      ]);
    }
    const done = await post(b.url, call({ ...answer, requestState: state }));
    expect([done.body.result.resultType, done.body.result.isError, textOf(done.body.result)]).toEqual([
      'complete',
      false,
      FILED,
    ]);
  });

  it('server/discover and tools/list are answered without a session', async () => {
    const discover = await post(a.url, {
      jsonrpc: '2.0',
      id: 7,
      method: 'server/discover',
      params: { _meta: ENVELOPE },
    });
    expect([discover.status, discover.session, discover.body.id]).toEqual([200, null, 7]);
    expect(discover.body.result.supportedVersions?.[0]).toBe(VERSION);
    const list = await post(b.url, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: ENVELOPE } });
    expect(list.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
  });

  it('a MCP-Protocol-Version header naming another revision than the envelope is refused with 400', async () => {
    const refused = await post(a.url, call(), 'alice', { 'mcp-protocol-version': '2025-11-25' });
    expect([refused.status, refused.body.error.message]).toEqual([400, HTTP_REFUSAL.versionMismatch]);
  });

  it('a request of an earlier revision without a session still needs initialize (400)', async () => {
    const refused = await post(a.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: FILE }, 'alice', {
      'mcp-protocol-version': '2025-11-25',
    });
    expect([refused.status, refused.body.error.message]).toEqual([400, HTTP_REFUSAL.noSession]);
  });

  it('the SDK v1 client keeps its session and is asked by elicitation inside the call', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked++;
      return APPROVE;
    });
    const transport = new V1Transport(a.url);
    await client.connect(transport);
    try {
      expect(transport.sessionId).toEqual(expect.any(String));
      expect(client.getServerVersion()?.name).toBe('scope-tool');
      const result = await client.callTool(FILE);
      expect([asked, textOf(result)]).toEqual([1, FILED]);
    } finally {
      await client.close();
    }
  });
});
