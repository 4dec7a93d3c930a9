/**
 * The provider-neutral shape of one tool call a model proposed, and the small helpers every
 * provider projection shares (schema shape check, quoting of names in model-facing text).
 */
import { ToolError } from '../protocol';
import type { Definition, JsonObject, Request } from '../protocol';
import { READING_THREW, toJsonText } from '../protocol/json-data';

/**
 * One tool call proposed by a model, as read from a provider response or stream.
 *
 * - `id`: the provider's call identifier (OpenAI `tool_calls[].id`, Anthropic `tool_use.id`); the
 *   tool result message must echo it.
 * - `request`: the tool name and the raw JSON arguments text, ready for `Contract.prepare`.
 */
export interface ProviderToolCall {
  readonly id: string;
  readonly request: Request;
  /**
   * Set when the provider's payload held no arguments text that can be admitted (OpenAI
   * `arguments` null, missing or not a string; an Anthropic `input` or Gemini `args` that is not
   * JSON data), or when calls shared its id (`duplicate call id "x": ...`, see `oneCallPerId`):
   * what was wrong, for people and the model. The call is still returned, so its id gets exactly
   * one result; `request.arguments` is then `null` (JSON text), which no contract
   * admits, and `prepareToolCall` refuses the call with an issue that says what was wrong.
   * A string or left out (`prepareToolCall` throws a developer error for any other value); the model
   * reads it (at most 200 code units), except the message of a getter that threw while the input
   * was read, so a hand-built text must hold nothing the model may not see.
   */
  readonly malformed?: string;
}

/**
 * A tool call assembled from a stream, or read from a whole response. `complete` is false when the
 * stream ended before the call's arguments finished (no `content_block_stop`, or an OpenAI
 * `finish_reason` other than `tool_calls` / `stop`), or when the response did not end its turn by
 * itself (truncated: see `finishedWhole`); its `request.arguments` then holds the partial text as streamed (the
 * assemblers never invent text), which may be blank, and `Contract.prepare` admits blank arguments
 * as `{}`. Admit assembled calls with `prepareToolCall`, which refuses every incomplete call.
 * `complete` must be a boolean (`prepareToolCall` throws a developer error for any other value).
 */
export interface AssembledToolCall extends ProviderToolCall {
  readonly complete: boolean;
}

/**
 * Quotes a tool name for model-facing text as a JSON string (`"get_weather"`). Definition names
 * are ASCII (`^[A-Za-z0-9_-]{1,64}$`), where this equals Go's `%q`; a name proposed by a model
 * may be anything, and JSON quoting keeps it on one line. Names longer than 64 code units are cut.
 * Every code unit outside printable ASCII is escaped (`\u0456`, control characters too), so a
 * homoglyph (`wrіte_file` with a Cyrillic і) or an invisible character shows beside the real names.
 * @internal
 */
export function quoteToolName(name: string): string {
  const short = name.length > 64 ? `${name.slice(0, 64)}...` : name;
  // Regression (second new-user trial, finding 13): `unknown tool "wrіte_file"; call one of:
  // write_file` looked like a refusal of the right name.
  return JSON.stringify(short).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Copies a definition's input schema for a provider's `tools` array, checking that it is an
 * object schema (`"type": "object"`), which both OpenAI `parameters` and Anthropic `input_schema`
 * require. The copy is deep, so callers cannot alter the definition through the wire value.
 * @throws ToolError ERR_INVALID_DEFINITION when the schema's top-level `type` is not `"object"`
 * @internal
 */
export function objectInputSchema(definition: Definition, where: string): JsonObject & { type: 'object' } {
  const schema = definition.inputSchema;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `${where}: tool ${quoteToolName(String(definition.name))}: input_schema must have "type": "object" ` +
        `(the provider accepts object schemas only); declare the arguments as an object`,
    );
  }
  return structuredClone(schema) as JsonObject & { type: 'object' };
}

/** The arguments text of a malformed call: JSON `null`, which no contract admits (arguments are objects). */
export const MALFORMED_ARGUMENTS = 'null';

/**
 * A call whose payload held no admissible arguments text (see `ProviderToolCall.malformed`).
 * @param problem - what was wrong, naming the payload's field (`function.arguments is null`)
 * @internal
 */
export function malformedCall(id: string, name: string, problem: string): ProviderToolCall {
  return { id, request: { name, arguments: MALFORMED_ARGUMENTS }, malformed: problem };
}

/**
 * Whether a provider's call id can name a call: a string other than `""` (a tool result must echo
 * it, and the stream assemblers use `""` for a call that has no id yet). @internal
 */
export function isCallId(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * Describes a value the provider sent where a string of JSON text belongs: `missing`, `null`,
 * `a number`, `an object`, ... @internal
 */
export function describeSent(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}

/**
 * Writes arguments a provider sends as a decoded JSON value (Anthropic `input`, Gemini `args`) as
 * JSON text, once, with the iterative encoder of `lib/protocol/json-data.ts` (the one lib/mcp
 * uses): no depth below admission's 10,000 can overflow the stack, so each call stands alone. An
 * absent value is blank arguments (`{}`); `null` stays `null`, which admission refuses (arguments
 * must be an object). A value that is not JSON data (a cycle, a BigInt, a number that is not
 * finite such as a parsed `1e400`, a lone surrogate, nesting deeper than 10,000) makes the call
 * malformed instead of throwing, so one bad call never loses its siblings. Never throws.
 * @param where - the field, for the problem text (`content[1] (tool_use "x"): input`)
 * @returns the arguments text, and the problem when the call is malformed
 * @internal
 */
export function argumentsText(value: unknown, where: string): { readonly text: string; readonly malformed?: string } {
  if (value === undefined) return { text: '{}' };
  const data = toJsonText(value);
  if (data.ok) return { text: data.text };
  // The reason leads with the JSON Pointer of the value refused: 20,000 characters at depth 10,001.
  const reason = data.reason.length > 200 ? `${data.reason.slice(0, 100)}...${data.reason.slice(-100)}` : data.reason;
  return { text: MALFORMED_ARGUMENTS, malformed: `${where} is not JSON data: ${reason}` };
}

/**
 * A `malformed` problem as the model may read it: the message of a getter or proxy trap that threw
 * while an Anthropic `input` or Gemini `args` was read (`... is not JSON data: reading the value
 * threw: <message>`) is the calling code's text, so it is cut off (docs/guarantees.md: causes never
 * reach the model); the call's `malformed` and the error's cause keep it. Regression (hostile
 * review, item 2): the model was told `reading the value threw: secret-getter`. @internal
 */
export function problemForModel(problem: string): string {
  const at = problem.indexOf(`${READING_THREW}: `);
  return at === -1 ? problem : problem.slice(0, at + READING_THREW.length);
}

/**
 * Whether a whole (non-streamed) response that stopped for `reason` holds its calls whole: true
 * when the provider gave no reason (a hand-built or partial payload: the body itself is whole),
 * or a reason in `whole` (the model ended its turn by itself); false for every other reason,
 * truncation (`length`, `max_tokens`, `MAX_TOKENS`) and reasons not known here included. A call of
 * such a response is marked `complete: false`, and so is every other call of it: the provider
 * does not say which call the cut reached (OpenAI `tool_calls` and Gemini `functionCall` parts
 * carry no per-call status; a cut Anthropic `tool_use` holds `{}` or a fragment), and a batch the
 * model never finished is not run in part (the model, told to send the calls again, would repeat
 * the ones already run). @internal
 */
export function finishedWhole(reason: unknown, whole: ReadonlySet<string>): boolean {
  return reason === undefined || reason === null || (typeof reason === 'string' && whole.has(reason));
}

/**
 * Whether a stream whose end gave `reason` (OpenAI Chat `finish_reason`, Anthropic `stop_reason`,
 * the status of a Responses terminal event) holds its calls whole: only for a reason in `whole`. Unlike a whole response (`finishedWhole`),
 * a stream that gave no reason broke off before its end (the connection dropped, the reader
 * stopped early), so it did not end its turn by itself: every call of it is incomplete, the blocks
 * that finished too, for the reasons `finishedWhole` gives. @internal
 */
export function streamedWhole(reason: unknown, whole: ReadonlySet<string>): boolean {
  return typeof reason === 'string' && whole.has(reason);
}

/**
 * The end reason of a stream that went on after its end (call content, or another reason, after
 * the first finish or stop reason or terminal status): in no `whole` set, so no call of it is
 * complete (`streamedWhole`). @internal
 */
export const WENT_ON = 'the stream went on after its end';

/**
 * A stream's end reason once the reason `given` arrives: the first one stands (the same again is
 * no change); another after it is WENT_ON. Regression (reviews): Chat `length` then `tool_calls`,
 * Anthropic `max_tokens` then `tool_use`, Responses `incomplete` then `completed` each ran the calls.
 * @internal
 */
export function endReason(current: string | null, given: string): string {
  return current === null || current === given ? given : WENT_ON;
}

/** A stream's end reason once call content arrives: WENT_ON after an end (see endReason). @internal */
export function contentAfter(current: string | null): string | null {
  return current === null ? null : WENT_ON;
}

/** How every problem of an ambiguous call id starts (see `oneCallPerId`); prepareToolCall shows it as is. @internal */
export const DUPLICATE_ID = 'duplicate call id';

/** Lists at most 5 names, quoted, then `...`. */
function quotedNames(names: Iterable<string>): string {
  const distinct = [...new Set(names)];
  const shown = distinct.slice(0, 5).map(quoteToolName).join(', ');
  return distinct.length > 5 ? `${shown}, ...` : shown;
}

/**
 * The calls of one id a stream index carried when the stream gave that index more than one id
 * (OpenAI Chat `index`, Responses `output_index`, Anthropic content block `index`): one `malformed`
 * call per id, so each id the application may have kept (the first, as scope-tool does, or the
 * last, as an SDK accumulator may) gets one refusal and nothing runs on the call. @internal
 */
export function conflictingIdCalls(
  ids: readonly string[],
  name: string,
  index: number,
  complete: boolean,
): AssembledToolCall[] {
  const listed = quotedNames(ids);
  const problem = (id: string) =>
    `${DUPLICATE_ID} ${quoteToolName(id)}: stream index ${index} was given the ids ${listed}, so the call did not run`;
  return ids.map((id) => ({ ...malformedCall(id, name, problem(id)), complete }));
}

/**
 * The one call of an id the stream gave more than one tool name (an OpenAI Chat delta naming
 * another function at the index of a started call): `malformed`, as an id given to two calls is,
 * since the application may have kept either name (the first, as scope-tool does, or the last, as
 * the `openai` SDK's accumulator does), so the call does not run and its id gets one refusal.
 * @param names - the distinct names, the first first @internal
 */
export function conflictingNameCall(id: string, names: readonly string[], complete: boolean): AssembledToolCall {
  const problem = `${DUPLICATE_ID} ${quoteToolName(id)}: the stream gave it the tool names ${quotedNames(names)}, so the call did not run`;
  return { ...malformedCall(id, names[0] ?? '', problem), complete };
}

/**
 * Every call id yields exactly one call, and no tool runs on an ambiguous one: calls sharing a
 * non-empty id become ONE call, at the place of the first, `malformed` with the problem
 * `duplicate call id "x": N calls share it (tools "a", "b"), so none of them ran`, which
 * `prepareToolCall` refuses (the id gets one refusal, neither call runs). Calls without an id
 * (Gemini may omit it and matches answers by name and order) are left as they are. The one rule of
 * every reader and stream assembler. @internal
 */
export function oneCallPerId(calls: readonly AssembledToolCall[]): AssembledToolCall[] {
  const groups = new Map<string, AssembledToolCall[]>();
  for (const call of calls) {
    if (call.id === '') continue;
    const group = groups.get(call.id);
    if (group === undefined) groups.set(call.id, [call]);
    else group.push(call);
  }
  const out: AssembledToolCall[] = [];
  for (const call of calls) {
    const group = call.id === '' ? undefined : groups.get(call.id);
    if (group === undefined || group.length === 1) {
      out.push(call);
      continue;
    }
    if (group[0] !== call) continue;
    const problem =
      `${DUPLICATE_ID} ${quoteToolName(call.id)}: ${group.length} calls share it ` +
      `(tools ${quotedNames(group.map((c) => c.request.name))}), so none of them ran`;
    out.push({ ...malformedCall(call.id, call.request.name, problem), complete: group.every((c) => c.complete) });
  }
  return out;
}
