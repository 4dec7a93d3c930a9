/**
 * A Registry as an MCP server (`@modelcontextprotocol/sdk` low-level `Server`): `tools/list` from
 * the registry's definitions, `tools/call` through prepare → Guard → call, with elicitation,
 * cancellation and progress. Transport-free: connect it to stdio (`serveStdio`), Streamable HTTP
 * (`serveStreamableHttp`) or any SDK transport (`InMemoryTransport` in tests).
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ElicitRequest, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import * as z from 'zod/v4';
import { Registry } from '../protocol';
import { mcpRequest } from './arguments';
import { callTool } from './call';
import type { McpToolResult } from './content';
import { META_KEYS, STATELESS_PROTOCOL_VERSION, callToolStateless } from './input-required';
import type { McpInputRequiredResult, StatelessCallEnvironment } from './input-required';
import { ContinuationSealer } from './sealed-state';
import { limitNotPositive, limitTooLong, registryRequired } from './messages';
import { progressReporter } from './progress';
import { mcpTools } from './tools';
import { ToolTracing } from '../tracing';
import type { ToolTracingOption, TracedEnd } from '../tracing';
import type { CallEnd, McpCallEnvironment } from './call';

/** What the `context` option of a server receives for each call. */
export interface McpCallInfo {
  /** The tool name the client called. */
  readonly toolName: string;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: string | number;
  /** The transport session (Streamable HTTP), undefined over stdio. */
  readonly sessionId: string | undefined;
  /**
   * The verified bearer token of the request (`serveStreamableHttp` with `auth`: token, clientId,
   * scopes, expiresAt in seconds since the epoch), undefined without authentication and over stdio.
   */
  readonly authInfo: AuthInfo | undefined;
  /**
   * The HTTP headers of the request that carried this `tools/call` (lower-case names, as Node
   * reads them); empty over stdio and in-memory transports.
   */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Sends a progress step to the client when it asked for progress (a no-op otherwise); never rejects. */
  readonly progress: (message: string) => Promise<void>;
}

/** Options of createMcpServer (and of serveStdio, serveStreamableHttp). */
export interface McpServerOptions {
  /** `serverInfo.name` (default `scope-tool`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** `instructions` sent to the client on initialize. */
  readonly instructions?: string;
  /**
   * Builds the caller-owned `CallOptions.context` of each call (identity, tenancy, scopes, for
   * example from `authInfo.scopes`), passed unchanged to authorizers and tools. It runs after the
   * arguments are admitted, and may return a Promise (awaited). When some tool has a listing check
   * (Authorizer.canList), it runs before admission and also for `tools/list` (`toolName` empty),
   * and each request is served as `registry.visibleTo({ context, signal })`; then a throw or a
   * rejection goes to `onError`, `tools/list` lists nothing and a call is refused as an unknown
   * tool. Without listing checks, a throw or a rejection fails that call with
   * `error: tool "x" failed` (nothing of the error reaches the client) and goes to `onError`;
   * the tool does not run. Default: undefined.
   */
  readonly context?: (call: McpCallInfo) => unknown;
  /**
   * At most this many elicitations per call, refused answers included (default 5): a positive
   * integer, else a RangeError when the server is made.
   */
  readonly maxElicitations?: number;
  /**
   * How long to wait for the user's answer to one elicitation, in ms (default 600,000): a positive
   * integer up to 2,147,483,647 (the longest Node timer), else a RangeError when the server is made.
   */
  readonly elicitationTimeoutMs?: number;
  /**
   * Receives diagnostics the client never sees: errors of tools and authorizers (classified as
   * `error: tool "x" failed` for the client), response schemas elicitation cannot show, failures
   * to send progress, errors of the `context` factory, protocol errors the SDK handles without
   * telling the client (`Server.onerror`: a message its schemas refuse, which gets no response; a
   * response to no request of this server's), and (serveStreamableHttp) warnings named
   * `McpHttpWarning`. An error `onError` itself throws is dropped. Default: ignored.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * `true` or `{ tracer?, recordArguments?, recordResults? }` to start an OpenTelemetry
   * `execute_tool` span per `tools/call` (docs/tracing.md), a child of the trace context the
   * request's `_meta` carries (`traceparent`, `tracestate`, read by the global propagator), with
   * `mcp.method.name`, `jsonrpc.request.id` and `mcp.session.id`. Needs the optional peer
   * `@opentelemetry/api`. Default: off, and the package is never loaded.
   */
  readonly tracing?: ToolTracingOption;
  /**
   * Seals the state of a call suspended under protocol revision 2026-07-28 (`requestState`). Give
   * every instance of a fleet the same sealer configuration (keys, and a shared runtime
   * SuspensionStore as `useStore`) so any instance resumes any call, once. Default: a sealer of this
   * server alone (a random key, claims in memory): a retry must come back to this instance.
   */
  readonly sealer?: ContinuationSealer;
  /**
   * The principal a sealed request state is bound to, so only the same caller resumes the call
   * (2026-07-28). Default: the bearer token's `clientId`, else `''`. Asked when the call seals or
   * opens a state, inside the call: a throw fails that call (the client sees `error: tool "NAME"
   * failed`, `onError` gets the error).
   */
  readonly principal?: (call: McpCallInfo) => string;
}

/**
 * The `elicit` of one call: `elicitation/create` sent through the request (tied to it, aborted with
 * it), waiting at most `timeout` ms. Made here, not inline in the handler: the build keeps function
 * names, and a named closure made per call costs a defineProperty of its `name` each time.
 */
function elicitThrough(
  extra: Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'sendRequest' | 'signal'>,
  timeout: number,
): McpCallEnvironment['elicit'] {
  return (message, form) => {
    const elicit: ElicitRequest = {
      method: 'elicitation/create',
      params: { message, requestedSchema: form.requestedSchema },
    };
    return roundOf(extra, elicit, timeout);
  };
}

/**
 * One elicitation round, sent with a signal of its own that the call's signal aborts while the round
 * waits. The SDK (1.32.2, Protocol.request) adds an abort listener to the signal of every request it
 * sends and never removes it: sent with the call's signal, each round left one on it, and a call asked
 * 11 times set off MaxListenersExceededWarning (hostile review). The round's signal goes with the round.
 */
async function roundOf(
  extra: Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'sendRequest' | 'signal'>,
  elicit: ElicitRequest,
  timeout: number,
): Promise<unknown> {
  const call = extra.signal;
  const round = new AbortController();
  const abort = (): void => round.abort(call.reason);
  if (call.aborted) abort();
  else call.addEventListener('abort', abort, { once: true });
  try {
    return await extra.sendRequest(elicit, RawResultSchema, { signal: round.signal, timeout });
  } finally {
    call.removeEventListener('abort', abort);
  }
}

/**
 * The arguments text a trace may record: the text the call admits (mcpRequest), or none when the
 * arguments are not an object or cannot be written faithfully (a number that is not finite: written
 * as `null` it would misstate what was sent). Regression (hostile review): JSON.stringify here threw
 * RangeError on arguments nested a few thousand levels deep, and the request failed with it.
 */
function tracedArguments(name: string, args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  try {
    return mcpRequest(name, args).arguments;
  } catch {
    return undefined;
  }
}

/**
 * Runs one `tools/call` by its flow: stateless (revision 2026-07-28) or with elicitation. Both take
 * the one environment the handler built (each reads its own members). A module function: the build
 * keeps function names, and a named closure made per call costs a defineProperty of its `name`.
 */
function callOf(
  stateless: boolean,
  env: McpCallEnvironment & StatelessCallEnvironment,
  name: string,
  args: unknown,
): Promise<McpToolResult | McpInputRequiredResult> {
  return stateless ? callToolStateless(env, name, args) : callTool(env, name, args);
}

/**
 * The `principal` of a stateless call: asked when the call seals or opens a state, inside the call,
 * so a throw fails that call (and reaches `onError`) instead of the request.
 */
function principalAsker(options: McpServerOptions, info: McpCallInfo): () => string {
  return () => principalOf(options, info);
}

/**
 * `tools/call` with its params kept as the transport parsed them (own `__proto__` members of
 * `arguments` included), checked by nothing here: the SDK's Server checks every `tools/call`
 * against its CallToolRequestSchema before this handler runs and answers InvalidParams (-32602).
 * A check in this schema would run first, and the SDK answers the ZodError it throws as
 * InternalError (-32603): a `name` that is not a string, or no params at all (hostile review).
 */
const RawCallToolRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** The params of a `tools/call` the SDK's CallToolRequestSchema admitted (`name` is a string). */
interface RawCallToolParams {
  readonly name: string;
  readonly arguments?: unknown;
  readonly _meta?: unknown;
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

/**
 * The result of `elicitation/create` as the client's message carries it: the SDK checks it against
 * this schema, which takes anything, and readElicitationResult (lib/mcp/elicitation.ts) reads it.
 * ElicitResultSchema would drop an own `__proto__` member of `content` and fail the call on a value
 * no form field holds (hostile review).
 */
const RawResultSchema = z.unknown();

/** `tools/list`, its `_meta` read as is (the 2026-07-28 envelope). */
const RawListToolsRequestSchema = z.object({
  method: z.literal('tools/list'),
  params: z.object({ _meta: z.unknown().optional() }).loose().optional(),
});

/** `server/discover` (protocol revision 2026-07-28). */
const DiscoverRequestSchema = z.object({
  method: z.literal('server/discover'),
  params: z.object({ _meta: z.unknown().optional() }).loose().optional(),
});

/** The revision a request's `_meta` envelope declares, when it is the one served statelessly. */
function statelessVersionOf(meta: unknown): string | undefined {
  const version = (meta as Record<string, unknown> | null | undefined)?.[META_KEYS.protocolVersion];
  return version === STATELESS_PROTOCOL_VERSION ? version : undefined;
}

/** The elicitation capability a request's `_meta` envelope declares (per request on 2026-07-28). */
function elicitationOf(meta: unknown): { form?: unknown; url?: unknown } | undefined {
  const capabilities = (meta as Record<string, unknown>)[META_KEYS.clientCapabilities];
  const elicitation = (capabilities as { elicitation?: unknown } | null | undefined)?.elicitation;
  return typeof elicitation === 'object' && elicitation !== null ? (elicitation as { form?: unknown }) : undefined;
}

/** The principal a sealed request state is bound to: the `principal` option, else the bearer token's client id. */
function principalOf(options: McpServerOptions, info: McpCallInfo): string {
  return options.principal?.(info) ?? info.authInfo?.clientId ?? '';
}

/** The longest setTimeout delay; Node runs a longer one after 1 ms. @internal */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A limit option as given, or `fallback` when absent: a positive safe integer, and for a timer at
 * most MAX_TIMER_MS ms. Checked when the server is made, so a wrong value fails there, not in a call.
 * @param who - the function the option was passed to, named in the refusal
 * @throws RangeError (limitNotPositive, limitTooLong) naming `who`, the option and its value
 * @internal
 */
export function limitOption(who: string, name: string, value: unknown, fallback: number, timer: boolean): number {
  const limit = value ?? fallback;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    throw limitNotPositive(who, name, limit);
  }
  if (timer && limit > MAX_TIMER_MS) throw limitTooLong(who, name, MAX_TIMER_MS, limit);
  return limit;
}

/**
 * The limits of createMcpServer's options: `maxElicitations` (default 5) and `elicitationTimeoutMs`
 * (default 600,000, at most MAX_TIMER_MS). serveStdio and serveStreamableHttp check them first, under
 * their own name. Regression (hostile review): `elicitationTimeoutMs: Infinity` timed every
 * elicitation out after 1 ms, and `maxElicitations: NaN` asked without end.
 * @throws RangeError as limitOption
 * @internal
 */
export function serverLimits(
  options: McpServerOptions,
  who: string,
): { readonly maxElicitations: number; readonly elicitationTimeoutMs: number } {
  return {
    maxElicitations: limitOption(who, 'maxElicitations', options.maxElicitations, 5, false),
    elicitationTimeoutMs: limitOption(who, 'elicitationTimeoutMs', options.elicitationTimeoutMs, 600_000, true),
  };
}

/** A sealer of this server alone: a fresh random key, claims in memory. @internal */
export function defaultSealer(): ContinuationSealer {
  return new ContinuationSealer({ keys: [{ id: 'server', secret: randomBytes(32) }], currentKeyId: 'server' });
}

/**
 * Creates an MCP server for a registry. `tools/list` returns every definition (name, description,
 * input schema as authored; projected once per definition and cached) that the caller may see: with
 * listing checks (Authorizer.canList), those of `registry.visibleTo({ context, signal })`, and a call
 * of a hidden tool is refused exactly like an unknown one. `tools/call`:
 * - an unknown tool name, `arguments` that are not an object, or params the SDK's
 *   CallToolRequestSchema refuses (no `name` string) is a JSON-RPC error InvalidParams (-32602),
 *   as MCP specifies;
 * - an admission error (the arguments break the tool's contract), a Failure (the tool failed or
 *   the Guard refused), a cancellation or any other error is a tool result with `isError: true`
 *   and one actionable text, rendered by `renderOutcome`: CallError evidence, diagnostic causes,
 *   stacks and error messages never reach the client (they go to `onError`);
 * - an Output is a tool result (see `mcpToolResult`);
 * - an InputRequest is asked through `elicitation/create` (see `elicitationForm`), inside the
 *   same `tools/call`: the answer is checked by `InputRequest.continuation` (refused answers are
 *   asked again, with the reason), and the call resumes through `Contract.prepare(request,
 *   continuation)`; a declined or dismissed elicitation is a Failure (`rejected`) the model sees.
 *   The continuation state never leaves the server, so it needs no sealing here (see below);
 * - `notifications/cancelled` aborts the call's `signal` (and a pending elicitation);
 * - with a `progressToken`, progress steps are sent: admitted, waiting for input, resumed, and
 *   whatever the `context` factory's caller reports through the `progress` of McpCallInfo.
 *
 * Protocol revisions: the server answers `initialize` (2024-10-07 to 2025-11-25) and, for protocol
 * revision 2026-07-28, `server/discover`. A request whose `_meta` envelope declares
 * `io.modelcontextprotocol/protocolVersion: "2026-07-28"` is served statelessly
 * (lib/mcp/input-required.ts): results carry `resultType`, `tools/list` a cache hint (`ttlMs` 0,
 * `cacheScope` private), and a suspended call ends at once with `input_required`, its state sealed
 * by `sealer` into `requestState` and bound to the tool, its arguments and `principal`; the
 * client's retry resumes it on any instance that shares the sealer's keys and use store, once.
 * Every other request takes the elicitation flow below.
 *
 * Instances and restarts (elicitation flow): a suspended call lives in this process only, as the
 * awaiting `tools/call` handler (its InputRequest, Guard and tool in memory) and as the SDK's
 * handler for the `elicitation/create` request it sent, which the client answers on the same
 * session (the SDK matches the answer by JSON-RPC id, in memory): a repeated answer to the same
 * request id finds no handler, so the call resumes once. Another instance cannot resume the call
 * (it never saw the request id), and a restart ends it (the client's `tools/call` fails with the
 * connection). With several Streamable HTTP instances, route every request of a session
 * (`mcp-session-id`) to the instance that opened it.
 * @throws ToolError ERR_INVALID_REGISTRY when `registry` is not a Registry
 * @throws ToolError ERR_INVALID_DEFINITION when a definition cannot be projected
 * @throws RangeError when `maxElicitations` or `elicitationTimeoutMs` is not a positive integer,
 *   or `elicitationTimeoutMs` exceeds 2,147,483,647 ms (a longer Node timer fires at once)
 * @throws TracingError ERR_INVALID_TRACING for a `tracing` option of the wrong shape;
 *   ERR_TRACING_UNAVAILABLE when `tracing` is on and `@opentelemetry/api` is not installed
 */
export function createMcpServer(registry: Registry, options: McpServerOptions = {}): Server {
  if (!(registry instanceof Registry)) {
    throw registryRequired();
  }
  mcpTools(registry);
  const onError = safeOnError(options.onError);
  const { maxElicitations, elicitationTimeoutMs: timeout } = serverLimits(options, 'createMcpServer');
  const tracing = ToolTracing.of(options.tracing, 'createMcpServer(registry, options)');
  const server = new Server(
    { name: options.name ?? 'scope-tool', version: options.version ?? '0.1.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: options.instructions },
  );
  // What the SDK reports and answers nobody (a request its schemas refuse gets no response, a
  // response to no request of ours is dropped) goes to the owner, as every other diagnostic.
  server.onerror = onError;
  const serverInfo = { name: options.name ?? 'scope-tool', version: options.version ?? '0.1.0' };
  const sealer = options.sealer ?? defaultSealer();
  // Protocol revision 2026-07-28 (lib/mcp/input-required.ts): `server/discover` offers it, and
  // every request that declares it in its `_meta` envelope is served statelessly.
  server.setRequestHandler(DiscoverRequestSchema, () => ({
    resultType: 'complete',
    supportedVersions: [STATELESS_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: { tools: { listChanged: false } },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ttlMs: 0,
    cacheScope: 'private',
    _meta: { [META_KEYS.serverInfo]: serverInfo },
  }));
  // Per-caller tool lists (issue 14): with listing checks (Authorizer.canList), the `context`
  // factory runs first and the request is served from `registry.visibleTo({ context, signal })`,
  // so a hidden tool is absent from `tools/list` and a call of it is refused as an unknown tool.
  const callerOf = async (
    info: McpCallInfo,
    signal: AbortSignal,
  ): Promise<{ view: Registry; context: () => unknown }> => {
    let context: unknown;
    try {
      context = await options.context?.(info);
    } catch (error) {
      // No caller, no view: the list shows nothing and every call is refused as an unknown tool
      // (a hidden tool's existence must not leak while the factory fails); onError gets the failure.
      onError(error);
      return { view: new Registry(), context: () => undefined };
    }
    return { view: await registry.visibleTo({ context, signal }), context: () => context };
  };
  server.setRequestHandler(RawListToolsRequestSchema, async (request, extra) => {
    const tools = mcpTools(registry.hasListingChecks ? (await callerOf(listInfo(extra), extra.signal)).view : registry);
    return statelessVersionOf(request.params?._meta) === undefined
      ? { tools }
      : { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'private' };
  });
  server.setRequestHandler(RawCallToolRequestSchema, async (request, extra) => {
    const params = request.params as RawCallToolParams;
    const toolName = params.name;
    const meta = params._meta;
    const stateless = statelessVersionOf(meta) !== undefined;
    const progress = progressReporter(extra._meta?.progressToken, extra.sendNotification, onError);
    const info: McpCallInfo = {
      toolName,
      requestId: extra.requestId,
      sessionId: extra.sessionId,
      authInfo: extra.authInfo,
      headers: extra.requestInfo?.headers ?? {},
      progress: progress.step,
    };
    const elicitation = stateless ? elicitationOf(meta) : server.getClientCapabilities()?.elicitation;
    const canElicit = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
    let ended: CallEnd | undefined;
    const caller = registry.hasListingChecks
      ? await callerOf(info, extra.signal)
      : { view: registry, context: options.context === undefined ? undefined : () => options.context?.(info) };
    // One environment for both flows, written out: an object spread followed by another member
    // costs about a microsecond on Node 20 (V8 11.3), more than the rest of the handler.
    const env: McpCallEnvironment & StatelessCallEnvironment = {
      registry: caller.view,
      signal: extra.signal,
      requestId: extra.requestId,
      progress,
      // No factory, no await: a server without a `context` option costs the call no promise turn.
      context: caller.context,
      canElicit,
      maxElicitations,
      onError,
      // Only tracing reads how the call ended.
      outcome:
        tracing === undefined
          ? undefined
          : (end: CallEnd): void => {
              ended = end;
            },
      elicit: elicitThrough(extra, timeout),
      sealer,
      principal: principalAsker(options, info),
      requestState: params.requestState,
      inputResponses: params.inputResponses,
    };
    const result =
      tracing === undefined
        ? await callOf(stateless, env, toolName, params.arguments)
        : await tracing.trace(
            {
              toolName,
              callId: String(extra.requestId),
              description: caller.view.resolve(toolName)?.contract.definition().description,
              arguments: tracedArguments(toolName, params.arguments),
              parent: tracing.contextOfMeta(meta),
              attributes: {
                'mcp.method.name': 'tools/call',
                'jsonrpc.request.id': String(extra.requestId),
                ...(extra.sessionId === undefined ? {} : { 'mcp.session.id': extra.sessionId }),
                ...(stateless ? { 'mcp.protocol.version': STATELESS_PROTOCOL_VERSION } : {}),
              },
            },
            () => callOf(stateless, env, toolName, params.arguments),
            (): TracedEnd => ({ kind: ended?.kind ?? 'error', isError: ended?.isError ?? true, result: ended?.output }),
          );
    // A fresh object of this call (mcpToolResult builds one per call), so it is returned as is.
    const wire = result as typeof result & { [key: string]: unknown };
    return stateless && !('resultType' in wire) ? { resultType: 'complete', ...wire } : wire;
  });
  return server;
}

/**
 * The McpCallInfo the `context` factory gets for `tools/list` (registries with listing checks
 * only): `toolName` is empty and progress is a no-op.
 */
function listInfo(extra: {
  requestId: string | number;
  sessionId?: string;
  authInfo?: AuthInfo;
  requestInfo?: { headers: Readonly<Record<string, string | string[] | undefined>> };
}): McpCallInfo {
  return {
    toolName: '',
    requestId: extra.requestId,
    sessionId: extra.sessionId,
    authInfo: extra.authInfo,
    headers: extra.requestInfo?.headers ?? {},
    progress: () => Promise.resolve(),
  };
}

/**
 * `onError` that never throws: a throwing sink inside the call's catch would otherwise reject the
 * handler, and the SDK sends a rejected handler's message to the client.
 * @internal
 */
export function safeOnError(sink: ((error: unknown) => void) | undefined): (error: unknown) => void {
  if (sink === undefined) return () => undefined;
  return (error) => {
    try {
      sink(error);
    } catch {
      // A diagnostics sink that fails has nowhere to report to.
    }
  };
}
