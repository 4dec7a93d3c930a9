/**
 * OpenTelemetry spans for tool calls, after the GenAI semantic conventions' `execute_tool` span
 * (docs/tracing.md lists the attributes and the conventions' version). `@opentelemetry/api` is an
 * optional peer dependency: it is loaded with `require()` only when a Runtime or an MCP server is
 * built with a `tracing` option, never when this module is imported.
 */
import type { Attributes, Context, Span, TextMapGetter, Tracer } from '@opentelemetry/api';
import type { Output } from '../protocol';
import { invalidTracing, tracingUnavailable } from './messages';

type OtelApi = typeof import('@opentelemetry/api');

/**
 * What `tracing: { ... }` of a Runtime or an MCP server takes; `tracing: true` is `{}`.
 * - `tracer`: the Tracer spans are started with (default: `trace.getTracer('scope-tool')` of the
 *   global TracerProvider, which an OpenTelemetry SDK registers);
 * - `recordArguments`: also record the arguments JSON text the model proposed as
 *   `gen_ai.tool.call.arguments` (opt-in in the conventions: it may hold personal data; default false);
 * - `recordResults`: also record what a completed call returned, as the model sees it, as
 *   `gen_ai.tool.call.result` (opt-in likewise; default false).
 */
export interface ToolTracingOptions {
  readonly tracer?: Tracer;
  readonly recordArguments?: boolean;
  readonly recordResults?: boolean;
}

/** The `tracing` option: `true` (default options), an options object, or `false` / undefined (off). */
export type ToolTracingOption = boolean | ToolTracingOptions;

/** The instrumentation scope name of the default tracer. */
export const TRACER_NAME = 'scope-tool';

/** The attribute names a span carries (docs/tracing.md). @internal */
export const ATTRIBUTES = {
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  callId: 'gen_ai.tool.call.id',
  arguments: 'gen_ai.tool.call.arguments',
  result: 'gen_ai.tool.call.result',
  conversation: 'gen_ai.conversation.id',
  errorType: 'error.type',
  outcome: 'scope_tool.outcome',
} as const;

/** One call as a span describes it. @internal */
export interface TracedCall {
  /** The tool name the model called (span name `execute_tool <name>`). */
  readonly toolName: string;
  /** The provider's call id; `''` or undefined leaves `gen_ai.tool.call.id` out. */
  readonly callId?: string;
  /** The tool's description, when the tool is registered. */
  readonly description?: string;
  /** The arguments JSON text (recorded only with `recordArguments`). */
  readonly arguments?: string;
  /** The conversation (the runtime's thread id). */
  readonly conversationId?: string;
  /** Further attributes (MCP: `mcp.method.name`, `jsonrpc.request.id`, ...). */
  readonly attributes?: Attributes;
  /** The parent context (default: the active context). */
  readonly parent?: Context;
}

/** How a traced call ended. @internal */
export interface TracedEnd {
  /** The outcome kind (`completed`, `rejected`, `suspended`, ...): `scope_tool.outcome`. */
  readonly kind: string;
  /** Whether it is an error: then `error.type` is `kind` and the span's status is ERROR. */
  readonly isError: boolean;
  /** The Output of a `completed` call (recorded only with `recordResults`; see resultText). */
  readonly result?: Output;
}

/** A Tracer, read loosely: an object with a `startSpan` function. */
function isTracer(value: unknown): value is Tracer {
  return typeof (value as { startSpan?: unknown } | null)?.startSpan === 'function';
}

const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  get: (carrier, key) => (typeof carrier[key] === 'string' ? carrier[key] : undefined),
  keys: (carrier) => Object.keys(carrier),
};

/**
 * Spans for the calls of one Runtime or MCP server. Tracing never changes a call's outcome: a
 * Tracer or span that throws is ignored and the call runs untraced. @internal
 */
export class ToolTracing {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #recordArguments: boolean;
  readonly #recordResults: boolean;

  private constructor(api: OtelApi, tracer: Tracer, recordArguments: boolean, recordResults: boolean) {
    this.#api = api;
    this.#tracer = tracer;
    this.#recordArguments = recordArguments;
    this.#recordResults = recordResults;
  }

  /**
   * Reads a `tracing` option; `where` names its owner in errors (`new Runtime(config)`).
   * @returns undefined when tracing is off (`false` or undefined): `@opentelemetry/api` is not loaded
   * @throws TracingError ERR_INVALID_TRACING for an option of the wrong shape;
   *   ERR_TRACING_UNAVAILABLE when tracing is on and `@opentelemetry/api` is missing or fails to load
   */
  static of(option: unknown, where: string): ToolTracing | undefined {
    if (option === undefined || option === false) return undefined;
    if (option !== true && (typeof option !== 'object' || option === null || Array.isArray(option))) {
      throw invalidTracing(where, 'tracing', 'must be true, false or { tracer?, recordArguments?, recordResults? }');
    }
    const options: ToolTracingOptions = option === true ? {} : (option as ToolTracingOptions);
    const { tracer, recordArguments, recordResults } = options;
    if (tracer !== undefined && !isTracer(tracer)) {
      throw invalidTracing(where, 'tracing.tracer', 'must be an OpenTelemetry Tracer (trace.getTracer(name))');
    }
    for (const [field, value] of [
      ['recordArguments', recordArguments],
      ['recordResults', recordResults],
    ] as const) {
      if (value !== undefined && typeof value !== 'boolean') {
        throw invalidTracing(where, `tracing.${field}`, 'must be a boolean (default false)');
      }
    }
    const api = loadApi(where);
    return new ToolTracing(api, tracer ?? api.trace.getTracer(TRACER_NAME), !!recordArguments, !!recordResults);
  }

  /**
   * The context a request's MCP `_meta` carries (W3C Trace Context `traceparent` / `tracestate`,
   * read by the global propagator), over the active context; the active context when `_meta`
   * is not an object.
   */
  contextOfMeta(meta: unknown): Context {
    const active = this.#api.context.active();
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return active;
    try {
      return this.#api.propagation.extract(active, meta as Record<string, unknown>, META_GETTER);
    } catch {
      return active;
    }
  }

  /**
   * Runs `run` inside an `execute_tool <tool>` span (kind INTERNAL), active while it runs, so spans
   * the tool starts are its children. `end` reads how the call ended from its value; a rejection
   * sets `error.type` to the error's `code` (or its name) and is passed on as it is.
   */
  async trace<T>(call: TracedCall, run: () => Promise<T>, end: (value: T) => TracedEnd): Promise<T> {
    const api = this.#api;
    const parent = call.parent ?? api.context.active();
    let span: Span;
    try {
      span = this.#tracer.startSpan(
        `execute_tool ${call.toolName}`,
        { kind: api.SpanKind.INTERNAL, attributes: this.#startAttributes(call) },
        parent,
      );
    } catch {
      return run();
    }
    let value: T;
    try {
      value = await api.context.with(api.trace.setSpan(parent, span), run);
    } catch (error) {
      this.#finish(span, { [ATTRIBUTES.errorType]: errorTypeOf(error) }, true);
      throw error;
    }
    let ended: TracedEnd | undefined;
    try {
      ended = end(value);
    } catch {
      // A defect reading the outcome: the span ends without one; the call's value stands.
    }
    const attributes: Attributes = {};
    if (ended !== undefined) {
      attributes[ATTRIBUTES.outcome] = ended.kind;
      if (ended.isError) attributes[ATTRIBUTES.errorType] = ended.kind;
      if (this.#recordResults && ended.kind === 'completed' && ended.result !== undefined) {
        attributes[ATTRIBUTES.result] = resultText(ended.result);
      }
    }
    this.#finish(span, attributes, ended?.isError === true);
    return value;
  }

  #startAttributes(call: TracedCall): Attributes {
    const attributes: Attributes = {
      [ATTRIBUTES.operation]: 'execute_tool',
      [ATTRIBUTES.toolName]: call.toolName,
      [ATTRIBUTES.toolType]: 'function',
    };
    if (call.callId !== undefined && call.callId !== '') attributes[ATTRIBUTES.callId] = call.callId;
    if (call.description !== undefined && call.description !== '') {
      attributes[ATTRIBUTES.toolDescription] = call.description;
    }
    if (call.conversationId !== undefined) attributes[ATTRIBUTES.conversation] = call.conversationId;
    if (this.#recordArguments && call.arguments !== undefined) attributes[ATTRIBUTES.arguments] = call.arguments;
    // Not `{ ...attributes, ...call.attributes }`: members added after a spread take a slow path in
    // V8 11.3 (Node 20, about a microsecond per traced call). Both records are built by this library.
    return call.attributes === undefined ? attributes : Object.assign(attributes, call.attributes);
  }

  #finish(span: Span, attributes: Attributes, isError: boolean): void {
    try {
      span.setAttributes(attributes);
      if (isError) span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
      span.end();
    } catch {
      // A span that throws is the exporter's problem, never the call's.
    }
  }
}

/**
 * `gen_ai.tool.call.result` of an Output: its JSON details text when it has details, else its text
 * when it is one text block, else its wire JSON (`{"content":[...]}`).
 */
export function resultText(output: Output): string {
  return output.details ?? output.asText() ?? JSON.stringify(output.toJSON());
}

/**
 * `error.type` of a thrown value: its `code` (`ERR_...`, or a JSON-RPC error code such as `-32602`),
 * else its name.
 */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  if (typeof code === 'number' && Number.isInteger(code)) return String(code);
  if (error instanceof Error) return error.name || 'Error';
  return '_OTHER';
}

function isMissing(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && message.includes('@opentelemetry/api');
}

function loadApi(where: string): OtelApi {
  try {
    return require('@opentelemetry/api') as OtelApi;
  } catch (err) {
    throw tracingUnavailable(where, isMissing(err), err);
  }
}
