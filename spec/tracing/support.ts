/**
 * The OpenTelemetry SDK as a user runs it, exporting to memory: a BasicTracerProvider with a
 * SimpleSpanProcessor into an InMemorySpanExporter, the AsyncLocalStorage context manager and the
 * W3C Trace Context propagator registered globally (what NodeSDK registers), undone by `stop`.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  readonly tracer: Tracer;
  /** Finished spans named `execute_tool ...`. */
  toolSpans(): ReadableSpan[];
  stop(): Promise<void>;
}

/** Starts the SDK; `global` also registers the provider as the global TracerProvider. */
export function startTelemetry(options: { readonly global?: boolean } = {}): Telemetry {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (options.global === true) trace.setGlobalTracerProvider(provider);
  return {
    exporter,
    provider,
    tracer: provider.getTracer('spec'),
    toolSpans: () => exporter.getFinishedSpans().filter((s) => s.name.startsWith('execute_tool')),
    stop: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
