/**
 * One MCP `tools/call`, end to end: arguments → Request → `prepareMcpCall` (Contract.prepare) →
 * `Binding.call` (Guard, tool) → Output, with InputRequests answered through MCP elicitation and
 * the call resumed through `Contract.prepare(request, continuation)`.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Failure, Output } from '../protocol';
import type { Continuation, InputRequest, Registry } from '../protocol';
import { detailOf } from '../protocol/detail';
import { prepareToolCall, renderOutcome } from '../providers';
import { prepareMcpCall } from './arguments';
import type { PreparedMcpCall } from './arguments';
import { mcpToolResult } from './content';
import type { McpToolResult } from './content';
import { elicitationForm, elicitationMessage, readElicitationResult } from './elicitation';
import type { ElicitationForm } from './elicitation';
import {
  argumentsNotObject,
  askedAgain,
  cannotElicit,
  contextFailed,
  formCannotShow,
  inputNotGiven,
  PROGRESS,
  tooManyElicitations,
} from './messages';
import type { ProgressReporter } from './progress';

/** What the call needs from the MCP session it runs in. @internal */
export interface McpCallEnvironment {
  readonly registry: Registry;
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly progress: ProgressReporter;
  /**
   * Builds the caller-owned `CallOptions.context` for this call (the server's `context` option);
   * may return a Promise. Run inside the call's containment: a throw or rejection fails the call.
   * Undefined when the server has no `context` option: the context is undefined, with no await.
   */
  readonly context: (() => unknown) | undefined;
  /** Whether the client declared form elicitation. */
  readonly canElicit: boolean;
  /**
   * Sends `elicitation/create` and awaits the result as the client's message carries it, unchecked
   * (readElicitationResult reads it); tied to this request, aborted with it.
   */
  readonly elicit: (message: string, form: ElicitationForm) => Promise<unknown>;
  /** At most this many elicitations per call (answers refused by the schema included). */
  readonly maxElicitations: number;
  /** Diagnostics sink: never reaches the client. */
  readonly onError: (error: unknown) => void;
  /** Told how the call ended, before its result is returned (the server's tracing reads it). */
  readonly outcome?: (ended: CallEnd) => void;
}

/**
 * How a call ended: the outcome kind (lib/providers/outcome.ts OutcomeKind, or `suspended` for an
 * `input_required` result), whether the client is told an error, and the Output. @internal
 */
export interface CallEnd {
  readonly kind: string;
  readonly isError: boolean;
  readonly output?: Output;
}

/**
 * Runs one `tools/call` and renders its outcome as an MCP tool result.
 * @throws McpError InvalidParams (-32602) for a tool name the registry does not hold (the message
 *   names the tool and lists the registered ones) and for `arguments` that are not a JSON object;
 *   every other refusal or failure is a tool result with `isError: true` (see `renderOutcome`)
 * @internal
 */
export async function callTool(env: McpCallEnvironment, name: string, args: unknown): Promise<McpToolResult> {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalidParams(argumentsNotObject(name));
  }
  try {
    const prepared = prepareMcpCall(env.registry, env.requestId, name, args);
    const context = env.context === undefined ? undefined : await contextOf(env.context, name);
    if (env.progress.requested) await env.progress.step(PROGRESS.admitted);
    // No "completed" step: the response says so, and the SDK Client drops a progress
    // notification that arrives in the same read as the response.
    const result = await prepared.binding.call(prepared.invocation, { signal: env.signal, context });
    const output = 'output' in result ? result.output : await answered(env, prepared, result.inputRequest, context);
    env.outcome?.({ kind: 'completed', isError: false, output });
    return mcpToolResult(output, false);
  } catch (error) {
    return failedResult(env, name, error);
  }
}

/**
 * Answers an InputRequest by elicitation and resumes the call, again for each InputRequest the
 * resumed call returns, until an Output.
 */
async function answered(
  env: McpCallEnvironment,
  prepared: PreparedMcpCall,
  first: InputRequest,
  context: unknown,
): Promise<Output> {
  const name = prepared.call.request.name;
  let request = first;
  let asked = 0;
  for (;;) {
    let continuation: Continuation | undefined;
    let refusal: string | undefined;
    const form = formOf(env, name, request);
    while (continuation === undefined) {
      if (asked >= env.maxElicitations) throw failure('failed', tooManyElicitations(name, env.maxElicitations));
      asked += 1;
      await env.progress.step(PROGRESS.waiting);
      const message = elicitationMessage(request.prompt);
      const answer = readElicitationResult(
        await env.elicit(refusal === undefined ? message : askedAgain(message, refusal), form),
      );
      if (answer.refusal !== undefined) {
        refusal = answer.refusal;
        continue;
      }
      if (answer.action !== 'accept') throw failure('rejected', inputNotGiven(name, answer.action));
      try {
        continuation = request.continuation(form.answer(answer.content));
      } catch (error) {
        refusal = detailOf(error);
      }
    }
    await env.progress.step(PROGRESS.resumed);
    const invocation = prepareToolCall(env.registry, prepared.call, continuation).invocation;
    const result = await prepared.binding.call(invocation, { signal: env.signal, context });
    if ('output' in result) return result.output;
    request = result.inputRequest;
  }
}

/**
 * The call's context, built after admission (a refused call never runs the factory). A throw or a
 * rejection becomes an Error naming the tool, with the thrown value as its `cause`: callTool's
 * catch renders it as `error: tool "x" failed` and hands it to `onError`, so neither its text nor
 * its stack reaches the client (spec/mcp/context-containment.spec.ts). @internal
 */
export async function contextOf(factory: () => unknown, name: string): Promise<unknown> {
  try {
    return await factory();
  } catch (error) {
    throw new Error(contextFailed(name), { cause: error });
  }
}

/** The form an InputRequest is asked with, or the Failure that says it cannot be asked. @internal */
export function formOf(
  env: Pick<McpCallEnvironment, 'canElicit' | 'onError'>,
  name: string,
  request: InputRequest,
): ElicitationForm {
  if (!env.canElicit) throw failure('failed', cannotElicit(name));
  try {
    return elicitationForm(request.responseSchema);
  } catch (error) {
    env.onError(error);
    throw failure('failed', formCannotShow(name), error);
  }
}

/**
 * The JSON-RPC error InvalidParams with `message` as is: McpError prefixes `MCP error -32602: `,
 * and the client's McpError adds it again when it reads the response. @internal
 */
/**
 * A call's thrown error as MCP answers it (both call paths): an unknown tool is InvalidParams, any
 * other an `isError` result with the rendered text; errors that are not the model's go to onError.
 * @internal
 */
export function failedResult(
  env: Pick<McpCallEnvironment, 'signal' | 'outcome' | 'onError'>,
  name: string,
  error: unknown,
): McpToolResult {
  const rendered = renderOutcome(name, { error }, { signal: env.signal });
  env.outcome?.(rendered);
  if (rendered.kind === 'unknown_tool') throw invalidParams((rendered.output.asText() ?? '').replace(/^error: /, ''));
  if (rendered.kind === 'error' || rendered.kind === 'undecided') env.onError(error);
  return mcpToolResult(rendered.output, true);
}

export function invalidParams(message: string): McpError {
  const error = new McpError(ErrorCode.InvalidParams, message);
  error.message = message;
  return error;
}

/** A Failure the model sees; `cause` is the diagnostic (a `failed` Failure requires one), never sent. @internal */
export function failure(kind: 'failed' | 'rejected', text: string, cause?: unknown): Failure {
  return new Failure({
    kind,
    output: Output.text(text),
    cause: cause ?? (kind === 'failed' ? new Error(text) : undefined),
  });
}
