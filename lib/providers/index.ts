/**
 * Provider projections: OpenAI Chat Completions and Responses, Anthropic Messages and Google
 * Gemini (plus OpenAI strict mode), to and from scope-tool's
 * protocol values (Definition, Request, Result, errors). Depends on lib/protocol only; the SDKs
 * are used for their types alone.
 */
export type { AssembledToolCall, ProviderToolCall } from './tool-call';
export { isSuspendedOutcome, renderOutcome, plainTextOf } from './outcome';
export type { OutcomeKind, RenderOutcomeOptions, RenderedOutcome, ToolOutcome } from './outcome';
export { describeInvalidArguments, jsonPointer } from './invalid-arguments';
export { MAX_LISTED_TOOLS, prepareToolCall } from './prepare';
export type { PreparedToolCall } from './prepare';
export { parseServerSentEvents, parseServerSentJson } from './sse';
export type { ServerSentEvent } from './sse';
export { openAIChatToolCalls, openAIChatTools, openAIMessageToolCalls, openAIToolMessage } from './openai-chat';
export type { OpenAIChatCompletionLike, OpenAIChatMessageLike } from './openai-chat';
export {
  OpenAIChatStreamAssembler,
  assembleOpenAIChatToolCalls,
  openAIChatStreamToolCalls,
} from './openai-chat-stream';
export {
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
} from './anthropic-messages';
export type { AnthropicMessageLike } from './anthropic-messages';
export { AnthropicStreamAssembler, anthropicStreamToolCalls, assembleAnthropicToolCalls } from './anthropic-stream';
export type { OpenAIToolsOptions } from './openai-functions';
export { exportOpenAIChatTools } from './openai-chat';
export {
  exportOpenAIResponsesTools,
  openAIFunctionCallOutput,
  openAIResponsesToolCalls,
  openAIResponsesTools,
} from './openai-responses';
export type { OpenAIResponseLike } from './openai-responses';
export {
  OpenAIResponsesStreamAssembler,
  assembleOpenAIResponsesToolCalls,
  openAIResponsesStreamToolCalls,
} from './openai-responses-stream';
export { exportAnthropicTools } from './anthropic-messages';
export {
  exportGeminiFunctionDeclarations,
  geminiContentFunctionCalls,
  geminiFunctionCalls,
  geminiFunctionResponse,
  geminiFunctionResponseContent,
  geminiTools,
} from './gemini';
export type { GeminiContentLike, GeminiResponseLike } from './gemini';
export { strictInputSchema } from './strict';
export type { RemovedKeyword, StrictSchema } from './strict';
export { restoreOptionalMembers, restoreStrictToolCall } from './strict-arguments';
export type { KeywordNote, ToolProvider, ToolsExport } from './schema-review';
