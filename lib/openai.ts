/**
 * `scope-tool/openai`: projections to and from the OpenAI Chat Completions
 * (`POST /v1/chat/completions`) and Responses (`POST /v1/responses`) wire formats, strict mode
 * included. Typed against the `openai` SDK's types, which are type-only imports: this entry loads
 * no SDK at run time.
 *
 * - definitions → `tools`: `openAIChatTools`, `openAIResponsesTools` (`export*` variants also
 *   return the keyword notes; `{ strict: true }` exports strict-mode schemas, see `strictInputSchema`);
 * - a response → its calls: `openAIChatToolCalls`, `openAIMessageToolCalls`,
 *   `openAIResponsesToolCalls`; a stream → `OpenAIChatStreamAssembler`, `OpenAIResponsesStreamAssembler`;
 * - strict-mode arguments back to the tool's contract: `restoreStrictToolCall`, `restoreOptionalMembers`;
 * - an outcome → the tool result: `openAIToolMessage` (Chat), `openAIFunctionCallOutput` (Responses).
 *
 * The provider-neutral steps (`prepareToolCall`, `renderOutcome`, `parseServerSentJson`) and the
 * shared types (`ProviderToolCall`, `AssembledToolCall`, `ToolOutcome`, `ToolsExport`,
 * `KeywordNote`) are in the main entry, `scope-tool`.
 */
export {
  OpenAIChatStreamAssembler,
  OpenAIResponsesStreamAssembler,
  exportOpenAIChatTools,
  exportOpenAIResponsesTools,
  openAIChatToolCalls,
  openAIChatTools,
  openAIFunctionCallOutput,
  openAIMessageToolCalls,
  openAIResponsesToolCalls,
  openAIResponsesTools,
  openAIToolMessage,
  restoreOptionalMembers,
  restoreStrictToolCall,
  strictInputSchema,
} from './providers';
export type {
  OpenAIChatCompletionLike,
  OpenAIChatMessageLike,
  OpenAIResponseLike,
  OpenAIToolsOptions,
  RemovedKeyword,
  StrictSchema,
} from './providers';
