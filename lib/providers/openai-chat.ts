/**
 * Projections to and from the OpenAI Chat Completions wire format (`POST /v1/chat/completions`),
 * typed against the `openai` SDK's types (type-only imports: the SDK is never loaded at run time).
 *
 * - definitions → `tools` (`{ type: 'function', function: { name, description, parameters, strict? } }`);
 * - a completion → its function tool calls as `{ id, request }`, arguments kept exactly as sent;
 * - an outcome → the `{ role: 'tool', tool_call_id, content }` message (see `outcome.ts` rules).
 * Streaming chunks are assembled by `openai-chat-stream.ts`.
 */
import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { Definition } from '../protocol';
import { renderOutcome, plainTextOf } from './outcome';
import type { RenderOutcomeOptions, ToolOutcome } from './outcome';
import { openAIFunctionExports } from './openai-functions';
import type { OpenAIToolsOptions } from './openai-functions';
import type { ToolsExport } from './schema-review';
import { CHAT_COMPLETE_REASONS } from './openai-chat-stream';
import { describeSent, finishedWhole, malformedCall, oneCallPerId } from './tool-call';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';

/** The part of an assistant message this module reads: its `tool_calls` (SDK `ChatCompletionMessage`). */
export type OpenAIChatMessageLike = Pick<ChatCompletionMessage, 'tool_calls'>;

/**
 * The part of a completion this module reads: `choices[].index`, `choices[].finish_reason` and
 * `choices[].message.tool_calls`.
 */
export interface OpenAIChatCompletionLike {
  readonly choices: ReadonlyArray<
    Pick<ChatCompletion.Choice, 'index'> & {
      readonly finish_reason?: string | null;
      readonly message: OpenAIChatMessageLike;
    }
  >;
}

/**
 * Projects definitions to the Chat Completions `tools` array, with the keyword notes. The
 * description is omitted when the definition has none. Without `strict`, `parameters` is a deep
 * copy of the input schema in the author's order and no `strict` member is sent (notes are
 * empty: the schema is shown to the model as is). With `options.strict`, `parameters` is the
 * strict-mode schema of `strict.ts` and `function.strict` is `true`; its removed keywords are the
 * notes, and calls must pass through `restoreStrictToolCall` before admission.
 * @throws ToolError ERR_INVALID_DEFINITION when a name is refused or repeated (`tool-names.ts`),
 *   an input schema is not an object schema, or (strict) a schema strict mode would misread
 */
export function exportOpenAIChatTools(
  definitions: readonly Definition[],
  options: OpenAIToolsOptions = {},
): ToolsExport<ChatCompletionFunctionTool> {
  const strict = options.strict === true;
  const { entries, notes } = openAIFunctionExports('openai-chat', definitions, strict, 'openAIChatTools');
  const tools = entries.map(({ definition, parameters }): ChatCompletionFunctionTool => ({
    type: 'function',
    function: {
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      parameters,
      ...(strict ? { strict: true } : {}),
    },
  }));
  return { tools, notes };
}

/** The `tools` of `exportOpenAIChatTools`, without the notes. Same `@throws`. */
export function openAIChatTools(
  definitions: readonly Definition[],
  options: OpenAIToolsOptions = {},
): ChatCompletionFunctionTool[] {
  return exportOpenAIChatTools(definitions, options).tools;
}

/**
 * Reads the function tool calls of one choice of a completion (default: the choice with `index`
 * 0). `function.arguments` is already the model's JSON text and is kept exactly (whitespace and
 * all), so admission sees what the model sent. Custom (free-text) tool calls are not function calls
 * and are skipped. Never throws on a malformed completion. Every function call with a string `id`
 * yields one call, so every id gets exactly one result: `arguments` null, missing or not a string
 * (OpenAI-compatible servers send that) yields a `malformed` call, a missing name the name `""`,
 * both refused by `prepareToolCall` with an issue saying what was wrong; calls sharing an id are
 * returned as one `malformed` call (`oneCallPerId` in `tool-call.ts`: neither runs, the id gets
 * one refusal). An `id` that is a number (`7`, which some OpenAI-compatible servers send) is read as
 * its decimal text (`"7"`) and the call is `malformed` (`id is a number, not a string`), so it is
 * refused and answered, never dropped; entries with no other id (missing, null, an object, ...)
 * cannot be answered and are skipped; an entry without
 * `type` counts as a function call when it has a `function` member. Every call is `complete`
 * unless the choice's `finish_reason` is a string other than `tool_calls` or `stop` (`length`:
 * cut by `max_tokens`; `content_filter`; a reason not known here): then every call of the choice
 * is `complete: false`, as the stream assembler marks them, and `prepareToolCall` refuses each
 * (see `finishedWhole` for why all of them). No `finish_reason` counts as whole.
 * @returns the calls in the order the model proposed them (parallel calls included)
 */
export function openAIChatToolCalls(completion: OpenAIChatCompletionLike, choiceIndex = 0): AssembledToolCall[] {
  const choices = Array.isArray(completion?.choices) ? completion.choices : [];
  const choice = choices.find((c) => c?.index === choiceIndex) ?? (choiceIndex === 0 ? choices[0] : undefined);
  return choice?.message === undefined ? [] : openAIMessageToolCalls(choice.message, choice.finish_reason);
}

/**
 * Reads the function tool calls of one assistant message; same rules as `openAIChatToolCalls`.
 * @param finishReason - the `finish_reason` of the choice holding the message; pass it, or a
 *   truncated message's calls are taken as whole
 */
export function openAIMessageToolCalls(
  message: OpenAIChatMessageLike,
  finishReason?: string | null,
): AssembledToolCall[] {
  const calls: AssembledToolCall[] = [];
  const complete = finishedWhole(finishReason, CHAT_COMPLETE_REASONS);
  for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
    const entry = call as { id?: unknown; type?: unknown; function?: unknown } | null | undefined;
    // Regression (hostile review, item 3): a number id (7) dropped the call silently; it is read
    // as its decimal text and the call is malformed, as a non-string name or arguments makes it refused.
    const rawId = entry?.id;
    if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isFinite(rawId))) continue;
    if (entry!.type !== 'function' && !(entry!.type === undefined && typeof entry!.function === 'object')) continue;
    const id = String(rawId);
    const fn = entry!.function as { name?: unknown; arguments?: unknown } | null | undefined;
    const name = typeof fn?.name === 'string' ? fn.name : '';
    const args = fn?.arguments;
    if (typeof rawId !== 'string') {
      calls.push({ ...malformedCall(id, name, `id is ${describeSent(rawId)}, not a string`), complete });
      continue;
    }
    calls.push(
      typeof args === 'string'
        ? { id, request: { name, arguments: args }, complete }
        : {
            ...malformedCall(id, name, `function.arguments is ${describeSent(args)}, not a string of JSON text`),
            complete,
          },
    );
  }
  return oneCallPerId(calls);
}

/**
 * Builds the tool message answering one call. `content` is the rendered outcome's text: an
 * Output's `asText()`; for an Output holding media, text blocks in order with each media block
 * replaced by a note that it was omitted (Chat Completions tool messages carry text only); errors
 * as `outcome.ts` renders them (prefixed `error:` or `tool:`; there is no error flag in this format).
 * @param call - the call being answered (its `id` becomes `tool_call_id`)
 * @throws ToolError ERR_INVALID_RESULT when the outcome is a suspension (an InputRequest)
 */
export function openAIToolMessage(
  call: ProviderToolCall,
  outcome: ToolOutcome,
  options: RenderOutcomeOptions = {},
): ChatCompletionToolMessageParam {
  const rendered = renderOutcome(call.request.name, outcome, options);
  return { role: 'tool', tool_call_id: call.id, content: plainTextOf(rendered.output) };
}
