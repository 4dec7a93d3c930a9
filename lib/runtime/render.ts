/**
 * A turn's outcomes in each provider's own result format, ready to append to the conversation:
 * every settled outcome through the lib/providers renderer of that format (so the rules of
 * lib/providers/outcome.ts hold: diagnostics never reach the model), in the order given.
 */
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { UserMessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Content } from '@google/genai';
import { ToolError } from '../protocol';
import { anthropicToolResult, anthropicToolResultMessage } from '../providers/anthropic-messages';
import { geminiFunctionResponse, geminiFunctionResponseContent } from '../providers/gemini';
import { openAIToolMessage } from '../providers/openai-chat';
import { openAIFunctionCallOutput } from '../providers/openai-responses';
import type { CallOutcome, SettledCallOutcome } from './outcome';

/**
 * The settled outcomes, in order.
 * @throws ToolError ERR_INVALID_RESULT when one is suspended: it has no result yet
 */
function settled(outcomes: readonly CallOutcome[], where: string): SettledCallOutcome[] {
  return outcomes.map((outcome) => {
    if (outcome.kind !== 'suspended') return outcome;
    throw new ToolError(
      'ERR_INVALID_RESULT',
      `${where}: call ${JSON.stringify(outcome.call.id)} (tool ${JSON.stringify(outcome.call.request.name)}) is suspended ` +
        'and has no result yet; ask outcome.inputRequest.prompt, answer with runtime.resume, and render the outcome ' +
        "it returns with the turn's other outcomes (or leave suspended outcomes out)",
    );
  });
}

/**
 * OpenAI Chat Completions: one `{ role: 'tool', tool_call_id, content }` message per outcome
 * (openAIToolMessage); append them after the assistant message.
 * @throws ToolError ERR_INVALID_RESULT when an outcome is suspended
 */
export function toOpenAIChatMessages(outcomes: readonly CallOutcome[]): ChatCompletionToolMessageParam[] {
  return settled(outcomes, 'toOpenAIChatMessages').map((o) => openAIToolMessage(o.call, o.toolOutcome));
}

/**
 * OpenAI Responses: one `function_call_output` input item per outcome (openAIFunctionCallOutput);
 * send them as the next request's `input`.
 * @throws ToolError ERR_INVALID_RESULT when an outcome is suspended
 */
export function toOpenAIResponsesItems(outcomes: readonly CallOutcome[]): ResponseInputItem.FunctionCallOutput[] {
  return settled(outcomes, 'toOpenAIResponsesItems').map((o) => openAIFunctionCallOutput(o.call, o.toolOutcome));
}

/**
 * Anthropic Messages: the user message answering the turn, one `tool_result` block per outcome
 * (anthropicToolResult; `is_error` on errors).
 * @throws ToolError ERR_INVALID_RESULT when an outcome is suspended
 */
export function toAnthropicMessage(outcomes: readonly CallOutcome[]): UserMessageParam {
  return anthropicToolResultMessage(
    settled(outcomes, 'toAnthropicMessage').map((o) => anthropicToolResult(o.call, o.toolOutcome)),
  );
}

/**
 * Gemini: the `user` content answering the turn, one `functionResponse` part per outcome
 * (geminiFunctionResponse; `{ output }` or `{ error }`).
 * @throws ToolError ERR_INVALID_RESULT when an outcome is suspended
 */
export function toGeminiContent(outcomes: readonly CallOutcome[]): Content {
  return geminiFunctionResponseContent(
    settled(outcomes, 'toGeminiContent').map((o) => geminiFunctionResponse(o.call, o.toolOutcome)),
  );
}
