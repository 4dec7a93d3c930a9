import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { FuncTool, Registry } from 'scope-tool';
import { MemoryStore, Runtime } from 'scope-tool/runtime';

export async function tracedTurn() {
  // The SDK set-up NodeSDK does for you; an OTLP exporter in production.
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator()); // MCP reads traceparent from _meta with it

  const echo = FuncTool.create(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      decode: (value) => value as { text: string },
    },
    (input) => input.text,
  );
  const runtime = new Runtime({
    registry: new Registry(echo),
    store: new MemoryStore(),
    tracing: { recordArguments: true, recordResults: true }, // or `true`: no arguments, no results
  });
  await runtime.runTurn({
    threadId: 't1',
    calls: [{ id: 'call_1', request: { name: 'echo', arguments: '{"text":"hi"}' } }],
  });

  const spans = exporter.getFinishedSpans(); // [execute_tool echo] with the gen_ai.* attributes
  await provider.shutdown();
  return spans;
}
