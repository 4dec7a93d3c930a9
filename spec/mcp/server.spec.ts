/**
 * createMcpServer driven by the SDK's real Client over InMemoryTransport: list, call, invalid
 * arguments, refused call, failures without diagnostics, unknown tool, elicitation (resumed,
 * declined, dismissed, refused answer asked again, unmappable schema, no capability),
 * cancellation and progress.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ElicitRequest, ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { createMcpServer, serveStdio, serveStreamableHttp } from '../../lib/mcp';
import type { McpCallInfo, McpServerOptions } from '../../lib/mcp';
import {
  askedAgain,
  cannotElicit,
  formCannotShow,
  inputNotGiven,
  limitNotPositive,
  limitTooLong,
  PROGRESS,
  runtimeReferenceOmitted,
} from '../../lib/mcp/messages';
import { FuncTool, Output, Registry, ToolError } from '../../lib/protocol';
import type { ContentBlock, JsonValue } from '../../lib/protocol';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { describeInvalidArguments } from '../../lib/providers';
import { describeUnknownTool } from '../../lib/providers/prepare';
import { PAST_DATE, SECRET, filed, testRegistry } from './support/registry';
import type { Observed } from './support/registry';

type Answer = (request: ElicitRequest['params'], signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

interface Connected {
  client: Client;
  observed: Observed;
  errors: unknown[];
  asked: ElicitRequest['params'][];
  close(): Promise<void>;
}

async function connect(answer?: Answer, options: McpServerOptions = {}): Promise<Connected> {
  const observed: Observed = { aborted: [], contexts: [], started: () => undefined };
  const errors: unknown[] = [];
  const asked: ElicitRequest['params'][] = [];
  const server = createMcpServer(testRegistry(observed), { onError: (e) => errors.push(e), ...options });
  const client = new Client(
    { name: 'spec', version: '1.0.0' },
    { capabilities: answer === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      asked.push(request.params);
      return answer(request.params, extra.signal);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, observed, errors, asked, close: async () => void (await client.close()) };
}

/** What describeInvalidArguments says of the refusal Contract.prepare gives these arguments. */
function refusalText(name: string, args: Record<string, unknown>): string {
  const contract = testRegistry().resolve(name)!.contract;
  try {
    contract.prepare({ name, arguments: JSON.stringify(args) });
  } catch (error) {
    return describeInvalidArguments(name, error as ToolError);
  }
  throw new Error(`${name} admitted ${JSON.stringify(args)}`);
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join('|');

describe('createMcpServer with the SDK Client (in memory)', () => {
  let session: Connected;
  afterEach(async () => session?.close());

  it('lists every registered definition as an MCP tool with its input schema as authored', async () => {
    session = await connect();
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      testRegistry()
        .definitions()
        .map((d) => d.name),
    );
    const weather = tools.find((t) => t.name === 'get_weather');
    expect(weather).toEqual({
      name: 'get_weather',
      description: 'The get_weather tool.',
      inputSchema: testRegistry().resolve('get_weather')?.contract.definition().inputSchema,
    });
    expect(Object.keys(weather?.inputSchema ?? {})).toEqual(['type', 'properties', 'required', 'additionalProperties']);
  });

  it('runs an admitted call and returns its text output', async () => {
    session = await connect();
    const result = await session.client.callTool({ name: 'get_weather', arguments: { location: 'Paris' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Weather in Paris: 18 degrees, cloudy' }],
      isError: false,
    });
  });

  it('returns JSON details as structuredContent and as the serialized text block', async () => {
    session = await connect();
    const result = await session.client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ city: 'Oslo', days: [18, 19, 21] });
    expect(result.content).toEqual([{ type: 'text', text: '{"city":"Oslo","days":[18,19,21]}' }]);
  });

  it('sends details with an own __proto__ member as text only, since structuredContent would lose it', async () => {
    // Regression (hostile review F9): the SDK's result check copies structuredContent without an own
    // __proto__ member, so the client got {"a":1} there and the whole details in the text block.
    const details = '{"__proto__":{"admin":true},"a":1}';
    const tool = (name: string, content: ContentBlock[], json: string) =>
      FuncTool.create({ name, inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () =>
        Output.create({ content, details: json }),
      );
    const server = createMcpServer(
      new Registry(
        tool('bare', [], details),
        tool('told', [{ kind: 'text', text: 'Done.' }], details),
        tool('nested', [], '{"a":{"__proto__":{"admin":true}}}'),
      ),
    );
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const bare = await client.callTool({ name: 'bare', arguments: {} });
      expect(bare).toEqual({ content: [{ type: 'text', text: details }], isError: false });
      expect('structuredContent' in bare).toBe(false);
      const told = await client.callTool({ name: 'told', arguments: {} });
      expect(told.content).toEqual([
        { type: 'text', text: 'Done.' },
        { type: 'text', text: details },
      ]);
      expect('structuredContent' in told).toBe(false);
      // Deeper down the SDK keeps the member (its check reads structuredContent's values as unknown).
      const nested = await client.callTool({ name: 'nested', arguments: {} });
      expect(JSON.stringify(nested.structuredContent)).toBe('{"a":{"__proto__":{"admin":true}}}');
    } finally {
      await client.close();
    }
  });

  it('maps media blocks to image, audio, resource link and embedded resource content', async () => {
    session = await connect();
    const result = await session.client.callTool({ name: 'media', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'Here you go:' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      {
        type: 'resource_link',
        uri: 'https://example.com/docs/report.pdf',
        name: 'report.pdf',
        mimeType: 'application/pdf',
      },
      { type: 'resource', resource: { uri: 'scope-tool:content/4', mimeType: 'application/zip', blob: 'UEsDBA==' } },
      { type: 'text', text: runtimeReferenceOmitted('image/jpeg') },
    ]);
    expect(result.structuredContent).toEqual({ pages: 3 });
  });

  it('answers invalid arguments with an isError result naming the member and the fix; the tool does not run', async () => {
    session = await connect();
    const started: string[] = [];
    session.observed.started = (name) => started.push(name);
    const result = await session.client.callTool({
      name: 'get_weather',
      arguments: { location: 'Paris', unit: 'kelvin' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(refusalText('get_weather', { location: 'Paris', unit: 'kelvin' }));
    expect(textOf(result)).toContain('/unit: ');
    expect(started).toEqual([]);
  });

  it('refuses a member named __proto__ that the transport kept, instead of dropping it', async () => {
    session = await connect();
    const args = JSON.parse('{"location":"Paris","__proto__":{"admin":true}}') as Record<string, unknown>;
    const result = await session.client.callTool({ name: 'get_weather', arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('__proto__');
  });

  it('answers an unknown tool with the protocol error InvalidParams listing the tools, nearest first', async () => {
    session = await connect();
    const error = await session.client.callTool({ name: 'get_wether', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    const nearestFirst = ['get_weather', 'ask_yes_no', 'delete_all', 'file_note', 'ask_address', 'charge_card'];
    nearestFirst.push('forecast', 'media', 'slow', 'book_flight', 'boom');
    const unknown = describeUnknownTool({ tool: 'get_wether', availableTools: nearestFirst, omittedTools: 0 });
    expect((error as McpError).message).toBe(`MCP error -32602: ${unknown}`);
  });

  it('answers a call the Guard refuses with an isError result', async () => {
    session = await connect();
    const result = await session.client.callTool({ name: 'delete_all', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: notAuthorizedText('delete_all') }], isError: true });
  });

  it('sends a Failure output as an isError result without its diagnostic cause', async () => {
    session = await connect();
    const result = await session.client.callTool({ name: 'book_flight', arguments: { date: '2020-01-01' } });
    expect(result).toEqual({ content: [{ type: 'text', text: PAST_DATE }], isError: true });
  });

  it('never sends CallError evidence, causes or plain error messages; they go to onError', async () => {
    session = await connect();
    const charged = await session.client.callTool({ name: 'charge_card', arguments: { amount: 5 } });
    const boom = await session.client.callTool({ name: 'boom', arguments: {} });
    expect(charged).toEqual({ content: [{ type: 'text', text: 'error: tool "charge_card" failed' }], isError: true });
    expect(boom).toEqual({ content: [{ type: 'text', text: 'error: tool "boom" failed' }], isError: true });
    expect(JSON.stringify([charged, boom])).not.toContain(SECRET);
    expect(session.errors.map((e) => String((e as Error).message))).toEqual([
      expect.stringContaining(SECRET),
      expect.stringContaining(SECRET),
    ]);
  });

  it('passes the context built per call to authorizers and tools', async () => {
    const infos: McpCallInfo[] = [];
    session = await connect(undefined, { context: (info) => (infos.push(info), { user: 'alice' }) });
    await session.client.callTool({ name: 'get_weather', arguments: { location: 'Rome' } });
    expect(session.observed.contexts).toEqual([{ user: 'alice' }]);
    expect(infos[0]).toMatchObject({ toolName: 'get_weather', sessionId: undefined });
  });

  it('asks for input by elicitation and resumes the call with the validated answer', async () => {
    session = await connect(() => ({ action: 'accept', content: { approve: true, title: 'Groceries' } }));
    const result = await session.client.callTool({ name: 'file_note', arguments: { text: 'milk' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: filed('Groceries', '{"step":"confirm"}') }],
      isError: false,
    });
    expect(session.asked).toEqual([
      {
        message: 'File the note "milk"?',
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean' }, title: { type: 'string', minLength: 1, maxLength: 20 } },
          required: ['approve'],
        },
      },
    ]);
  });

  it('asks again, with the reason, when the answer breaks the response schema', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { approve: true, title: 'a title much longer than twenty characters' } },
      { action: 'accept', content: { approve: false } },
    ];
    session = await connect(() => answers.shift() as ElicitResult);
    const result = await session.client.callTool({ name: 'file_note', arguments: { text: 'milk' } });
    expect(textOf(result)).toBe('Not filed.');
    expect(session.asked).toHaveLength(2);
    const [first, again] = session.asked.map((asked) => asked.message);
    expect(first).toBe('File the note "milk"?');
    // The same question, then the reason the schema gave (the format is pinned in messages.spec).
    const reason = again.slice(askedAgain(first, '').length - 1, -1);
    expect(again).toBe(askedAgain(first, reason));
    expect(reason).toMatch(/^response: \/title: .*20/);
  });

  it('asks for a non-object answer as the one field "value"', async () => {
    session = await connect(() => ({ action: 'accept', content: { value: true } }));
    const result = await session.client.callTool({ name: 'ask_yes_no', arguments: {} });
    expect(textOf(result)).toBe('answered true');
    expect((session.asked[0] as { requestedSchema?: unknown }).requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'boolean' } },
      required: ['value'],
    });
  });

  it.each(['decline', 'cancel'] as const)('turns a %s elicitation into a Failure the model sees', async (action) => {
    session = await connect(() => ({ action }));
    const result = await session.client.callTool({ name: 'file_note', arguments: { text: 'milk' } });
    expect(result).toEqual({ content: [{ type: 'text', text: inputNotGiven('file_note', action) }], isError: true });
  });

  it('fails clearly when the client cannot elicit, or the response schema cannot be a form', async () => {
    session = await connect();
    const noCapability = await session.client.callTool({ name: 'file_note', arguments: { text: 'x' } });
    expect(noCapability.isError).toBe(true);
    expect(textOf(noCapability)).toBe(cannotElicit('file_note'));
    await session.close();
    session = await connect(() => ({ action: 'accept', content: {} }));
    const nested = await session.client.callTool({ name: 'ask_address', arguments: {} });
    expect(nested.isError).toBe(true);
    expect(textOf(nested)).toBe(formCannotShow('ask_address'));
    expect(session.asked).toEqual([]);
    expect(String((session.errors[0] as Error).message)).toContain('/properties/address');
  });

  it('aborts the call signal when the client cancels (notifications/cancelled)', async () => {
    session = await connect();
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => (session.observed.started = (name) => name === 'slow' && resolve()));
    const call = session.client.callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, {
      signal: controller.signal,
    });
    await started;
    controller.abort('the user pressed stop');
    await expect(call).rejects.toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(session.observed.aborted).toEqual(['slow']);
  });

  it('cancels a pending elicitation when the client cancels the call', async () => {
    let elicited!: (signal: AbortSignal) => void;
    const asked = new Promise<AbortSignal>((resolve) => (elicited = resolve));
    let first = true;
    session = await connect((_params, signal) => {
      if (first) return ((first = false), { action: 'decline' });
      elicited(signal);
      return new Promise<ElicitResult>(() => undefined);
    });
    // The server's first request has JSON-RPC id 0, and SDK 1.32.2 ignores notifications/cancelled
    // for id 0 (`if (!requestId) return` in Protocol._oncancel): one elicitation first, so the
    // cancelled one has id 1.
    await session.client.callTool({ name: 'file_note', arguments: { text: 'first' } });
    const controller = new AbortController();
    const call = session.client.callTool({ name: 'file_note', arguments: { text: 'x' } }, CallToolResultSchema, {
      signal: controller.signal,
    });
    const elicitationSignal = await asked;
    const elicitationCancelled = new Promise<void>((resolve) =>
      elicitationSignal.addEventListener('abort', () => resolve()),
    );
    controller.abort();
    await expect(call).rejects.toBeDefined();
    await elicitationCancelled;
    expect(elicitationSignal.aborted).toBe(true);
  });

  it('reports progress when the client sent a progress token', async () => {
    const progress: Progress[] = [];
    let atElicitation: unknown[] = [];
    session = await connect(
      () => (
        (atElicitation = progress.map((p) => [p.progress, p.message])),
        { action: 'accept', content: { approve: true } }
      ),
    );
    await session.client.callTool({ name: 'file_note', arguments: { text: 'x' } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p),
    });
    expect(atElicitation).toEqual([
      [1, PROGRESS.admitted],
      [2, PROGRESS.waiting],
    ]);
    expect(progress.map((p) => [p.progress, p.message])).toEqual([
      ...atElicitation,
      [3, "resumed with the user's answer"],
    ]);
  });

  it('sends no progress when the client sent no token', async () => {
    session = await connect();
    const notifications: string[] = [];
    session.client.fallbackNotificationHandler = async (n) => void notifications.push(n.method);
    await session.client.callTool({ name: 'get_weather', arguments: { location: 'Oslo' } });
    expect(notifications).toEqual([]);
  });

  it('gives the context factory a progress function that works on its own (sent with a token, nothing without)', async () => {
    session = await connect(undefined, { context: (info) => void info.progress('context built') });
    const progress: Progress[] = [];
    await session.client.callTool({ name: 'get_weather', arguments: { location: 'Oslo' } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p),
    });
    expect(progress.map((p) => [p.progress, p.message])).toEqual([
      [1, 'context built'],
      [2, PROGRESS.admitted],
    ]);
    const notifications: string[] = [];
    session.client.fallbackNotificationHandler = async (n) => void notifications.push(n.method);
    const result = await session.client.callTool({ name: 'get_weather', arguments: { location: 'Oslo' } });
    expect({ isError: result.isError, notifications }).toEqual({ isError: false, notifications: [] });
  });

  it('refuses something that is not a Registry', () => {
    expect(() => createMcpServer({} as Registry)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_REGISTRY' }));
  });

  it('refuses limits that are not positive integers, or timers longer than a Node timer, naming the entry point', async () => {
    // Regression (hostile review F11): elicitationTimeoutMs Infinity timed every elicitation out at
    // once (setTimeout runs a longer delay after 1 ms), and maxElicitations NaN asked without end.
    const registry = testRegistry();
    for (const [name, value] of [
      ['elicitationTimeoutMs', Infinity],
      ['elicitationTimeoutMs', 0],
      ['elicitationTimeoutMs', 1.5],
      ['maxElicitations', NaN],
      ['maxElicitations', -1],
      ['maxElicitations', '5'],
    ] as const) {
      expect(() => createMcpServer(registry, { [name]: value })).toThrow(
        limitNotPositive('createMcpServer', name, value),
      );
    }
    expect(() => createMcpServer(registry, { elicitationTimeoutMs: 2 ** 31 })).toThrow(
      limitTooLong('createMcpServer', 'elicitationTimeoutMs', 2 ** 31 - 1, 2 ** 31),
    );
    const streams = { stdin: new PassThrough(), stdout: new PassThrough() };
    await expect(serveStdio(registry, { ...streams, maxElicitations: 0 })).rejects.toThrow(
      limitNotPositive('serveStdio', 'maxElicitations', 0),
    );
    await expect(serveStreamableHttp(registry, { elicitationTimeoutMs: -5 })).rejects.toThrow(
      limitNotPositive('serveStreamableHttp', 'elicitationTimeoutMs', -5),
    );
  });

  it('adds no abort listener per elicitation round that outlives the round', async () => {
    // Regression (hostile review F11): the SDK adds a listener to the signal of each request it sends
    // and never removes it; every round was sent with the call's signal, so 11 refused answers in one
    // call put 11 listeners on it (MaxListenersExceededWarning).
    const server = createMcpServer(testRegistry(), { maxElicitations: 20 });
    const client = new Client({ name: 'spec', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    // The signal the SDK gives the tools/call handler (SDK 1.32.2 keeps its controller in this map).
    const controllers = (server as unknown as { _requestHandlerAbortControllers: Map<unknown, AbortController> })
      ._requestHandlerAbortControllers;
    let signal: AbortSignal | undefined;
    let round = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      signal ??= [...controllers.values()][0].signal;
      return ++round < 15 ? { action: 'accept', content: { approve: 'no' } } : { action: 'decline' };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const result = await client.callTool({ name: 'file_note', arguments: { text: 'milk' } });
    expect([round, textOf(result)]).toEqual([15, inputNotGiven('file_note', 'decline')]);
    expect(getEventListeners(signal!, 'abort')).toHaveLength(0);
    await client.close();
  });
});
