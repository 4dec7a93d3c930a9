/**
 * MCP protocol revision 2026-07-28: a `tools/call` whose tool asks for input ends at once with
 * `resultType: "input_required"`, the question as an embedded `elicitation/create` in
 * `inputRequests`, and the call's state in `requestState`; the client retries the same
 * `tools/call` with `inputResponses` and the `requestState` echoed byte for byte. The state is the
 * sealed continuation (a ContinuationSealer token, lib/mcp/sealed-state.ts), opened once through the
 * sealer's use store: an instance that shares the sealer's keys and store resumes the call, and a
 * replayed, altered, expired or foreign state is refused. Nothing of the call stays in memory.
 * docs/mcp.md describes the wire; createMcpServer (lib/mcp/server.ts) chooses this flow or the
 * elicitation flow of lib/mcp/call.ts by the request's protocol version.
 */
import { InputRequest } from '../protocol';
import type { Continuation, JsonValue, Registry } from '../protocol';
import { detailOf } from '../protocol/detail';
import { prepareToolCall } from '../providers';
import type { ProviderToolCall } from '../providers';
import { prepareMcpCall } from './arguments';
import { contextOf, failedResult, failure, formOf, invalidParams } from './call';
import type { CallEnd } from './call';
import { mcpToolResult } from './content';
import type { McpToolResult } from './content';
import { elicitationMessage, readElicitationResult } from './elicitation';
import type { ElicitationAnswer, ElicitationForm } from './elicitation';
import {
  ANSWER_RULE,
  PROGRESS,
  argumentsNotObject,
  askedAgain,
  inputNotGiven,
  stateNotResumed,
  tooManyElicitations,
} from './messages';
import type { ProgressReporter } from './progress';
import { ContinuationError } from './sealed-state';
import type { ContinuationSealer } from './sealed-state';

/** The protocol revision served statelessly. */
export const STATELESS_PROTOCOL_VERSION = '2026-07-28';

/** The key of the one embedded input request of an `input_required` result. */
export const INPUT_KEY = 'input';

/** `_meta` keys of the 2026-07-28 per-request envelope and of results. @internal */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** An `input_required` result (protocol revision 2026-07-28). */
export interface McpInputRequiredResult {
  readonly resultType: 'input_required';
  readonly inputRequests: {
    readonly [key: string]: {
      readonly method: 'elicitation/create';
      readonly params: { readonly message: string; readonly requestedSchema: ElicitationForm['requestedSchema'] };
    };
  };
  readonly requestState: string;
}

/** What a stateless call needs from the request and the server. @internal */
export interface StatelessCallEnvironment {
  readonly registry: Registry;
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly progress: ProgressReporter;
  /** See McpCallEnvironment.context: undefined when the server has no `context` option. */
  readonly context: (() => unknown) | undefined;
  /** Whether the request's envelope declares form elicitation. */
  readonly canElicit: boolean;
  readonly maxElicitations: number;
  readonly onError: (error: unknown) => void;
  readonly outcome?: (ended: CallEnd) => void;
  readonly sealer: ContinuationSealer;
  /**
   * Who calls (a sealed state opens for the same principal only): asked when a state is sealed or
   * opened, inside the call, so a throw fails the call (`onError` gets it, the client a tool error).
   */
  readonly principal: () => string;
  /** `params.requestState` of a retry, as the client echoed it. */
  readonly requestState: unknown;
  /** `params.inputResponses` of a retry. */
  readonly inputResponses: unknown;
}

/** What the sealed state holds: the tool's InputRequest (wire JSON) and the questions asked so far. */
interface SealedCall {
  readonly request: string;
  readonly asked: number;
}

/** Thrown inside the call to end it with `input_required`. */
class InputRequired {
  constructor(readonly result: McpInputRequiredResult) {}
}

/**
 * Runs one leg of a `tools/call` under protocol revision 2026-07-28: a first call, or a retry
 * that carries `requestState` and `inputResponses`. Returns a tool result, or `input_required`.
 * @throws McpError InvalidParams as callTool (lib/mcp/call.ts) does
 * @internal
 */
export async function callToolStateless(
  env: StatelessCallEnvironment,
  name: string,
  args: unknown,
): Promise<McpToolResult | McpInputRequiredResult> {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalidParams(argumentsNotObject(name));
  }
  try {
    const prepared = prepareMcpCall(env.registry, env.requestId, name, args);
    const call = prepared.call;
    const context = env.context === undefined ? undefined : await contextOf(env.context, name);
    let invocation = prepared.invocation;
    let asked = 0;
    if (env.requestState !== undefined) {
      const resumed = await resume(env, call);
      asked = resumed.asked;
      invocation = prepareToolCall(env.registry, call, resumed.continuation).invocation;
      await env.progress.step(PROGRESS.resumed);
    } else if (env.progress.requested) {
      await env.progress.step(PROGRESS.admitted);
    }
    const result = await prepared.binding.call(invocation, { signal: env.signal, context });
    if ('inputRequest' in result) throw ask(env, call, result.inputRequest, asked, undefined);
    env.outcome?.({ kind: 'completed', isError: false, output: result.output });
    return mcpToolResult(result.output, false);
  } catch (error) {
    if (error instanceof InputRequired) {
      env.outcome?.({ kind: 'suspended', isError: false });
      return error.result;
    }
    return failedResult(env, name, error);
  }
}

/**
 * Opens the retry's state and reads the answer: the Continuation to resume with, or (thrown) the
 * question asked again (no answer, or one the response schema refused), a Failure (declined,
 * dismissed, too many questions) or, for a state that does not open, a Failure naming why.
 */
async function resume(
  env: StatelessCallEnvironment,
  call: ProviderToolCall,
): Promise<{ continuation: Continuation; asked: number }> {
  const name = call.request.name;
  let sealed: SealedCall;
  let request: InputRequest;
  try {
    if (typeof env.requestState !== 'string') {
      throw new ContinuationError('malformed', 'continuation state is not a string (requestState)');
    }
    const text = await env.sealer.open(env.requestState, binding(env, call));
    sealed = JSON.parse(text) as SealedCall;
    request = InputRequest.parse(sealed.request);
  } catch (error) {
    if (!(error instanceof ContinuationError)) throw error;
    throw failure('failed', stateNotResumed(name, error.reason), error);
  }
  const form = formOf(env, name, request);
  const answer = answerOf(env.inputResponses);
  if (answer === undefined || answer.refusal !== undefined) {
    throw ask(env, call, request, sealed.asked, answer?.refusal, form);
  }
  if (answer.action !== 'accept') throw failure('rejected', inputNotGiven(name, answer.action));
  try {
    return { continuation: request.continuation(form.answer(answer.content)), asked: sealed.asked };
  } catch (error) {
    const refusal = detailOf(error);
    throw ask(env, call, request, sealed.asked, refusal, form);
  }
}

/**
 * The elicitation result under INPUT_KEY as the retry carries it (readElicitationResult), undefined
 * when the retry carries none (no `inputResponses`, or none under INPUT_KEY: the question is asked
 * again as it was). `inputResponses` that are not an object is not an answer, asked again with the
 * reason, as a malformed result under INPUT_KEY is (hostile review: both were taken as no answer).
 */
function answerOf(responses: unknown): ElicitationAnswer | undefined {
  if (responses === undefined) return undefined;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    return { refusal: ANSWER_RULE.responses };
  }
  const result = (responses as Record<string, unknown>)[INPUT_KEY];
  return result === undefined ? undefined : readElicitationResult(result);
}

/** The `input_required` result that asks `request` (again, with `refusal`), sealed; or the Failure of one ask too many. */
function ask(
  env: StatelessCallEnvironment,
  call: ProviderToolCall,
  request: InputRequest,
  asked: number,
  refusal: string | undefined,
  form: ElicitationForm = formOf(env, call.request.name, request),
): InputRequired {
  if (asked >= env.maxElicitations)
    throw failure('failed', tooManyElicitations(call.request.name, env.maxElicitations));
  const state: SealedCall = { request: JSON.stringify(request.toJSON()), asked: asked + 1 };
  const message = elicitationMessage(request.prompt);
  void env.progress.step(PROGRESS.waiting);
  return new InputRequired({
    resultType: 'input_required',
    inputRequests: {
      [INPUT_KEY]: {
        method: 'elicitation/create',
        params: {
          message: refusal === undefined ? message : askedAgain(message, refusal),
          requestedSchema: form.requestedSchema,
        },
      },
    },
    requestState: env.sealer.seal(JSON.stringify(state), binding(env, call)),
  });
}

/** The sealed state is bound to the tool, its arguments as admitted and the principal. */
function binding(env: StatelessCallEnvironment, call: ProviderToolCall) {
  const responseSchema: JsonValue = STATELESS_PROTOCOL_VERSION;
  return { toolName: call.request.name, arguments: call.request.arguments, principal: env.principal(), responseSchema };
}
