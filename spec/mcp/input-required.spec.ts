/**
 * MCP protocol revision 2026-07-28 (lib/mcp/input-required.ts): `server/discover`, and a suspended
 * `tools/call` answered with `input_required` and a sealed `requestState`, driven by the SDK v2
 * client (`@modelcontextprotocol/client`, which negotiates 2026-07-28 with `versionNegotiation:
 * { mode: 'auto' }`), by the same client in its default legacy mode and by the v1 SDK client (the
 * elicitation flow), and by raw JSON-RPC: another instance sharing the sealer and its store
 * resumes the call; a replayed, altered or foreign state is refused.
 */
import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ContinuationSealer, createMcpServer } from '../../lib/mcp';
import type { McpServerOptions } from '../../lib/mcp';
import { cannotElicit, inputNotGiven, stateNotResumed, tooManyElicitations } from '../../lib/mcp/messages';
import { MemoryStore } from '../../lib/runtime';
import { SpanStatusCode } from '@opentelemetry/api';
import { startTelemetry } from '../tracing/support';
import { filed, testRegistry } from './support/registry';

const { Client: V2Client } = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');

const VERSION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

type Answer = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
};

function textOf(result: object): string {
  const content = (result as { content?: unknown }).content ?? [];
  return (content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join('|');
}

async function v2(
  answer: (message: string) => Answer,
  options: McpServerOptions = {},
  mode: 'auto' | 'legacy' = 'auto',
) {
  const server = createMcpServer(testRegistry(), options);
  const client = new V2Client(
    { name: 'spec', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string };
    asked.push(params.message);
    return answer(params.message);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, asked, close: () => client.close() };
}

/** Raw JSON-RPC to one server over an in-memory pair: send a request, read its response. */
async function raw(options: McpServerOptions) {
  const server = createMcpServer(testRegistry(), options);
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  const replies = new Map<string | number, (message: JSONRPCMessage) => void>();
  mine.onmessage = (message) => {
    const id = (message as { id?: string | number }).id;
    if (id !== undefined) replies.get(id)?.(message);
  };
  await server.connect(theirs);
  await mine.start();
  let next = 0;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++next;
      replies.set(id, (m) => resolve(m as Record<string, unknown>));
      void mine.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  return { request, close: () => mine.close() };
}

const FILE = { name: 'file_note', arguments: { text: 'Q3' } };
const APPROVE: Answer = { action: 'accept', content: { approve: true, title: 'Q3' } };
const FILED = filed('Q3', '{"step":"confirm"}');

describe('MCP 2026-07-28 with the SDK v2 client (versionNegotiation auto)', () => {
  it('negotiates 2026-07-28 through server/discover and lists tools with a cache hint', async () => {
    const session = await v2(() => APPROVE);
    try {
      expect(session.client.getNegotiatedProtocolVersion()).toBe(VERSION);
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toContain('file_note');
    } finally {
      await session.close();
    }
  });

  it('a suspended call returns input_required; the client answers and retries; the call completes', async () => {
    const session = await v2(() => APPROVE);
    try {
      const result = await session.client.callTool(FILE);
      expect(session.asked).toHaveLength(1);
      expect(textOf(result as { content?: unknown })).toBe(FILED);
    } finally {
      await session.close();
    }
  });
});

describe('the elicitation flow stays for clients of earlier revisions', () => {
  it('the SDK v2 client in its default (legacy) mode is asked by elicitation inside the call', async () => {
    const session = await v2(() => APPROVE, {}, 'legacy');
    try {
      expect(session.client.getNegotiatedProtocolVersion()).not.toBe(VERSION);
      const result = await session.client.callTool(FILE);
      expect([session.asked.length, textOf(result as { content?: unknown })]).toEqual([1, FILED]);
    } finally {
      await session.close();
    }
  });

  it('the SDK v1 client (2025-11-25) is asked by elicitation inside the call', async () => {
    const server = createMcpServer(testRegistry());
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked++;
      return APPROVE;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const result = await client.callTool(FILE);
    await client.close();
    expect([asked, textOf(result)]).toEqual([1, FILED]);
  });
});

describe('MCP 2026-07-28 on the wire (raw JSON-RPC)', () => {
  const keys = [{ id: 'k1', secret: randomBytes(32) }];
  /** Two instances of one fleet: the same keys, claims in one shared runtime store. */
  function fleet(extra: McpServerOptions = {}) {
    const store = new MemoryStore();
    const sealer = () => new ContinuationSealer({ keys, currentKeyId: 'k1', useStore: store });
    return Promise.all([raw({ sealer: sealer(), ...extra }), raw({ sealer: sealer(), ...extra })]);
  }
  const call = (params: Record<string, unknown> = {}) => ({ ...FILE, _meta: ENVELOPE, ...params });
  const result = (reply: Record<string, unknown>) => reply.result as Record<string, unknown>;

  it('server/discover offers 2026-07-28 and the earlier revisions, with the server info in _meta', async () => {
    const [a] = await fleet();
    const discover = result(await a.request('server/discover', { _meta: ENVELOPE }));
    expect(discover).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: { listChanged: false } },
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scope-tool' } },
    });
    expect((discover.supportedVersions as string[])[0]).toBe(VERSION);
    expect(discover.supportedVersions).toContain('2025-11-25');
  });

  it('input_required carries the question and a sealed requestState; another instance resumes the call, once', async () => {
    const [a, b] = await fleet();
    const first = result(await a.request('tools/call', call()));
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        input: {
          method: 'elicitation/create',
          params: { message: 'File the note "Q3"?', requestedSchema: { type: 'object' } },
        },
      },
    });
    const retry = call({ inputResponses: { input: APPROVE }, requestState: first.requestState });
    const done = result(await b.request('tools/call', retry));
    expect([done.resultType, done.isError, textOf(done)]).toEqual(['complete', false, FILED]);
    const again = result(await a.request('tools/call', retry));
    expect([again.isError, textOf(again)]).toEqual([true, stateNotResumed('file_note', 'replayed')]);
  });

  it('a principal option that throws fails only a call that seals a state, inside its span; the text stays out', async () => {
    // Regression (hostile review): the principal was asked before the call and its trace span, so a
    // throw left no span and its message reached the client as a JSON-RPC error.
    const telemetry = startTelemetry();
    const errors: unknown[] = [];
    const [a] = await fleet({
      principal: () => {
        throw new Error('principal boom');
      },
      tracing: { tracer: telemetry.tracer },
      onError: (e) => errors.push(e),
    });
    try {
      const asked = await a.request('tools/call', call());
      expect(asked.error).toBeUndefined();
      expect(result(asked).isError).toBe(true);
      expect(JSON.stringify(asked)).not.toContain('principal boom');
      expect(errors.map((e) => (e as Error).message)).toEqual(['principal boom']);
      const done = result(
        await a.request('tools/call', { name: 'forecast', arguments: { city: 'Oslo' }, _meta: ENVELOPE }),
      );
      expect(done.isError).toBe(false);
      const spans = telemetry.toolSpans();
      expect(spans.map((span) => [span.name, span.status.code])).toEqual([
        ['execute_tool file_note', SpanStatusCode.ERROR],
        ['execute_tool forecast', SpanStatusCode.UNSET],
      ]);
    } finally {
      await telemetry.stop();
    }
  });

  it('an altered state, one that is not a string, or one sealed for another principal is refused', async () => {
    const [a] = await fleet();
    const [other] = await fleet({ principal: () => 'mallory' });
    const first = result(await a.request('tools/call', call()));
    const state = first.requestState as string;
    const altered = state.slice(0, -2) + (state.endsWith('A') ? 'BB' : 'AA');
    for (const [server, requestState] of [
      [a, altered],
      [a, 42],
      [other, state],
    ] as const) {
      const reply = result(
        await server.request('tools/call', call({ inputResponses: { input: APPROVE }, requestState })),
      );
      expect([reply.isError, textOf(reply)]).toEqual([true, stateNotResumed('file_note', 'tampered')]);
    }
  });

  it('a refused answer or none asks again with a new state; a declined one is rejected', async () => {
    const [a] = await fleet();
    const first = result(await a.request('tools/call', call()));
    const refused = result(
      await a.request(
        'tools/call',
        call({
          inputResponses: { input: { action: 'accept', content: { approve: 'yes' } } },
          requestState: first.requestState,
        }),
      ),
    );
    expect(refused.resultType).toBe('input_required');
    const asked = (refused.inputRequests as Record<string, { params: { message: string } }>).input.params.message;
    expect(asked).toMatch(/^File the note "Q3"\?\n\n\(The previous answer was refused: /);
    const none = result(await a.request('tools/call', call({ requestState: refused.requestState })));
    expect(none.resultType).toBe('input_required');
    const declined = result(
      await a.request(
        'tools/call',
        call({ inputResponses: { input: { action: 'decline' } }, requestState: none.requestState }),
      ),
    );
    expect([declined.isError, textOf(declined)]).toEqual([true, inputNotGiven('file_note', 'decline')]);
  });

  it('asks at most maxElicitations times; a client without elicitation is told so', async () => {
    const [a] = await fleet({ maxElicitations: 1 });
    const first = result(await a.request('tools/call', call()));
    const second = result(await a.request('tools/call', call({ requestState: first.requestState })));
    expect(textOf(second)).toBe(tooManyElicitations('file_note', 1));
    const mute = {
      ...ENVELOPE,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const refused = result(await a.request('tools/call', { ...FILE, _meta: mute }));
    expect([refused.isError, textOf(refused)]).toEqual([true, cannotElicit('file_note')]);
  });

  it('tools/list under 2026-07-28 carries resultType and the cache hint; without the envelope it does not', async () => {
    const [a] = await fleet();
    const modern = result(await a.request('tools/list', { _meta: ENVELOPE }));
    expect(modern).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const legacy = result(await a.request('tools/list', {}));
    expect(Object.keys(legacy)).toEqual(['tools']);
  });
});
