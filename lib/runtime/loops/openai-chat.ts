/**
 * The OpenAI Chat Completions loop (`POST /v1/chat/completions`): sends the messages with the
 * registry's tools, runs the tool calls of each reply through the Runtime, appends one tool message
 * per call, and asks again, until the model answers without tools, a call suspends, or `maxSteps`
 * requests were made. The client is the caller's `openai` SDK client (type-only import here: this
 * module never loads the SDK).
 */
import type { OpenAI } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  openAIChatToolCalls,
  openAIChatTools,
  openAIMessageToolCalls,
  openAIToolMessage,
} from '../../providers/openai-chat';
import type { AssembledToolCall } from '../../providers/tool-call';
import { checkAnswers, checkLoopOptions, restoredCalls, runStep } from './loop';
import type { LoopOptions, LoopProgress, LoopStatus } from './loop';
import * as text from './messages';

const LOOP = 'runOpenAIChatLoop';

/** The request of every step: the caller's parameters; `tools` come from the registry. */
export type OpenAIChatLoopRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'tools' | 'stream'>;

/** Options of the Chat Completions loop: LoopOptions, and `strict` to export the tools for strict mode. */
export interface OpenAIChatLoopOptions extends LoopOptions {
  /** Export the tools with `strict: true` (openAIChatTools) and restore their optional nulls. Default false. */
  readonly strict?: boolean;
}

/** The end of a run: its status, the conversation so far (`messages`, to send or store), its outcomes. */
export type OpenAIChatLoopResult = LoopStatus<ChatCompletion> &
  LoopProgress & { readonly messages: ChatCompletionMessageParam[] };

/**
 * Drives a Chat Completions conversation. Each step sends `request` with the current messages and
 * `tools: openAIChatTools(registry.definitions())`, appends the reply's message, runs its tool
 * calls (the first choice's) through `runtime.runTurn`, and appends a `tool` message per call. When
 * the messages end with a tool-call turn that is not fully answered (a run that ended `suspended`),
 * its unanswered calls run first: those in `answers` through `runtime.resume`, the rest through
 * `runTurn` (which re-announces a call still waiting instead of running it again).
 * @param client - an `openai` client (`new OpenAI({ apiKey })`)
 * @param request - the request parameters; `messages` is the conversation so far (not modified)
 * @returns `done`, `suspended` (with `waiting`) or `max-steps`, and the messages after the run
 * @throws LoopError ERR_INVALID_LOOP_OPTIONS (options or request malformed), ERR_ANSWER_NOT_WAITING
 *   (an answer names no waiting call), ERR_CALL_RUNNING (another run resumes an answered call);
 *   RuntimeError from `resume` (ERR_INVALID_ANSWER: the call
 *   stays waiting, answer again); ToolError ERR_INVALID_DEFINITION when a tool name is refused by
 *   OpenAI; the client's errors (`OpenAI.APIError`, ...) unchanged
 */
export async function runOpenAIChatLoop(
  client: Pick<OpenAI, 'chat'>,
  request: OpenAIChatLoopRequest,
  options: OpenAIChatLoopOptions,
): Promise<OpenAIChatLoopResult> {
  const checked = checkLoopOptions(LOOP, options);
  if (!Array.isArray(request?.messages)) {
    throw text.invalidOptions(LOOP, 'request.messages', 'must be the array of messages so far');
  }
  const strict = options.strict === true;
  const tools = openAIChatTools(checked.registry.definitions(), { strict });
  const messages: ChatCompletionMessageParam[] = [...request.messages];
  let pending = restoredCalls(checked.registry, unansweredCalls(messages), strict);
  checkAnswers(LOOP, checked.answers, pending);
  let answers = checked.answers;
  const outcomes: LoopProgress['outcomes'][number][] = [];
  let steps = 0;
  let response: ChatCompletion | undefined;
  for (;;) {
    if (pending.length > 0) {
      const step = await runStep(checked, pending, answers);
      answers = [];
      outcomes.push(...step.outcomes);
      for (const outcome of step.settled) messages.push(openAIToolMessage(outcome.call, outcome.toolOutcome));
      if (step.waiting.length > 0) return { status: 'suspended', waiting: step.waiting, messages, outcomes, steps };
    }
    if (steps === checked.maxSteps) return { status: 'max-steps', response, messages, outcomes, steps };
    response = await client.chat.completions.create(
      { ...request, messages: [...messages], tools },
      checked.signal === undefined ? undefined : { signal: checked.signal },
    );
    steps += 1;
    const choice = response.choices[0];
    if (choice !== undefined) messages.push(choice.message as ChatCompletionAssistantMessageParam);
    pending = restoredCalls(checked.registry, openAIChatToolCalls(response), strict);
    if (pending.length === 0) return { status: 'done', response, messages, outcomes, steps };
  }
}

/** The calls of the last assistant message that no later `tool` message answers. */
function unansweredCalls(messages: readonly ChatCompletionMessageParam[]): AssembledToolCall[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role === 'tool') last -= 1;
  const message = messages[last];
  if (message?.role !== 'assistant') return [];
  const answered = new Set(messages.slice(last + 1).map((m) => (m as { tool_call_id?: unknown }).tool_call_id));
  return openAIMessageToolCalls(message as never).filter((call) => !answered.has(call.id));
}
