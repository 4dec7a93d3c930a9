/**
 * createMcpServer against a client that sends what the SDK Client never would, as raw JSON-RPC over
 * an in-memory pair: requests the SDK drops, malformed and polluted elicitation answers, in both
 * flows (elicitation inside the call, and 2026-07-28 `input_required`).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../lib/mcp';
import type { McpServerOptions } from '../../lib/mcp';
import { ANSWER_RULE, askedAgain, inputNotGiven } from '../../lib/mcp/messages';
import { testRegistry } from './support/registry';

/** A JSON-RPC message as it travels (the members these specs read). */
interface Message {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/**
 * One server, initialized as a 2025-11-25 client with form elicitation. `request` resolves with the
 * response, `ask` answers the server's requests (elicitation/create), `errors` is what onError got.
 */
async function raw(options: McpServerOptions = {}) {
  const errors: unknown[] = [];
  const server = createMcpServer(testRegistry(), { onError: (e) => errors.push(e), ...options });
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  const replies = new Map<unknown, (message: Message) => void>();
  let answer: (request: Message) => unknown = () => undefined;
  mine.onmessage = (message: Message) => {
    if ('method' in message && 'id' in message) {
      const result = answer(message);
      if (result !== undefined) void mine.send({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
    } else if ('id' in message) replies.get(message.id)?.(message);
  };
  await server.connect(theirs);
  await mine.start();
  let next = 0;
  const request = (method: string, params?: unknown) =>
    new Promise<Message>((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      void mine.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'raw', version: '1.0.0' },
  });
  await mine.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    errors,
    send: (message: unknown) => mine.send(message as JSONRPCMessage),
    answer: (with_: (request: Message) => unknown) => void (answer = with_),
    close: () => mine.close(),
  };
}

/** Resolves once `errors` holds `count` entries (onError is told after the message was read). */
async function reported(errors: unknown[], count: number): Promise<string[]> {
  for (let i = 0; i < 100 && errors.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return errors.map((e) => (e as Error).message);
}

describe('a client the SDK would not be', () => {
  it('protocol errors the SDK answers nobody reach onError', async () => {
    // Regression (hostile review F10): the SDK drops a request its schema refuses (a progress token
    // that is not a string or an integer, params that are not an object) without a response, and a
    // response to no request of its own; none of it reached the server's owner.
    const session = await raw();
    await session.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: {}, _meta: { progressToken: 1.5 } },
    });
    await session.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: [1] });
    await session.send({ jsonrpc: '2.0', id: 99, result: { action: 'accept' } });
    const messages = await reported(session.errors, 3);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/^Unknown message type: .*"progressToken":1\.5/);
    expect(messages[1]).toMatch(/^Unknown message type: .*"params":\[1\]/);
    expect(messages[2]).toMatch(/^Received a response for an unknown message ID: .*"id":99/);
    await session.close();
  });

  it('a tools/call without a string name is InvalidParams, as the SDK checks it', async () => {
    // Regression (hostile review F10): the server's own params schema refused these first, and the
    // SDK answered its ZodError as InternalError (-32603).
    const session = await raw();
    for (const params of [{ name: 5 }, undefined, { arguments: {} }]) {
      const reply = await session.request('tools/call', params);
      expect([reply.error?.code, reply.error?.message]).toEqual([
        ErrorCode.InvalidParams,
        expect.stringMatching(/^MCP error -32602: Invalid tools\/call request: /),
      ]);
    }
    await session.close();
  });
});

const FILE = { name: 'file_note', arguments: { text: 'Q3' } };
const QUESTION = 'File the note "Q3"?';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/**
 * Answers file_note's question cannot be taken as sent, and the reason each is asked again with
 * (a RegExp: the response schema's wording is pinned elsewhere).
 */
const NOT_ANSWERS: [string, unknown, string | RegExp][] = [
  [
    // Regression (hostile review F7): the SDK's parsed copy lost the member, and the answer was taken.
    'content with an own __proto__ member (the response schema is closed)',
    JSON.parse('{"action":"accept","content":{"approve":true,"__proto__":{"title":"x"}}}'),
    /^response: .*__proto__/,
  ],
  [
    // Regression (hostile review F8): a value the SDK's ElicitResultSchema refuses failed the call.
    'content the form cannot hold',
    { action: 'accept', content: { approve: true, title: { n: 1 } } },
    /^response: \/title: /,
  ],
  ['an unknown action', { action: 'weird' }, ANSWER_RULE.action],
  ['no action', { content: { approve: true } }, ANSWER_RULE.action],
  ['content that is not an object', { action: 'accept', content: [true] }, ANSWER_RULE.content],
];

/** The reason an asked-again question gives (askedAgain), or undefined for a question asked plainly. */
function reasonOf(message: string): string | undefined {
  const prefix = askedAgain(QUESTION, '').slice(0, -1);
  return message.startsWith(prefix) && message.endsWith(')') ? message.slice(prefix.length, -1) : undefined;
}

const expectReason = (message: string, reason: string | RegExp) =>
  reason instanceof RegExp ? expect(reasonOf(message)).toMatch(reason) : expect(reasonOf(message)).toBe(reason);

describe('elicitation answers are judged as the client sent them', () => {
  it.each(NOT_ANSWERS)('elicitation flow: %s is asked again with the reason', async (_what, answer, reason) => {
    const session = await raw();
    const asked: string[] = [];
    session.answer((request) => {
      asked.push((request.params as { message: string }).message);
      return asked.length === 1 ? answer : { action: 'decline' };
    });
    const reply = await session.request('tools/call', FILE);
    const declined = { content: [{ type: 'text', text: inputNotGiven('file_note', 'decline') }], isError: true };
    expect([reply.result, asked.length, asked[0]]).toEqual([declined, 2, QUESTION]);
    expectReason(asked[1], reason);
    expect(session.errors).toEqual([]);
    await session.close();
  });

  it.each(NOT_ANSWERS)('2026-07-28 flow: %s is asked again with the reason', async (_what, answer, reason) => {
    const session = await raw();
    const first = (await session.request('tools/call', { ...FILE, _meta: ENVELOPE })).result!;
    const retry = { ...FILE, _meta: ENVELOPE, requestState: first.requestState, inputResponses: { input: answer } };
    const again = (await session.request('tools/call', retry)).result!;
    expect(again.resultType).toBe('input_required');
    expectReason((again.inputRequests as Questions).input.params.message, reason);
    expect(session.errors).toEqual([]);
    await session.close();
  });

  it('2026-07-28 flow: inputResponses or a result that are not objects are asked again with the reason', async () => {
    // (In the elicitation flow the SDK drops a result that is not an object, and tells onError.)
    const session = await raw();
    const first = (await session.request('tools/call', { ...FILE, _meta: ENVELOPE })).result!;
    let requestState = first.requestState;
    for (const [inputResponses, reason] of [
      ['yes', ANSWER_RULE.responses],
      [{ input: 'yes' }, ANSWER_RULE.notObject],
    ] as const) {
      const retry = { ...FILE, _meta: ENVELOPE, requestState, inputResponses };
      const again = (await session.request('tools/call', retry)).result!;
      expectReason((again.inputRequests as Questions).input.params.message, reason);
      requestState = again.requestState;
    }
    await session.close();
  });
});

type Questions = { input: { params: { message: string } } };
