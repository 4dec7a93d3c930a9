/**
 * OpenTelemetry `execute_tool` spans (lib/tracing/tracing.ts) of the Runtime and of the MCP server,
 * read back from the OpenTelemetry SDK's InMemorySpanExporter: names, GenAI attributes, outcome
 * kinds, errors, opt-in content, parents (active context, a tool's own spans, MCP `_meta`), and the
 * optional peer missing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { createMcpServer } from '../../lib/mcp';
import type { McpServerOptions } from '../../lib/mcp';
import { FuncTool, Registry } from '../../lib/protocol';
import type { Tool } from '../../lib/protocol';
import { Runtime, TRACER_NAME, TracingError } from '../../lib/runtime';
import type { RuntimeConfig } from '../../lib/runtime';
import { OBJECT, call, echo, effects, failing, guarded, newStore, sendEmail } from '../runtime/support';
import { startTelemetry } from './support';
import type { Telemetry } from './support';

const NOW = 1_700_000_000_000;

/** A tool that starts a span of its own while it runs. */
function lookup(): Tool {
  return FuncTool.create(
    { name: 'lookup', description: 'Look a word up', inputSchema: OBJECT(), decode: (v) => v },
    () => {
      trace.getTracer('tool').startSpan('db.query').end();
      return 'found';
    },
  );
}

function registry(): Registry {
  const seen = effects();
  return new Registry(
    echo(),
    failing(),
    sendEmail(seen),
    lookup(),
    guarded(
      FuncTool.create({ name: 'delete_all', inputSchema: OBJECT(), decode: (v) => v }, () => 'x'),
      () => false,
    ),
  );
}

function runtimeOf(telemetry: Telemetry, tracing: RuntimeConfig['tracing'] = { tracer: telemetry.tracer }): Runtime {
  return new Runtime({ registry: registry(), store: newStore(), now: () => NOW, tracing });
}

describe('Runtime tracing', () => {
  let telemetry: Telemetry;
  beforeEach(() => (telemetry = startTelemetry()));
  afterEach(() => telemetry.stop());

  it('a completed call is one INTERNAL span execute_tool <tool> with the GenAI attributes, no content', async () => {
    const runtime = runtimeOf(telemetry);
    const [outcome] = await runtime.runTurn({ threadId: 't1', calls: [call('c1', 'echo', { text: 'hi' })] });
    expect(outcome.kind).toBe('completed');
    const [span] = telemetry.toolSpans();
    expect(span.name).toBe('execute_tool echo');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.conversation.id': 't1',
      'scope_tool.outcome': 'completed',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records the arguments and the result only when asked to', async () => {
    const runtime = runtimeOf(telemetry, { tracer: telemetry.tracer, recordArguments: true, recordResults: true });
    await runtime.runTurn({ threadId: 't1', calls: [call('c1', 'echo', { text: 'hi' })] });
    const [span] = telemetry.toolSpans();
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hi"}');
    expect(span.attributes['gen_ai.tool.call.result']).toBe('hi');
  });

  it('an outcome the model is told as an error sets error.type to its kind and the status ERROR', async () => {
    const runtime = runtimeOf(telemetry, { tracer: telemetry.tracer, recordResults: true });
    await runtime.runTurn({
      threadId: 't1',
      calls: [call('a', 'delete_all'), call('b', 'nope'), call('c', 'fail'), call('d', 'echo', { text: 1 })],
    });
    const byId = new Map(telemetry.toolSpans().map((s) => [s.attributes['gen_ai.tool.call.id'], s]));
    const seen = ['a', 'b', 'c', 'd'].map((id) => [
      byId.get(id)?.attributes['scope_tool.outcome'],
      byId.get(id)?.attributes['error.type'],
      byId.get(id)?.status.code,
      byId.get(id)?.attributes['gen_ai.tool.call.result'],
    ]);
    expect(seen).toEqual([
      ['rejected', 'rejected', SpanStatusCode.ERROR, undefined],
      ['refused', 'refused', SpanStatusCode.ERROR, undefined],
      ['failed', 'failed', SpanStatusCode.ERROR, undefined],
      ['refused', 'refused', SpanStatusCode.ERROR, undefined],
    ]);
  });

  it('a suspension is not an error; its resume is a span of its own, marked resumed', async () => {
    const runtime = runtimeOf(telemetry);
    const [first] = await runtime.runTurn({ threadId: 't1', calls: [call('c1', 'send_email', { to: 'a@b.c' })] });
    expect(first.kind).toBe('suspended');
    const resumed = await runtime.resume({ threadId: 't1', callId: 'c1', answer: '{"ok":true}' });
    expect(resumed.kind).toBe('completed');
    const spans = telemetry.toolSpans();
    expect(spans.map((s) => [s.name, s.attributes['scope_tool.outcome'], s.attributes['scope_tool.resumed']])).toEqual([
      ['execute_tool send_email', 'suspended', undefined],
      ['execute_tool send_email', 'completed', true],
    ]);
    expect(spans[0].status.code).toBe(SpanStatusCode.UNSET);
    expect(spans[0].attributes['gen_ai.tool.description']).toBe('Send an email after approval');
  });

  it('a resume that throws ends its span with error.type the RuntimeError code', async () => {
    const runtime = runtimeOf(telemetry);
    await runtime.runTurn({ threadId: 't1', calls: [call('c1', 'send_email', { to: 'a@b.c' })] });
    await expect(runtime.resume({ threadId: 't1', callId: 'c1', answer: '{"ok":"yes"}' })).rejects.toMatchObject({
      code: 'ERR_INVALID_ANSWER',
    });
    const last = telemetry.toolSpans().at(-1)!;
    expect(last.attributes['error.type']).toBe('ERR_INVALID_ANSWER');
    expect(last.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('is a child of the active span, and the spans a tool starts are its children', async () => {
    const runtime = new Runtime({ registry: registry(), store: newStore(), now: () => NOW, tracing: true });
    trace.setGlobalTracerProvider(telemetry.provider);
    const agent = telemetry.tracer.startSpan('invoke_agent');
    await context.with(trace.setSpan(context.active(), agent), () =>
      runtime.runTurn({ threadId: 't1', calls: [call('c1', 'lookup')] }),
    );
    agent.end();
    const [tool] = telemetry.toolSpans();
    const query = telemetry.exporter.getFinishedSpans().find((s) => s.name === 'db.query')!;
    expect(tool.instrumentationScope.name).toBe(TRACER_NAME);
    expect(tool.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(agent.spanContext().traceId);
    expect(query.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  });

  it('without a tracing option no span is started', async () => {
    trace.setGlobalTracerProvider(telemetry.provider);
    const runtime = new Runtime({ registry: registry(), store: newStore(), now: () => NOW });
    await runtime.runTurn({ threadId: 't1', calls: [call('c1', 'echo', { text: 'hi' })] });
    expect(telemetry.toolSpans()).toEqual([]);
  });

  it('a tracing option of the wrong shape is ERR_INVALID_TRACING', () => {
    for (const tracing of ['yes', { tracer: {} }, { recordResults: 'on' }, []] as unknown[]) {
      const make = () => new Runtime({ registry: registry(), store: newStore(), tracing } as RuntimeConfig);
      expect(make).toThrow(TracingError);
      expect(make).toThrow(expect.objectContaining({ code: 'ERR_INVALID_TRACING' }));
    }
  });
});

describe('MCP server tracing', () => {
  let telemetry: Telemetry;
  beforeEach(() => (telemetry = startTelemetry()));
  afterEach(() => telemetry.stop());

  async function connect(options: McpServerOptions): Promise<Client> {
    const server = createMcpServer(registry(), options);
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  it('a tools/call is a child of the traceparent its _meta carries', async () => {
    const client = await connect({ tracing: { tracer: telemetry.tracer, recordArguments: true } });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parentId = 'b7ad6b7169203331';
    await client.callTool({
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    await client.close();
    const [span] = telemetry.toolSpans();
    expect(span.name).toBe('execute_tool echo');
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.arguments': '{"text":"hi"}',
      'mcp.method.name': 'tools/call',
      'scope_tool.outcome': 'completed',
    });
    expect(span.attributes['jsonrpc.request.id']).toBe(span.attributes['gen_ai.tool.call.id']);
  });

  it('records the arguments text the call admits, none that misstates them; deep arguments are traced', async () => {
    // Regression (hostile review): the span's arguments were JSON.stringify of the transport's
    // object, computed with recordArguments off too: arguments nested 6,000 deep made the request
    // fail with RangeError, and {"a": Infinity} was recorded as {"a":null}.
    const client = await connect({ tracing: { tracer: telemetry.tracer, recordArguments: true } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 6000; i++) deep = { d: deep };
    const results = [
      await client.callTool({ name: 'echo', arguments: deep }),
      await client.callTool({ name: 'echo', arguments: { a: Infinity } }),
    ];
    await client.close();
    // Both are tool results the model is told (echo's schema, then the number's range), not request errors.
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    const recorded = telemetry.toolSpans().map((s) => s.attributes['gen_ai.tool.call.arguments']);
    expect(recorded).toHaveLength(2);
    expect(String(recorded[0]).startsWith('{"d":{"d":')).toBe(true);
    expect(recorded[1]).toBeUndefined();
  });

  it('without traceparent the span is a root; a refused call and an unknown tool are errors', async () => {
    const client = await connect({ tracing: { tracer: telemetry.tracer } });
    await client.callTool({ name: 'delete_all', arguments: {} });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow();
    await client.close();
    const spans = telemetry.toolSpans();
    expect(spans.map((s) => [s.name, s.attributes['error.type'], s.parentSpanContext])).toEqual([
      ['execute_tool delete_all', 'rejected', undefined],
      ['execute_tool nope', '-32602', undefined],
    ]);
  });
});

describe('@opentelemetry/api is an optional peer', () => {
  afterEach(() => jest.resetModules());

  /** lib/ loaded afresh where requiring `@opentelemetry/api` fails as a missing package does. */
  function withoutApi() {
    let loaded!: {
      runtime: typeof import('../../lib/runtime');
      mcp: typeof import('../../lib/mcp');
      registry: () => Registry;
    };
    jest.isolateModules(() => {
      jest.doMock('@opentelemetry/api', () => {
        throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
      });
      const protocol = require('../../lib/protocol') as typeof import('../../lib/protocol');
      const tool = protocol.FuncTool.create({ name: 'echo', inputSchema: OBJECT(), decode: (v) => v }, () => 'hi');
      loaded = {
        runtime: require('../../lib/runtime'),
        mcp: require('../../lib/mcp'),
        registry: () => new protocol.Registry(tool),
      };
    });
    return loaded;
  }

  it('the runtime and the MCP server load and run without it while tracing is off', async () => {
    const { runtime, mcp, registry } = withoutApi();
    const rt = new runtime.Runtime({ registry: registry(), store: new runtime.MemoryStore(), now: () => NOW });
    const [outcome] = await rt.runTurn({ threadId: 't1', calls: [call('c1', 'echo')] });
    expect(outcome.kind).toBe('completed');
    expect(() => mcp.createMcpServer(registry())).not.toThrow();
  });

  it('asking for tracing without it is ERR_TRACING_UNAVAILABLE', () => {
    const { runtime, mcp, registry } = withoutApi();
    const make = [
      () => new runtime.Runtime({ registry: registry(), store: new runtime.MemoryStore(), tracing: true }),
      () => mcp.createMcpServer(registry(), { tracing: { recordResults: true } }),
    ];
    for (const m of make) expect(m).toThrow(expect.objectContaining({ code: 'ERR_TRACING_UNAVAILABLE' }));
  });
});
