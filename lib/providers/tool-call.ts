/**
 * The provider-neutral shape of one tool call a model proposed, and the small helpers every
 * provider projection shares (schema shape check, quoting of names in model-facing text).
 */
import { ToolError } from '../protocol';
import type { Definition, JsonObject, Request } from '../protocol';
import { toJsonText } from '../protocol/json-data';

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
   * JSON data): what was wrong, for people and the model. The call is still returned, so its id
   * gets exactly one result; `request.arguments` is then `null` (JSON text), which no contract
   * admits, and `prepareToolCall` refuses the call with an issue that says what was wrong.
   */
  readonly malformed?: string;
}

/**
 * A tool call assembled from a stream. `complete` is false when the stream ended before the call's
 * arguments finished (no `content_block_stop`, or an OpenAI `finish_reason` other than
 * `tool_calls` / `stop`); its `request.arguments` then holds the partial text as streamed (the
 * assemblers never invent text), which may be blank, and `Contract.prepare` admits blank arguments
 * as `{}`. Admit assembled calls with `prepareToolCall`, which refuses every incomplete call.
 */
export interface AssembledToolCall extends ProviderToolCall {
  readonly complete: boolean;
}

/**
 * Quotes a tool name for model-facing text as a JSON string (`"get_weather"`). Definition names
 * are ASCII (`^[A-Za-z0-9_-]{1,64}$`), where this equals Go's `%q`; a name proposed by a model
 * may be anything, and JSON quoting keeps it on one line. Names longer than 64 code units are cut.
 * @internal
 */
export function quoteToolName(name: string): string {
  const short = name.length > 64 ? `${name.slice(0, 64)}...` : name;
  return JSON.stringify(short);
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
