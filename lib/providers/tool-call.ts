/**
 * The provider-neutral shape of one tool call a model proposed, and the small helpers every
 * provider projection shares (schema shape check, quoting of names in model-facing text).
 */
import { ToolError } from '../protocol';
import type { Definition, JsonObject, Request } from '../protocol';

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

/**
 * Serializes arguments a provider sends as a decoded JSON value (Anthropic `input`, Gemini `args`)
 * once, so they are admitted like any other arguments text. An absent value is blank arguments
 * (`{}`); `null` stays `null`, which admission refuses (arguments must be an object).
 * @param where - the place, for the error (`anthropicToolCalls: content[1] (tool_use "x"): input`)
 * @throws ToolError ERR_INVALID_REQUEST when the value cannot be serialized as JSON (a cycle, a BigInt)
 * @internal
 */
export function serializeArguments(value: unknown, where: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value === undefined ? {} : value);
  } catch {
    text = undefined;
  }
  if (typeof text !== 'string') {
    throw new ToolError('ERR_INVALID_REQUEST', `${where} cannot be serialized as JSON; pass the payload as decoded from the API`);
  }
  return text;
}
