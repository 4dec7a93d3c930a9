/**
 * lib/providers, the layer's surface for the other layers (lib/mcp, lib/runtime) and the package
 * entries: projections to and from OpenAI Chat Completions and Responses (plus strict mode),
 * Anthropic Messages and Google Gemini, and the provider-neutral steps between them (reading a
 * call, `prepareToolCall`, `renderOutcome`). Depends on lib/protocol only; the SDKs are used for
 * their types alone.
 *
 * The package publishes these through four entries, not this module: the provider-neutral part in
 * `scope-tool` (lib/index.ts) and each provider in its own entry, `scope-tool/openai`
 * (lib/openai.ts), `scope-tool/anthropic` (lib/anthropic.ts) and `scope-tool/gemini`
 * (lib/gemini.ts).
 */
// Provider-neutral: one call as read from any provider, its admission and its rendering.
export type { AssembledToolCall, ProviderToolCall } from './tool-call';
export { isSuspendedOutcome, plainTextOf, renderOutcome } from './outcome';
export type { OutcomeKind, RenderOutcomeOptions, RenderedOutcome, ToolOutcome } from './outcome';
export { describeInvalidArguments } from './invalid-arguments';
export { MAX_LISTED_TOOLS, prepareToolCall } from './prepare';
export type { PreparedToolCall } from './prepare';
export { parseServerSentEvents, parseServerSentJson } from './sse';
export type { ServerSentEvent } from './sse';
export type { KeywordNote, ToolProvider, ToolsExport } from './schema-review';
// OpenAI Chat Completions, Responses and strict mode.
export {
  exportOpenAIChatTools,
  openAIChatToolCalls,
  openAIChatTools,
  openAIMessageToolCalls,
  openAIToolMessage,
} from './openai-chat';
export type { OpenAIChatCompletionLike, OpenAIChatMessageLike } from './openai-chat';
export { OpenAIChatStreamAssembler } from './openai-chat-stream';
export type { OpenAIToolsOptions } from './openai-functions';
export {
  exportOpenAIResponsesTools,
  openAIFunctionCallOutput,
  openAIResponsesToolCalls,
  openAIResponsesTools,
} from './openai-responses';
export type { OpenAIResponseLike } from './openai-responses';
export { OpenAIResponsesStreamAssembler } from './openai-responses-stream';
export { strictInputSchema } from './strict';
export type { RemovedKeyword, StrictSchema } from './strict';
export { restoreOptionalMembers, restoreStrictToolCall } from './strict-arguments';
// Anthropic Messages.
export {
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
  exportAnthropicTools,
} from './anthropic-messages';
export type { AnthropicMessageLike } from './anthropic-messages';
export { AnthropicStreamAssembler } from './anthropic-stream';
// Google Gemini.
export {
  exportGeminiFunctionDeclarations,
  geminiContentFunctionCalls,
  geminiFunctionCalls,
  geminiFunctionResponse,
  geminiFunctionResponseContent,
  geminiTools,
} from './gemini';
export type { GeminiContentLike, GeminiResponseLike } from './gemini';
