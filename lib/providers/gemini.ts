/**
 * Projections to and from the Google Gemini API wire format (`generateContent`), typed against
 * the `@google/genai` types (type-only imports: the SDK is never loaded at run time).
 *
 * - definitions → `tools: [{ functionDeclarations: [{ name, description, parametersJsonSchema }] }]`;
 * - a response → the `functionCall` parts of a candidate as `{ id, request }`, the object `args`
 *   serialized once;
 * - an outcome → a `functionResponse` part (`response.output`, or `response.error` for errors).
 */
import type { Content, FunctionCall, FunctionDeclaration, FunctionResponsePart, Part, Tool } from '@google/genai';
import type { Definition, JsonValue, Output } from '../protocol';
import { mediaNote, renderOutcome } from './outcome';
import type { RenderOutcomeOptions, ToolOutcome } from './outcome';
import { reviewGeminiSchema } from './schema-review';
import type { KeywordNote, ToolsExport } from './schema-review';
import { argumentsText, finishedWhole, malformedCall, objectInputSchema, oneCallPerId } from './tool-call';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';
import { checkToolNames } from './tool-names';

/** The part of a response this module reads: `candidates[].finishReason` and `candidates[].content.parts[].functionCall`. */
export interface GeminiResponseLike {
  readonly candidates?: ReadonlyArray<{ readonly finishReason?: string; readonly content?: GeminiContentLike }>;
}

/**
 * Finish reasons after which a candidate's function calls are whole (Gemini ends a turn of
 * function calls with `STOP`). Any other (`MAX_TOKENS`, `SAFETY`, `MALFORMED_FUNCTION_CALL`, one
 * not known here) marks every call incomplete (see `finishedWhole`). @internal
 */
const GEMINI_COMPLETE_REASONS: ReadonlySet<string> = new Set(['STOP']);

/** The part of a `Content` this module reads: its `parts`. */
export interface GeminiContentLike {
  readonly parts?: ReadonlyArray<Pick<Part, 'functionCall'>>;
}

/**
 * Projects definitions to function declarations, with the keywords Gemini ignores as notes
 * (`schema-review.ts`). `parametersJsonSchema` is a deep copy of the input schema, in the
 * author's order; the description is omitted when the definition has none.
 * @throws ToolError ERR_INVALID_DEFINITION when a name is refused or repeated (`tool-names.ts`),
 *   an input schema is not an object schema, or a schema Gemini would misread (naming the tool,
 *   the JSON Pointer and the keyword)
 */
export function exportGeminiFunctionDeclarations(definitions: readonly Definition[]): ToolsExport<FunctionDeclaration> {
  checkToolNames('gemini', definitions, 'geminiTools');
  const notes: KeywordNote[] = [];
  const tools: FunctionDeclaration[] = [];
  for (const definition of definitions) {
    const schema = objectInputSchema(definition, 'geminiTools');
    notes.push(...reviewGeminiSchema('geminiTools', definition, schema));
    tools.push({
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      parametersJsonSchema: schema,
    });
  }
  return { tools, notes };
}

/**
 * The `tools` request member: one Tool holding every function declaration (notes dropped; use
 * `exportGeminiFunctionDeclarations` to read them). Same `@throws`.
 */
export function geminiTools(definitions: readonly Definition[]): Tool[] {
  return [{ functionDeclarations: exportGeminiFunctionDeclarations(definitions).tools }];
}

/**
 * Reads the function calls of one candidate of a response (default: the first), in order
 * (parallel calls included). `args` arrives as a JSON object and is written once as JSON text by
 * the iterative encoder (any depth admission allows, 10,000; see `argumentsText` in
 * `tool-call.ts`; no args: `{}`). `id` is the call's `id`, or `""` when the API sent none (the
 * Gemini API may omit it; the response then matches by name and order). `args` that are not JSON
 * data (a cycle, a number that is not finite, nesting deeper than 10,000) yield a `malformed`
 * call, which `prepareToolCall` refuses; the other calls are unaffected. Calls sharing a non-empty
 * id are returned as one `malformed` call (`oneCallPerId` in `tool-call.ts`). Every call is
 * `complete` unless the candidate's `finishReason` is a string other than `STOP` (`MAX_TOKENS`:
 * the cut call's `args` may be `{}`): then every call is `complete: false` and `prepareToolCall`
 * refuses each (see `finishedWhole`); no `finishReason` counts as whole. Parts without a string
 * `name` are skipped (the response matches by name). Never throws.
 */
export function geminiFunctionCalls(response: GeminiResponseLike, candidateIndex = 0): AssembledToolCall[] {
  const candidates = Array.isArray(response?.candidates) ? response.candidates : [];
  const candidate = candidates[candidateIndex];
  const content = candidate?.content;
  return content === undefined ? [] : geminiContentFunctionCalls(content, candidate?.finishReason);
}

/**
 * Reads the function calls of one `Content` (a model turn); same rules as `geminiFunctionCalls`.
 * @param finishReason - the `finishReason` of the candidate holding the content; pass it, or a
 *   truncated turn's calls are taken as whole
 */
export function geminiContentFunctionCalls(
  content: GeminiContentLike,
  finishReason?: string | null,
): AssembledToolCall[] {
  const calls: AssembledToolCall[] = [];
  const complete = finishedWhole(finishReason, GEMINI_COMPLETE_REASONS);
  const parts = Array.isArray(content?.parts) ? content.parts : [];
  parts.forEach((part, index) => {
    const call = part?.functionCall as FunctionCall | undefined;
    if (call === undefined || call === null || typeof call.name !== 'string') return;
    const id = typeof call.id === 'string' ? call.id : '';
    const { text, malformed } = argumentsText(call.args, `parts[${index}].functionCall.args`);
    calls.push(
      malformed === undefined
        ? { id, request: { name: call.name, arguments: text }, complete }
        : { ...malformedCall(id, call.name, malformed), complete },
    );
  });
  return oneCallPerId(calls);
}

/**
 * Builds the `functionResponse` part answering one call (echoing its `id` when it had one, and
 * its name). `response`: `{ output }` for a completed call, where output is the Output's text, or
 * its details as a JSON value when it has no content blocks; `{ error }` with the text
 * `outcome.ts` renders for errors. Media blocks travel as `parts` (base64 bytes as `inlineData`,
 * URIs as `fileData`), a reference as a text note.
 * @throws ToolError ERR_INVALID_RESULT when the outcome is a suspension (an InputRequest)
 */
export function geminiFunctionResponse(
  call: ProviderToolCall,
  outcome: ToolOutcome,
  options: RenderOutcomeOptions = {},
): Part {
  const rendered = renderOutcome(call.request.name, outcome, options);
  const { value, parts } = responseValue(rendered.output);
  return {
    functionResponse: {
      ...(call.id === '' ? {} : { id: call.id }),
      name: call.request.name,
      response: rendered.isError ? { error: value } : { output: value },
      ...(parts.length === 0 ? {} : { parts }),
    },
  };
}

/** Wraps function responses into the `user` turn that answers a model turn. */
export function geminiFunctionResponseContent(parts: readonly Part[]): Content {
  return { role: 'user', parts: [...parts] };
}

function responseValue(output: Output): { value: JsonValue; parts: FunctionResponsePart[] } {
  if (output.content.length === 0 && output.details !== undefined) {
    return { value: JSON.parse(output.details) as JsonValue, parts: [] };
  }
  let text = '';
  const parts: FunctionResponsePart[] = [];
  for (const block of output.content) {
    if (block.kind === 'text') {
      text += block.text;
      continue;
    }
    const { mime, source } = block.media;
    if (source.kind === 'bytes') parts.push({ inlineData: { mimeType: mime, data: source.bytes } });
    else if (source.kind === 'uri') parts.push({ fileData: { mimeType: mime, fileUri: source.uri } });
    else text += mediaNote(mime);
  }
  return { value: text, parts };
}
