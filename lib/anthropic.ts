/**
 * `scope-tool/anthropic`: projections to and from the Anthropic Messages wire format
 * (`POST /v1/messages`). Typed against the `@anthropic-ai/sdk` types, which are type-only
 * imports: this entry loads no SDK at run time.
 *
 * - definitions → `tools`: `anthropicTools` (`exportAnthropicTools` also returns the keyword notes);
 * - a message → its `tool_use` calls: `anthropicToolCalls`; a stream → `AnthropicStreamAssembler`;
 * - an outcome → a `tool_result` block (`anthropicToolResult`, `is_error` for errors), and the
 *   blocks of one turn → the user message that carries them (`anthropicToolResultMessage`).
 *
 * The provider-neutral steps (`prepareToolCall`, `renderOutcome`, `parseServerSentJson`) and the
 * shared types (`ProviderToolCall`, `AssembledToolCall`, `ToolOutcome`, `ToolsExport`,
 * `KeywordNote`) are in the main entry, `scope-tool`.
 */
export {
  AnthropicStreamAssembler,
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
  exportAnthropicTools,
} from './providers';
export type { AnthropicMessageLike } from './providers';
