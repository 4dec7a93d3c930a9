/**
 * Projections to and from the Anthropic Messages wire format (`POST /v1/messages`), typed against
 * the `@anthropic-ai/sdk` types (type-only imports: the SDK is never loaded at run time).
 *
 * - definitions → `tools` (`{ name, description, input_schema }`);
 * - a message → its `tool_use` blocks as `{ id, request }`;
 * - an outcome → a `tool_result` block (`is_error: true` for errors), and results → a user message.
 * Streams (`input_json_delta`) are assembled by `anthropic-stream.ts`.
 */
import type {
  ImageBlockParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlock,
  UserMessageParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Definition, Output } from '../protocol';
import { mediaNote, renderOutcome } from './outcome';
import type { RenderOutcomeOptions, ToolOutcome } from './outcome';
import type { ToolsExport } from './schema-review';
import { argumentsText, finishedWhole, malformedCall, objectInputSchema, oneCallPerId } from './tool-call';
import { checkToolNames } from './tool-names';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';

/** The part of a message this module reads: `stop_reason` and the `content[]` blocks, of which `tool_use` ones (SDK `Message`). */
export interface AnthropicMessageLike {
  readonly stop_reason?: string | null;
  readonly content: ReadonlyArray<Pick<ToolUseBlock, 'type' | 'id' | 'name' | 'input'> | { readonly type: string }>;
}

/**
 * Stop reasons after which a message's `tool_use` blocks are whole: the model ended its turn by
 * itself. Any other (`max_tokens`, `model_context_window_exceeded`, `refusal`, `pause_turn`,
 * `stop_sequence`, one not known here) marks every call incomplete (see `finishedWhole`). @internal
 */
export const ANTHROPIC_COMPLETE_REASONS: ReadonlySet<string> = new Set(['tool_use', 'end_turn']);

/** Image media types a tool_result image block accepts (`Base64ImageSource.media_type`). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Projects definitions to the Messages `tools` array, with the keyword notes (always empty: the
 * Messages API shows the schema to the model as is). The description is omitted when the
 * definition has none; `input_schema` is a deep copy of the input schema, in the author's order.
 * @throws ToolError ERR_INVALID_DEFINITION when a name is refused or repeated (`tool-names.ts`) or
 *   an input schema is not an object schema
 */
export function exportAnthropicTools(definitions: readonly Definition[]): ToolsExport<Tool> {
  checkToolNames('anthropic', definitions, 'anthropicTools');
  const tools = definitions.map((definition) => ({
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    input_schema: objectInputSchema(definition, 'anthropicTools'),
  }));
  return { tools, notes: [] };
}

/** The `tools` of `exportAnthropicTools`, without the notes. Same `@throws`. */
export function anthropicTools(definitions: readonly Definition[]): Tool[] {
  return exportAnthropicTools(definitions).tools;
}

/**
 * Reads the `tool_use` blocks of a message, in order (parallel calls included). Anthropic sends
 * `input` as a JSON object, so it is written once as JSON text by the iterative encoder (any depth
 * admission allows, 10,000; see `argumentsText` in `tool-call.ts`); the model's exact text is not
 * available here (whitespace, member order as parsed; numbers beyond 2^53 and duplicate members
 * were already settled by whoever parsed the HTTP body). Every block with a string `id` yields one
 * call, so every id gets exactly one result: an `input` that is not JSON data (a cycle, a number
 * that is not finite, nesting deeper than 10,000) yields a `malformed` call, a missing `name` the
 * name `""`, both refused by `prepareToolCall`; the other calls are unaffected. Blocks sharing an
 * id are returned as one `malformed` call (`oneCallPerId` in `tool-call.ts`: none runs, the id gets
 * one refusal). Every call is `complete` unless `stop_reason` is a string other than `tool_use` or
 * `end_turn` (`max_tokens`: the API then sends the cut block's `input` as `{}` or a fragment):
 * then every call is `complete: false` and `prepareToolCall` refuses each (see `finishedWhole`);
 * no `stop_reason` counts as whole. Blocks of other types, and blocks without a string `id`
 * (which cannot be answered), are skipped. Never throws.
 */
export function anthropicToolCalls(message: AnthropicMessageLike): AssembledToolCall[] {
  const calls: AssembledToolCall[] = [];
  const complete = finishedWhole(message?.stop_reason, ANTHROPIC_COMPLETE_REASONS);
  const blocks = Array.isArray(message?.content) ? message.content : [];
  blocks.forEach((block, index) => {
    if (block?.type !== 'tool_use') return;
    const use = block as Pick<ToolUseBlock, 'id' | 'name' | 'input'>;
    if (typeof use.id !== 'string') return;
    const name = typeof use.name === 'string' ? use.name : '';
    const { text, malformed } = argumentsText(use.input, `content[${index}].input`);
    calls.push(
      malformed === undefined
        ? { id: use.id, request: { name, arguments: text }, complete }
        : { ...malformedCall(use.id, name, malformed), complete },
    );
  });
  return oneCallPerId(calls);
}

/**
 * Builds the `tool_result` block answering one call. Content: an Output's `asText()` as a string;
 * an Output holding media as blocks (text blocks, images of type jpeg/png/gif/webp as base64 or
 * http(s) URL image blocks, other media replaced by a text note); errors as `outcome.ts` renders
 * them, with `is_error: true` (absent on success).
 * @param call - the call being answered (its `id` becomes `tool_use_id`)
 * @throws ToolError ERR_INVALID_RESULT when the outcome is a suspension (an InputRequest)
 */
export function anthropicToolResult(
  call: ProviderToolCall,
  outcome: ToolOutcome,
  options: RenderOutcomeOptions = {},
): ToolResultBlockParam {
  const rendered = renderOutcome(call.request.name, outcome, options);
  return {
    type: 'tool_result',
    tool_use_id: call.id,
    content: anthropicContent(rendered.output),
    ...(rendered.isError ? { is_error: true } : {}),
  };
}

/**
 * Wraps tool results into the user message that answers an assistant turn (`tool_result` blocks
 * must come first in that message; one per `tool_use`, in any order).
 */
export function anthropicToolResultMessage(results: readonly ToolResultBlockParam[]): UserMessageParam {
  return { role: 'user', content: [...results] };
}

function anthropicContent(output: Output): string | Array<TextBlockParam | ImageBlockParam> {
  const text = output.asText();
  if (text !== undefined) return text;
  return output.content.map((block): TextBlockParam | ImageBlockParam => {
    if (block.kind === 'text') return { type: 'text', text: block.text };
    const mime = block.media.mime.split(';')[0].trim().toLowerCase();
    const source = block.media.source;
    if (IMAGE_TYPES.has(mime) && source.kind === 'bytes') {
      return {
        type: 'image',
        source: { type: 'base64', media_type: mime as 'image/png', data: source.bytes },
      };
    }
    if (IMAGE_TYPES.has(mime) && source.kind === 'uri' && /^https?:\/\//i.test(source.uri)) {
      return { type: 'image', source: { type: 'url', url: source.uri } };
    }
    return { type: 'text', text: mediaNote(block.media.mime) };
  });
}
