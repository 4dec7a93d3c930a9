/**
 * The OpenAI Responses loop (`POST /v1/responses`): sends the input items with the registry's tools,
 * runs the `function_call` items of each response through the Runtime, appends the response's
 * output items and one `function_call_output` item per call, and asks again, until the model
 * answers without tools, a call suspends, or `maxSteps` requests were made. The loop carries the
 * whole conversation in `input` (do not also set `previous_response_id`). The client is the
 * caller's `openai` SDK client (type-only import here: this module never loads the SDK).
 */
import type { OpenAI } from 'openai';
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import {
  openAIFunctionCallOutput,
  openAIResponsesToolCalls,
  openAIResponsesTools,
} from '../../providers/openai-responses';
import type { AssembledToolCall } from '../../providers/tool-call';
import { checkAnswers, checkLoopOptions, restoredCalls, runStep } from './loop';
import type { LoopOptions, LoopProgress, LoopStatus } from './loop';
import * as text from './messages';

const LOOP = 'runOpenAIResponsesLoop';

/** The request of every step: the caller's parameters; `tools` come from the registry. */
export type OpenAIResponsesLoopRequest = Omit<ResponseCreateParamsNonStreaming, 'tools' | 'stream' | 'input'> & {
  /** The conversation so far: a user text, or input items (not modified). */
  readonly input: string | readonly ResponseInputItem[];
};

/** Options of the Responses loop: LoopOptions, and `strict` to export the tools for strict mode. */
export interface OpenAIResponsesLoopOptions extends LoopOptions {
  /** Export the tools with `strict: true` (openAIResponsesTools) and restore their optional nulls. Default false. */
  readonly strict?: boolean;
}

/** The end of a run: its status, the conversation so far (`input`, to send or store), its outcomes. */
export type OpenAIResponsesLoopResult = LoopStatus<Response> & LoopProgress & { readonly input: ResponseInputItem[] };

/**
 * Drives a Responses conversation. Each step sends `request` with the current `input` items and
 * `tools: openAIResponsesTools(registry.definitions(), { strict })`, appends the response's `output`
 * items, runs its `function_call` items through `runtime.runTurn`, and appends a
 * `function_call_output` per call. When the input holds `function_call` items without their output
 * (a run that ended `suspended`), those run first: the calls in `answers` through `runtime.resume`,
 * the rest through `runTurn` (which re-announces a call still waiting instead of running it again).
 * A string `input` becomes one user message item.
 * @param client - an `openai` client (`new OpenAI({ apiKey })`)
 * @param request - the request parameters; `input` is the conversation so far (not modified)
 * @returns `done`, `suspended` (with `waiting`) or `max-steps`, and the input items after the run
 * @throws LoopError ERR_INVALID_LOOP_OPTIONS (options or request malformed, `previous_response_id`
 *   set), ERR_ANSWER_NOT_WAITING (an answer names no waiting call), ERR_CALL_RUNNING (another run
 *   resumes an answered call); RuntimeError from `resume`
 *   (ERR_INVALID_ANSWER: the call stays waiting, answer again); ToolError ERR_INVALID_DEFINITION when
 *   a tool name is refused by OpenAI; the client's errors (`OpenAI.APIError`, ...) unchanged
 */
export async function runOpenAIResponsesLoop(
  client: Pick<OpenAI, 'responses'>,
  request: OpenAIResponsesLoopRequest,
  options: OpenAIResponsesLoopOptions,
): Promise<OpenAIResponsesLoopResult> {
  const checked = checkLoopOptions(LOOP, options);
  if (typeof request?.input !== 'string' && !Array.isArray(request?.input)) {
    throw text.invalidOptions(LOOP, 'request.input', 'must be a user text or the array of input items so far');
  }
  if (request.previous_response_id !== undefined && request.previous_response_id !== null) {
    throw text.invalidOptions(
      LOOP,
      'request.previous_response_id',
      'must be left out: the loop sends the whole conversation in input at every step',
    );
  }
  const strict = options.strict === true;
  const tools = openAIResponsesTools(checked.registry.definitions(), { strict });
  const input: ResponseInputItem[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : [...request.input];
  let pending = restoredCalls(checked.registry, unansweredCalls(input), strict);
  checkAnswers(LOOP, checked.answers, pending);
  let answers = checked.answers;
  const outcomes: LoopProgress['outcomes'][number][] = [];
  let steps = 0;
  let response: Response | undefined;
  for (;;) {
    if (pending.length > 0) {
      const step = await runStep(checked, pending, answers);
      answers = [];
      outcomes.push(...step.outcomes);
      for (const outcome of step.settled) input.push(openAIFunctionCallOutput(outcome.call, outcome.toolOutcome));
      if (step.waiting.length > 0) return { status: 'suspended', waiting: step.waiting, input, outcomes, steps };
    }
    if (steps === checked.maxSteps) return { status: 'max-steps', response, input, outcomes, steps };
    response = await client.responses.create(
      { ...request, input: [...input], tools },
      checked.signal === undefined ? undefined : { signal: checked.signal },
    );
    steps += 1;
    // Output items are sent back as input items as they came (messages, reasoning, function calls).
    input.push(...(response.output as ResponseInputItem[]));
    pending = restoredCalls(checked.registry, openAIResponsesToolCalls(response), strict);
    if (pending.length === 0) return { status: 'done', response, input, outcomes, steps };
  }
}

/** The `function_call` items that no `function_call_output` item answers. */
function unansweredCalls(input: readonly ResponseInputItem[]): AssembledToolCall[] {
  const answered = new Set(
    input
      .filter((item) => item?.type === 'function_call_output')
      .map((item) => (item as { call_id?: unknown }).call_id),
  );
  const calls = input.filter((item) => item?.type === 'function_call' && !answered.has(item.call_id));
  return openAIResponsesToolCalls({ output: calls as { type: string }[] });
}
