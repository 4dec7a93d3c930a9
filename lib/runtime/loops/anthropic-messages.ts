/**
 * The Anthropic Messages loop (`POST /v1/messages`): sends the messages with the registry's tools,
 * runs the `tool_use` blocks of each reply through the Runtime, appends the reply and one user
 * message with a `tool_result` block per call, and asks again, until the model answers without
 * tools, a call suspends, or `maxSteps` requests were made. The client is the caller's
 * `@anthropic-ai/sdk` client (type-only import here: this module never loads the SDK).
 */
import type { Anthropic } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
} from '../../providers/anthropic-messages';
import type { AssembledToolCall } from '../../providers/tool-call';
import { checkAnswers, checkLoopOptions, runStep } from './loop';
import type { LoopOptions, LoopProgress, LoopStatus } from './loop';
import * as text from './messages';

const LOOP = 'runAnthropicMessagesLoop';

/** The request of every step: the caller's parameters; `tools` come from the registry. */
export type AnthropicMessagesLoopRequest = Omit<MessageCreateParamsNonStreaming, 'tools' | 'stream'>;

/** Options of the Messages loop: LoopOptions. */
export type AnthropicMessagesLoopOptions = LoopOptions;

/** The end of a run: its status, the conversation so far (`messages`, to send or store), its outcomes. */
export type AnthropicMessagesLoopResult = LoopStatus<Message> & LoopProgress & { readonly messages: MessageParam[] };

/**
 * Drives a Messages conversation. Each step sends `request` with the current messages and
 * `tools: anthropicTools(registry.definitions())`, appends the reply as an assistant message, runs
 * its `tool_use` blocks through `runtime.runTurn`, and appends one user message holding a
 * `tool_result` per call. When the messages end with a tool-use turn not fully answered (a run
 * that ended `suspended`), its unanswered calls run first: those in `answers` through
 * `runtime.resume`, the rest through `runTurn` (which re-announces a call still waiting instead of
 * running it again); their results join the turn's user message, as the API requires.
 * @param client - an `@anthropic-ai/sdk` client (`new Anthropic({ apiKey })`)
 * @param request - the request parameters; `messages` is the conversation so far (not modified)
 * @returns `done`, `suspended` (with `waiting`) or `max-steps`, and the messages after the run
 * @throws LoopError ERR_INVALID_LOOP_OPTIONS (options or request malformed), ERR_ANSWER_NOT_WAITING
 *   (an answer names no waiting call), ERR_CALL_RUNNING (another run resumes an answered call);
 *   RuntimeError from `resume` (ERR_INVALID_ANSWER: the call
 *   stays waiting, answer again); ToolError ERR_INVALID_DEFINITION when a tool name is refused by
 *   Anthropic; the client's errors (`Anthropic.APIError`, ...) unchanged
 */
export async function runAnthropicMessagesLoop(
  client: Pick<Anthropic, 'messages'>,
  request: AnthropicMessagesLoopRequest,
  options: AnthropicMessagesLoopOptions,
): Promise<AnthropicMessagesLoopResult> {
  const checked = checkLoopOptions(LOOP, options);
  if (!Array.isArray(request?.messages)) {
    throw text.invalidOptions(LOOP, 'request.messages', 'must be the array of messages so far');
  }
  const tools = anthropicTools(checked.registry.definitions());
  const messages: MessageParam[] = [...request.messages];
  let pending = unansweredCalls(messages);
  checkAnswers(LOOP, checked.answers, pending);
  let answers = checked.answers;
  const outcomes: LoopProgress['outcomes'][number][] = [];
  let steps = 0;
  let response: Message | undefined;
  for (;;) {
    if (pending.length > 0) {
      const step = await runStep(checked, pending, answers);
      answers = [];
      outcomes.push(...step.outcomes);
      appendResults(
        messages,
        step.settled.map((outcome) => anthropicToolResult(outcome.call, outcome.toolOutcome)),
      );
      if (step.waiting.length > 0) return { status: 'suspended', waiting: step.waiting, messages, outcomes, steps };
    }
    if (steps === checked.maxSteps) return { status: 'max-steps', response, messages, outcomes, steps };
    response = await client.messages.create(
      { ...request, messages: [...messages], tools },
      checked.signal === undefined ? undefined : { signal: checked.signal },
    );
    steps += 1;
    messages.push({ role: 'assistant', content: response.content });
    pending = anthropicToolCalls(response);
    if (pending.length === 0) return { status: 'done', response, messages, outcomes, steps };
  }
}

/** True for a user message that answers tool calls (its blocks are `tool_result` blocks). */
function isResultMessage(
  message: MessageParam | undefined,
): message is MessageParam & { content: ContentBlockParam[] } {
  return (
    message?.role === 'user' &&
    Array.isArray(message.content) &&
    message.content.length > 0 &&
    message.content.every((block) => block.type === 'tool_result')
  );
}

/**
 * The `tool_use` blocks of the last assistant message that its following user message does not
 * answer (none when anything else follows it).
 */
function unansweredCalls(messages: readonly MessageParam[]): AssembledToolCall[] {
  const tail = messages[messages.length - 1];
  const answers = isResultMessage(tail) ? tail.content : undefined;
  const turn = messages[messages.length - (answers === undefined ? 1 : 2)];
  if (turn?.role !== 'assistant' || !Array.isArray(turn.content)) return [];
  const answered = new Set((answers ?? []).map((block) => (block as ToolResultBlockParam).tool_use_id));
  return anthropicToolCalls({ content: turn.content as never }).filter((call) => !answered.has(call.id));
}

/**
 * Appends tool results: into the user message that already answers part of the last turn (a copy;
 * the caller's message objects are never modified), or as a new user message.
 */
function appendResults(messages: MessageParam[], results: ToolResultBlockParam[]): void {
  if (results.length === 0) return;
  const tail = messages[messages.length - 1];
  if (isResultMessage(tail)) {
    messages[messages.length - 1] = { role: 'user', content: [...tail.content, ...results] };
  } else {
    messages.push(anthropicToolResultMessage(results));
  }
}
