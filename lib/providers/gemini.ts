/**
 * Projections to and from the Google Gemini API wire format (`generateContent`), typed against
 * the `@google/genai` types (type-only imports: the SDK is never loaded at run time).
 *
 * - definitions → `tools: [{ functionDeclarations: [{ name, description, parametersJsonSchema }] }]`;
 * - a response → the `functionCall` parts of a candidate as `{ id, request }`, the object `args`
 *   serialized once;
 * - an outcome → a `functionResponse` part (`response.output`, or `response.error` for errors).
 */
import type {
  Content,
  FunctionCall,
  FunctionDeclaration,
  FunctionResponsePart,
  GenerateContentResponse,
  Part,
  Tool,
} from '@google/genai';
import { ToolError } from '../protocol';
import type { Definition, JsonValue, Output } from '../protocol';
import { mediaNote, renderOutcome } from './outcome';
import type { RenderOutcomeOptions, ToolOutcome } from './outcome';
import { reviewGeminiSchema } from './schema-review';
import type { KeywordNote, ToolsExport } from './schema-review';
import { argumentsText, malformedCall, objectInputSchema } from './tool-call';
import type { ProviderToolCall } from './tool-call';
import { checkToolNames } from './tool-names';

/** The part of a response this module reads: `candidates[].content.parts[].functionCall`. */
export interface GeminiResponseLike {
  readonly candidates?: ReadonlyArray<{ readonly content?: GeminiContentLike }>;
}

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
 * call, which `prepareToolCall` refuses; the other calls are unaffected. Parts without a string
 * `name` are skipped (the response matches by name). Never throws.
 */
export function geminiFunctionCalls(response: GeminiResponseLike, candidateIndex = 0): ProviderToolCall[] {
  const candidates = Array.isArray(response?.candidates) ? response.candidates : [];
  const content = candidates[candidateIndex]?.content;
  return content === undefined ? [] : geminiContentFunctionCalls(content);
}

/** Reads the function calls of one `Content` (a model turn); same rules as `geminiFunctionCalls`. */
export function geminiContentFunctionCalls(content: GeminiContentLike): ProviderToolCall[] {
  const calls: ProviderToolCall[] = [];
  const parts = Array.isArray(content?.parts) ? content.parts : [];
  parts.forEach((part, index) => {
    const call = part?.functionCall as FunctionCall | undefined;
    if (call === undefined || call === null || typeof call.name !== 'string') return;
    const id = typeof call.id === 'string' ? call.id : '';
    const { text, malformed } = argumentsText(call.args, `parts[${index}].functionCall.args`);
    calls.push(malformed === undefined ? { id, request: { name: call.name, arguments: text } } : malformedCall(id, call.name, malformed));
  });
  return calls;
}

/**
 * Builds the `functionResponse` part answering one call (echoing its `id` when it had one, and
 * its name). `response`: `{ output }` for a completed call, where output is the Output's text, or
 * its details as a JSON value when it has no content blocks; `{ error }` with the text
 * `outcome.ts` renders for errors. Media blocks travel as `parts` (base64 bytes as `inlineData`,
 * URIs as `fileData`), a reference as a text note.
 * @throws ToolError ERR_INVALID_RESULT when the outcome is a suspension (an InputRequest)
 */
export function geminiFunctionResponse(call: ProviderToolCall, outcome: ToolOutcome, options: RenderOutcomeOptions = {}): Part {
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
