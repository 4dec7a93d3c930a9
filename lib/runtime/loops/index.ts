/**
 * The provider loops of the runtime (issue 13): one per provider SDK, each driving the model until
 * it answers without tools, a call suspends, or `maxSteps` requests were made.
 */
export { DEFAULT_MAX_STEPS, type LoopAnswer, type LoopOptions, type LoopProgress, type LoopStatus } from './loop';
export { LoopError, type LoopErrorCode } from './errors';
export {
  runOpenAIChatLoop,
  type OpenAIChatLoopOptions,
  type OpenAIChatLoopRequest,
  type OpenAIChatLoopResult,
} from './openai-chat';
export {
  runOpenAIResponsesLoop,
  type OpenAIResponsesLoopOptions,
  type OpenAIResponsesLoopRequest,
  type OpenAIResponsesLoopResult,
} from './openai-responses';
export {
  runAnthropicMessagesLoop,
  type AnthropicMessagesLoopOptions,
  type AnthropicMessagesLoopRequest,
  type AnthropicMessagesLoopResult,
} from './anthropic-messages';
