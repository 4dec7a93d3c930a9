/**
 * Projections to and from the OpenAI Responses API wire format (`POST /v1/responses`), typed
 * against the `openai` SDK's types (type-only imports: the SDK is never loaded at run time).
 *
 * - definitions → `tools` (`{ type: 'function', name, description, parameters, strict }`);
 * - a response → its `function_call` output items as `{ id: call_id, request, complete }`;
 * - an outcome → the `function_call_output` input item answering one call.
 * Streamed events are assembled by `openai-responses-stream.ts`.
 */
import type {
  FunctionTool,
  Response,
  ResponseFunctionCallOutputItem,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { Definition, Output } from '../protocol';
import { mediaNote, renderOutcome } from './outcome';
import type { RenderOutcomeOptions, ToolOutcome } from './outcome';
import { openAIFunctionExports } from './openai-functions';
import type { OpenAIToolsOptions } from './openai-functions';
import type { ToolsExport } from './schema-review';
import { describeSent, finishedWhole, malformedCall, oneCallPerId } from './tool-call';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';

/** The part of a response this module reads: `status` and the `output` items (SDK `Response`). */
export interface OpenAIResponseLike {
  readonly status?: Response['status'];
  readonly output: ReadonlyArray<Pick<ResponseFunctionToolCall, 'type'> | { readonly type: string }>;
}

/**
 * Statuses after which a response's calls, or a `function_call` item, are whole: the model ended
 * its turn by itself. Any other status of the response (`incomplete`: cut by `max_output_tokens`;
 * `failed`, `cancelled`, `in_progress`, `queued`, one not known here) or of an item (`incomplete`,
 * `in_progress`) marks the calls incomplete (see `finishedWhole`; a stream's, `streamedWhole`).
 * @internal
 */
export const RESPONSES_COMPLETE_STATUSES: ReadonlySet<string> = new Set(['completed']);

/**
 * Projects definitions to the Responses `tools` array, with the keyword notes. `strict` is always
 * sent explicitly (`false` unless `options.strict`), because the Responses API treats an absent
 * `strict` as `true`. With `strict: true` the parameters are the strict-mode schema of `strict.ts`
 * (answer calls through `restoreStrictToolCall`); its removed keywords are the notes.
 * @throws ToolError ERR_INVALID_DEFINITION when a name is refused or repeated (`tool-names.ts`),
 *   an input schema is not an object schema, or (strict) a schema strict mode would misread
 */
export function exportOpenAIResponsesTools(
  definitions: readonly Definition[],
  options: OpenAIToolsOptions = {},
): ToolsExport<FunctionTool> {
  const strict = options.strict === true;
  const { entries, notes } = openAIFunctionExports('openai-responses', definitions, strict, 'openAIResponsesTools');
  const tools = entries.map(({ definition, parameters }): FunctionTool => ({
    type: 'function',
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    parameters,
    strict,
  }));
  return { tools, notes };
}

/** The `tools` of `exportOpenAIResponsesTools`, without the notes. Same `@throws`. */
export function openAIResponsesTools(
  definitions: readonly Definition[],
  options: OpenAIToolsOptions = {},
): FunctionTool[] {
  return exportOpenAIResponsesTools(definitions, options).tools;
}

/**
 * Reads the `function_call` items of a response's `output`, in order (parallel calls included).
 * `id` is the item's `call_id` (what `function_call_output` echoes), `arguments` the model's text
 * exactly. A call is `complete` unless some call's item `status` is a string other than `completed`
 * (`in_progress`, `incomplete`), or the response's own `status` is one (`incomplete`: cut off by
 * `max_output_tokens`; `failed`, `cancelled`, `in_progress`, `queued`): either way every call of the
 * response is `complete: false` (see `finishedWhole` for why all of them), as the stream assembler
 * marks them; no status counts as whole. Admit with `prepareToolCall`, which refuses incomplete
 * calls. Every `function_call` item with a string `call_id` yields one call, so every id gets
 * exactly one result: `arguments` null, missing or not a string yields a `malformed` call, a
 * missing name the name `""`, both refused by `prepareToolCall`; items sharing a `call_id` are
 * returned as one `malformed` call (`oneCallPerId` in `tool-call.ts`: none runs, the id gets one
 * refusal). Other items (messages, reasoning, built-in tool calls) and items without a string
 * `call_id` (which cannot be answered) are skipped; never throws.
 */
export function openAIResponsesToolCalls(response: OpenAIResponseLike): AssembledToolCall[] {
  const calls: AssembledToolCall[] = [];
  const items = (Array.isArray(response?.output) ? response.output : []).filter(
    (item) => item?.type === 'function_call' && typeof (item as { call_id?: unknown }).call_id === 'string',
  ) as { call_id: string; name?: unknown; arguments?: unknown; status?: unknown }[];
  // One unfinished item leaves the batch unfinished: no call of it runs (second review).
  const complete =
    finishedWhole(response?.status, RESPONSES_COMPLETE_STATUSES) &&
    items.every((item) => finishedWhole(item.status, RESPONSES_COMPLETE_STATUSES));
  for (const call of items) {
    const name = typeof call.name === 'string' ? call.name : '';
    const problem = `arguments is ${describeSent(call.arguments)}, not a string of JSON text`;
    calls.push(
      typeof call.arguments === 'string'
        ? { id: call.call_id, request: { name, arguments: call.arguments }, complete }
        : { ...malformedCall(call.call_id, name, problem), complete },
    );
  }
  return oneCallPerId(calls);
}

/**
 * Builds the `function_call_output` item answering one call. `output`: an Output's `asText()`
 * as a string; an Output holding media as content items (`input_text`; images as `input_image`
 * with a `data:` URL for base64 bytes or the http(s) URL; other media replaced by a text note);
 * errors as `outcome.ts` renders them (prefixed `error:` or `tool:`; this item has no error flag).
 * @param call - the call being answered (its `id`, the `call_id`, is echoed)
 * @throws ToolError ERR_INVALID_RESULT when the outcome is a suspension (an InputRequest)
 */
export function openAIFunctionCallOutput(
  call: ProviderToolCall,
  outcome: ToolOutcome,
  options: RenderOutcomeOptions = {},
): ResponseInputItem.FunctionCallOutput {
  const rendered = renderOutcome(call.request.name, outcome, options);
  return { type: 'function_call_output', call_id: call.id, output: responsesOutput(rendered.output) };
}

function responsesOutput(output: Output): string | ResponseFunctionCallOutputItem[] {
  const text = output.asText();
  if (text !== undefined) return text;
  return output.content.map((block): ResponseFunctionCallOutputItem => {
    if (block.kind === 'text') return { type: 'input_text', text: block.text };
    const mime = block.media.mime.split(';')[0].trim().toLowerCase();
    const source = block.media.source;
    if (mime.startsWith('image/') && source.kind === 'bytes') {
      return { type: 'input_image', image_url: `data:${mime};base64,${source.bytes}` };
    }
    if (mime.startsWith('image/') && source.kind === 'uri' && /^https?:\/\//i.test(source.uri)) {
      return { type: 'input_image', image_url: source.uri };
    }
    return { type: 'input_text', text: mediaNote(block.media.mime) };
  });
}
