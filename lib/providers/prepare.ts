/**
 * Provider-neutral admission of one proposed tool call: find the bound tool by name, refuse a call
 * that a stream cut off, then admit the arguments through that tool's exact Contract. This is the
 * one step every runtime needs between reading calls (`openAIChatToolCalls`,
 * `AnthropicStreamAssembler`, ...) and running them (`Binding.call`).
 */
import { ToolError, admitJson, markRefusal, validateRequest } from '../protocol';
import { ERROR_MESSAGES, wrappedText } from '../protocol/errors';
import type { AdmissionIssue, Binding, Continuation, Invocation, Registry } from '../protocol';
import { notARegistry, notAToolCall, shapeOf, unreadableMember } from './messages';
import { DUPLICATE_ID, problemForModel, quoteToolName } from './tool-call';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';

/** At most this many tool names are listed when a model calls a tool that does not exist. */
export const MAX_LISTED_TOOLS = 20;

/** A call admitted by `prepareToolCall`: the binding to run it with, and its invocation. */
export interface PreparedToolCall {
  readonly binding: Binding;
  readonly invocation: Invocation;
}

/**
 * Resolves and admits one proposed call, synchronously. The call must be shaped
 * `{ id, request: { name, arguments } }` with a string `name` and `arguments` (as every provider
 * reader returns it): any other value is the calling code's bug, thrown as a ToolError that is not
 * a refusal (`renderOutcome` shows it to the model as a failure, never as the model's mistake).
 * Then, first refusal wins:
 * 1. the `name` must not be empty (a reader gives `""` when the model sent none): refused as an
 *    unknown tool is (the model is told `error: the call names no tool; call one of: a, b, c`), with
 *    validateRequest's ERR_INVALID_REQUEST as the cause;
 * 2. `name` must be registered: otherwise the error's message and its one issue (code
 *    `unknown_tool`, empty path, `params: { tool, availableTools, omittedTools }`) name the unknown
 *    tool and list the registered names nearest first (see `nearestToolNames`, at most 20); the
 *    model is told `error: unknown tool "x"; call one of: a, b, c`. A near match is only listed,
 *    never run;
 * 3. a call marked `malformed` is refused; its one issue (empty path) says what was wrong: code
 *    `invalid_json` when its provider payload held no admissible arguments text (OpenAI
 *    `arguments` null, missing or not a string; an Anthropic `input` or Gemini `args` that is not
 *    JSON data), `duplicate_call_id` when calls shared its id (see `oneCallPerId`);
 * 4. a streamed call whose `complete` is `false` is refused whatever its partial text is, blank
 *    included (blank arguments would otherwise be admitted as `{}` and run a tool with no required
 *    members on a call the model never finished); its one issue (code `invalid_json`, `offset` = the
 *    length of the partial text, `path` = where the text broke off when that can be told) says the
 *    stream ended before the arguments were complete;
 * 5. `binding.contract.prepare(call.request, continuation)`.
 *
 * Never calls the tool or an authorizer. Every refusal renders as actionable model text through
 * `renderOutcome` (`openAIToolMessage`, `anthropicToolResult` with `is_error`).
 * @param registry - the registry holding the tools the model was offered
 * @param call - a call read from a provider response, or assembled from a stream
 * @param continuation - the answer to this call's InputRequest when resuming it; omit (or null)
 *   for a new call
 * @returns the resolved Binding and the Invocation only that Binding's contract admits
 * @throws ToolError ERR_INVALID_INVOCATION, wrapping ERR_INVALID_REQUEST, not a refusal, when the call
 *   is not shaped `{ id, request: { name, arguments } }` with two strings (a `malformed` that is
 *   not a string, or a `complete` that is not a boolean, included), when reading one of its
 *   members throws (the thrown value is the inner error's cause, its message never in the text), or
 *   when `registry` is not a Registry (no `resolve` and `definitions` methods)
 * @throws ToolError ERR_INVALID_INVOCATION, wrapping ERR_INVALID_REQUEST, when the name is empty
 *   (issue code `unknown_tool`), the call is marked `malformed`, or the stream ended before the
 *   arguments were complete (`complete === false`)
 * @throws ToolError ERR_INVALID_INVOCATION when the tool name is not registered (issue code
 *   `unknown_tool`)
 * @throws ToolError ERR_INVALID_INVOCATION (and the causes it documents) as `Contract.prepare` does
 */
export function prepareToolCall(
  registry: Registry,
  call: ProviderToolCall | AssembledToolCall,
  continuation?: Continuation | null,
): PreparedToolCall {
  const resolve = resolverOf(registry);
  const { name: toolName, args, request, malformed, complete } = fieldsOf(call);
  // Regression (new-user trial, finding 12a): an empty name told the model
  // `tool: invalid request: name must not be empty`; it is now refused as an unknown tool is, with
  // the tools to call (validateRequest's ERR_INVALID_REQUEST kept as the cause).
  if (toolName === '') throw markRefusal(unknownTool(toolName, registry, emptyName()));
  const binding = resolve(toolName);
  if (binding === undefined) throw markRefusal(unknownTool(toolName, registry));
  if (malformed !== undefined) throw markRefusal(unreadable(toolName, malformed));
  if (complete === false) throw markRefusal(incomplete(toolName, args));
  return { binding, invocation: binding.contract.prepare(request, continuation) };
}

/**
 * `registry.resolve`, bound, after checking that `registry` has `resolve` and `definitions`
 * methods. Regression (hostile review, item 1): `prepareToolCall({}, call)` threw the TypeError
 * `registry.resolve is not a function`; any other first argument is now the calling code's bug,
 * thrown as ERR_INVALID_INVOCATION naming the registry (a getter that threw is the cause).
 */
function resolverOf(registry: unknown): (name: string) => Binding | undefined {
  if (typeof registry !== 'object' || registry === null) throw notARegistry(shapeOf(registry));
  let resolve: unknown;
  let definitions: unknown;
  try {
    ({ resolve, definitions } = registry as { resolve?: unknown; definitions?: unknown });
  } catch (e) {
    throw notARegistry(unreadableMember('resolve or definitions method'), e);
  }
  if (typeof resolve !== 'function' || typeof definitions !== 'function') {
    throw notARegistry(`${shapeOf(registry)}, its resolve ${shapeOf(resolve)} and definitions ${shapeOf(definitions)}`);
  }
  return (name) => (resolve as Registry['resolve']).call(registry, name);
}

/** The members of a call `prepareToolCall` reads, each read once. */
interface CallFields {
  readonly name: string;
  readonly args: string;
  readonly request: { readonly name: string; readonly arguments: string };
  readonly malformed: string | undefined;
  readonly complete: boolean | undefined;
}

/**
 * The members of a call shaped `{ id, request: { name, arguments } }` with two strings, each read
 * once (a getter answering twice cannot change the call between the check and the admission).
 * Every provider reader builds that shape, whatever the model sent (a missing name is `""`,
 * unreadable arguments a `malformed` call), so any other shape is the calling code's bug: a plain
 * ToolError, not a refusal the model would be told about. Regression (new-user trial, finding 10):
 * `{ id, name, arguments }` was rendered to the model as invalid arguments. Regression (hostile
 * review, item 1): a `request` getter that threw escaped as the raw error; it is now the cause of
 * that ToolError, and its message is not part of the error's text.
 */
function fieldsOf(call: unknown): CallFields {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) throw notAToolCall(shapeOf(call));
  let request: unknown;
  let malformed: unknown;
  let complete: unknown;
  try {
    ({ request, malformed, complete } = call as { request?: unknown; malformed?: unknown; complete?: unknown });
  } catch (e) {
    throw notAToolCall(unreadableMember('request, malformed or complete'), e);
  }
  if (request === undefined) throw notAToolCall(shapeOf(call));
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw notAToolCall(`${shapeOf(call)}, its request ${shapeOf(request)}`);
  }
  let name: unknown;
  let args: unknown;
  try {
    ({ name, arguments: args } = request as { name?: unknown; arguments?: unknown });
  } catch (e) {
    throw notAToolCall(unreadableMember('request.name or request.arguments'), e);
  }
  if (typeof name !== 'string' || typeof args !== 'string') {
    throw notAToolCall(`a call whose request.name is ${shapeOf(name)} and request.arguments ${shapeOf(args)}`);
  }
  // Regression (hostile review, item 2): `complete: 'no'` let the call run, and a `malformed` that
  // is not a string was shown to the model as String(value).
  if (malformed !== undefined && typeof malformed !== 'string') {
    throw notAToolCall(`a call whose malformed is ${shapeOf(malformed)} (a string, or left out)`);
  }
  if (complete !== undefined && typeof complete !== 'boolean') {
    throw notAToolCall(`a call whose complete is ${shapeOf(complete)} (a boolean, or left out)`);
  }
  return {
    name,
    args,
    request: { name, arguments: args },
    malformed,
    complete,
  };
}

/** What an unknown-tool refusal says: the name the model used and the names it may use. @internal */
export interface UnknownTool {
  readonly tool: string;
  readonly availableTools: readonly string[];
  readonly omittedTools: number;
}

/**
 * The unknown tool an error of `prepareToolCall` reports, or undefined for any other error.
 * Reads the error's own issue only (never causes). @internal
 */
export function unknownToolOf(error: ToolError): UnknownTool | undefined {
  if (error.code !== 'ERR_INVALID_INVOCATION' || error.issues.length !== 1) return undefined;
  const [issue] = error.issues;
  const params = issue.params;
  if (issue.code !== 'unknown_tool' || issue.path.length !== 0 || params === undefined) return undefined;
  const { tool, availableTools, omittedTools } = params;
  if (typeof tool !== 'string' || !Array.isArray(availableTools) || typeof omittedTools !== 'number') return undefined;
  if (!availableTools.every((n) => typeof n === 'string')) return undefined;
  return { tool, availableTools: availableTools as string[], omittedTools };
}

/**
 * `unknown tool "x"; call one of: a, b, c` (with `(and N more)`), or `...; no tools are available`;
 * for an empty name, `the call names no tool; call one of: ...`. @internal
 */
export function describeUnknownTool(unknown: UnknownTool): string {
  const head = unknown.tool === '' ? 'the call names no tool' : `unknown tool ${quoteToolName(unknown.tool)}`;
  if (unknown.availableTools.length === 0) return `${head}; no tools are available`;
  const more = unknown.omittedTools > 0 ? ` (and ${unknown.omittedTools} more)` : '';
  return `${head}; call one of: ${unknown.availableTools.join(', ')}${more}`;
}

/** validateRequest's refusal of an empty name (ERR_INVALID_REQUEST). */
function emptyName(): unknown {
  try {
    validateRequest({ name: '', arguments: '{}' });
  } catch (e) {
    return e;
  }
  return undefined;
}

function unknownTool(name: string, registry: Registry, cause?: unknown): ToolError {
  const names = nearestToolNames(
    name,
    registry.definitions().map((d) => d.name),
  );
  const unknown: UnknownTool = {
    tool: name,
    availableTools: Object.freeze(names.slice(0, MAX_LISTED_TOOLS)),
    omittedTools: Math.max(0, names.length - MAX_LISTED_TOOLS),
  };
  const message = describeUnknownTool(unknown);
  const issue: AdmissionIssue = Object.freeze({
    code: 'unknown_tool',
    path: Object.freeze([]),
    message,
    params: Object.freeze({ ...unknown }),
  });
  return new ToolError('ERR_INVALID_INVOCATION', message, {
    issues: [issue],
    ...(cause === undefined ? {} : { cause }),
  });
}

function unreadable(name: string, problem: string): ToolError {
  // An ambiguous call id (oneCallPerId) is said as is; any other problem is about the arguments text.
  const ambiguous = problem.startsWith(`${DUPLICATE_ID} `);
  const inner = new ToolError(
    'ERR_INVALID_REQUEST',
    ambiguous
      ? `call of tool ${quoteToolName(name)}: ${problem}`
      : `call of tool ${quoteToolName(name)}: the provider's payload held no arguments text to admit (${problem}); the call did not run`,
  );
  const shown = problemForModel(problem);
  const message = ambiguous ? shown : `no arguments text: ${shown}`;
  // Regression (new-user trial, finding 14c): calls sharing an id were reported as `invalid_json`.
  const code = ambiguous ? 'duplicate_call_id' : 'invalid_json';
  const issue: AdmissionIssue = Object.freeze({ code, path: Object.freeze([]), message });
  return invalidInvocation(inner, issue);
}

function incomplete(name: string, partial: string): ToolError {
  const ended = 'the stream ended before the arguments were complete';
  const inner = new ToolError(
    'ERR_INVALID_REQUEST',
    `call of tool ${quoteToolName(name)}: ${ended} (${partial.length} characters received); the call did not run`,
  );
  const issue: AdmissionIssue = Object.freeze({
    code: 'invalid_json',
    path: Object.freeze([...breakOffPath(partial)]),
    offset: partial.length,
    message: `${ended} (offset ${partial.length})`,
  });
  return invalidInvocation(inner, issue);
}

/** `inner` under ERR_INVALID_INVOCATION with its one issue, the prefix said once (wrappedText). */
function invalidInvocation(inner: ToolError, issue: AdmissionIssue): ToolError {
  const text = wrappedText(ERROR_MESSAGES.ERR_INVALID_INVOCATION, inner);
  return new ToolError('ERR_INVALID_INVOCATION', text, { cause: inner, issues: [issue] });
}

/** Where a partial JSON text broke off (the enclosing value of the first syntax issue), else the root. */
function breakOffPath(partial: string): readonly (string | number)[] {
  if (partial.trim() === '') return [];
  try {
    const admitted = admitJson(partial);
    return admitted.ok || admitted.issue.code !== 'invalid_json' ? [] : admitted.issue.path;
  } catch {
    return [];
  }
}

/** Only this many code units of a proposed name are compared (definition names have at most 64). */
const COMPARED_NAME = 128;

/**
 * Orders tool names for the unknown-tool text, nearest to the name the model used first: by
 * optimal string alignment distance (Damerau-Levenshtein where an adjacent transposition counts as
 * one edit, no substring edited twice) between the lower-cased names, ties alphabetical (UTF-16
 * code units). `get_wether` lists `get_weather` first however many tools sort before it. The work
 * is bounded: at most 128 code units of `name` are compared, so a hostile name of a megabyte costs
 * what a long one does. @internal
 * @param name - the name the model proposed
 * @param names - the registered names
 * @returns a new array holding every name of `names`, nearest first
 */
export function nearestToolNames(name: string, names: readonly string[]): string[] {
  const wanted = name.slice(0, COMPARED_NAME).toLowerCase();
  const ranked = names.map((n) => ({ n, d: editDistance(wanted, n.slice(0, COMPARED_NAME).toLowerCase()) }));
  ranked.sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  return ranked.map((r) => r.n);
}

/** Optimal string alignment distance of `a` and `b`, in UTF-16 code units; three rolling rows. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        d = Math.min(d, before[j - 2] + 1);
      }
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}
