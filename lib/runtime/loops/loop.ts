/**
 * What the three provider loops share (openai-chat.ts, openai-responses.ts, anthropic-messages.ts):
 * their options, the shape of their result, and one step of tool calls run through the Runtime
 * (answers routed to their waiting calls with `resume`, every other call through `runTurn`, which
 * replays a call the store already holds instead of running it again).
 */
import type { Registry } from '../../protocol';
import { malformedCall } from '../../providers/tool-call';
import type { AssembledToolCall, ProviderToolCall } from '../../providers/tool-call';
import { restoreStrictToolCall } from '../../providers/strict-arguments';
import type { CallOutcome, SettledCallOutcome, SuspendedCallOutcome } from '../outcome';
import type { Runtime } from '../runtime';
import { roundOfKey } from '../identity';
import * as text from './messages';

/** How many model requests one run of a loop makes unless `maxSteps` says otherwise: 10. */
export const DEFAULT_MAX_STEPS = 10;

/**
 * An answer to a suspended call: the key of the question it answers (`waiting[i].record.callId`)
 * and the JSON text. The provider call id (`waiting[i].call.id`) names the call's first question
 * only: once that was answered and the tool asked again, an answer by it gets the stored outcome,
 * never the next question (docs/runtime.md, "Suspension, resume, exactly once").
 */
export interface LoopAnswer {
  /** `waiting[i].record.callId`: `<call id>#<round>` when the tool asked again, else the call id. */
  readonly callId: string;
  /** JSON text that the call's `inputRequest.responseSchema` admits. */
  readonly answer: string;
}

/**
 * Options of every loop.
 * - `runtime`: runs the calls (its store keeps suspensions, outcomes and budgets).
 * - `registry`: the tools offered to the model; the same Registry the Runtime was built with.
 * - `threadId`: the conversation id (non-empty); call ids, budgets and suspensions are per thread.
 * - `principal`, `context`, `signal`: as in the Runtime's TurnInput (`signal` also aborts the
 *   provider request).
 * - `maxSteps`: the most model requests of this run, a whole number ≥ 1 (default DEFAULT_MAX_STEPS).
 * - `answers`: answers to the calls a previous run left `waiting`; each must name one of them.
 */
export interface LoopOptions {
  readonly runtime: Runtime;
  readonly registry: Registry;
  readonly threadId: string;
  readonly principal?: string;
  readonly context?: unknown;
  readonly signal?: AbortSignal;
  readonly maxSteps?: number;
  readonly answers?: readonly LoopAnswer[];
}

/**
 * How a run ended; every variant also carries the run's `outcomes` (one per call, in order) and
 * `steps` (the model requests it made):
 * - `done`: the model answered without tool calls; `response` is that last response;
 * - `suspended`: a call asks a person first; `waiting` are the suspended calls (committed to the
 *   store), every other call of the turn is answered in the returned messages. Ask the person
 *   (`waiting[i].inputRequest.prompt`, `.responseSchema`), then run the loop again with the
 *   returned messages and `answers`, now or in another process;
 * - `max-steps`: `maxSteps` requests were made and the last one still called tools; their results
 *   are in the returned messages, so running the loop again with them continues the conversation.
 */
export type LoopStatus<Response> =
  | { readonly status: 'done'; readonly response: Response }
  | { readonly status: 'suspended'; readonly waiting: readonly SuspendedCallOutcome[] }
  | { readonly status: 'max-steps'; readonly response: Response | undefined };

/** What every result carries besides its status. */
export interface LoopProgress {
  /** Every call outcome of this run, in the order the calls were run. */
  readonly outcomes: readonly CallOutcome[];
  /** The model requests this run made. */
  readonly steps: number;
}

/** Options checked, defaults applied. @internal */
export interface CheckedLoopOptions extends LoopOptions {
  readonly maxSteps: number;
  readonly answers: readonly LoopAnswer[];
}

/**
 * Checks the options every loop shares.
 * @throws LoopError ERR_INVALID_LOOP_OPTIONS naming the field
 * @internal
 */
export function checkLoopOptions(loop: string, options: LoopOptions): CheckedLoopOptions {
  if (typeof options !== 'object' || options === null) {
    throw text.invalidOptions(loop, 'options', 'must be an object { runtime, registry, threadId, ... }');
  }
  const runtime = options.runtime as Partial<Runtime> | undefined;
  if (typeof runtime?.runTurn !== 'function' || typeof runtime.resume !== 'function') {
    throw text.invalidOptions(loop, 'options.runtime', 'must be a Runtime (new Runtime({ registry, store }))');
  }
  if (typeof (options.registry as Partial<Registry> | undefined)?.definitions !== 'function') {
    throw text.invalidOptions(loop, 'options.registry', 'must be the Registry the Runtime runs (createRegistry(...))');
  }
  if (typeof options.threadId !== 'string' || options.threadId === '') {
    throw text.invalidOptions(loop, 'options.threadId', 'must be a non-empty string (the conversation id)');
  }
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) {
    throw text.invalidOptions(loop, 'options.maxSteps', 'must be a whole number of model requests ≥ 1');
  }
  const answers = options.answers ?? [];
  if (!Array.isArray(answers))
    throw text.invalidOptions(loop, 'options.answers', 'must be an array of { callId, answer }');
  const seen = new Set<string>();
  answers.forEach((a: Partial<LoopAnswer> | null, i) => {
    if (typeof a?.callId !== 'string' || typeof a.answer !== 'string') {
      throw text.invalidOptions(loop, `options.answers[${i}]`, 'must be { callId: string, answer: JSON text }');
    }
    if (seen.has(a.callId)) {
      throw text.invalidOptions(
        loop,
        `options.answers[${i}]`,
        `answers call ${JSON.stringify(a.callId)} a second time`,
      );
    }
    seen.add(a.callId);
  });
  return { ...options, maxSteps, answers };
}

/**
 * Checks that every answer names a call of `pending` (the unanswered calls of the last tool-call
 * turn). @throws LoopError ERR_ANSWER_NOT_WAITING @internal
 */
export function checkAnswers(loop: string, answers: readonly LoopAnswer[], pending: readonly ProviderToolCall[]): void {
  const ids = pending.map((c) => c.id);
  const answered = new Set<string>();
  answers.forEach(({ callId }, i) => {
    const call = answeredCallId(callId, ids);
    if (call === undefined) throw text.answerNotWaiting(loop, callId, ids);
    if (answered.has(call)) {
      throw text.invalidOptions(loop, `options.answers[${i}]`, `answers call ${JSON.stringify(call)} a second time`);
    }
    answered.add(call);
  });
}

/**
 * The provider call id of `ids` an answer's `callId` names: the call whose key it is, by the one
 * rule of Runtime.resume (identity.ts roundOfKey): `<id>#<n>` is round n of call `<id>`, any other
 * key round 1 of the call it spells. A pending id that ends in `#` and digits was refused by
 * runTurn, never suspended, so an answer never names it.
 */
function answeredCallId(callId: string, ids: readonly string[]): string | undefined {
  const decoded = roundOfKey(callId);
  return decoded !== undefined && ids.includes(decoded.callId) ? decoded.callId : undefined;
}

/** Restores strict-mode nulls when the tools were exported strict (providers/strict-arguments.ts). @internal */
export function restoredCalls(registry: Registry, calls: AssembledToolCall[], strict: boolean): AssembledToolCall[] {
  return strict ? calls.map((call) => restoreStrictToolCall(registry, call)) : calls;
}

/** The outcomes of one step, in the order of its calls. @internal */
export interface StepOutcomes {
  readonly outcomes: readonly CallOutcome[];
  /** The calls answered now, with what to tell the model. */
  readonly settled: readonly SettledCallOutcome[];
  /** The calls that wait for a person. */
  readonly waiting: readonly SuspendedCallOutcome[];
}

/**
 * Runs the calls of one turn: a call with an answer through `runtime.resume` (one after the other,
 * so a rejected answer leaves the later ones untouched), every other call through `runtime.runTurn`
 * (concurrently; a call the store holds is replayed, not run again).
 * @throws RuntimeError from `resume` (ERR_INVALID_ANSWER, ERR_PRINCIPAL_MISMATCH, ERR_UNKNOWN_CALL)
 *   and the store's error when it fails before anything ran; LoopError ERR_CALL_RUNNING when an
 *   answered call is being resumed by another run (its result is not stored yet)
 * @internal
 */
export async function runStep(
  options: CheckedLoopOptions,
  calls: readonly ProviderToolCall[],
  answers: readonly LoopAnswer[],
): Promise<StepOutcomes> {
  const { runtime, threadId, principal, context, signal } = options;
  const byId = new Map<string, CallOutcome>();
  const ids = calls.map((call) => call.id);
  for (const { callId, answer } of answers) {
    // Resumed by the key the answer names, so it answers that question only (a rerun with the same
    // answers resumes nothing twice and gets each stored outcome).
    const outcome = await runtime.resume({ threadId, callId, answer, principal, context, signal });
    // Another run resumes the call: its result is unknown, and a placeholder must not reach the model.
    if (outcome.kind === 'already-answered' && outcome.previous === undefined) throw text.callRunning(callId);
    // An answer applied before whose tool asked again: the call waits for its next question.
    const result =
      outcome.kind === 'already-answered' && outcome.previous?.kind === 'suspended' ? outcome.previous : outcome;
    byId.set(answeredCallId(callId, ids) ?? callId, result);
  }
  const rest = calls.filter((call) => !byId.has(call.id));
  // Calls without an id (the providers of these loops always give one) cannot be told apart when
  // there are several: each is refused on its own, so each gets exactly one outcome.
  const unnamed = rest.filter((call) => call.id === '').length;
  const sent =
    unnamed < 2
      ? rest
      : rest.map((call) =>
          call.id === '' ? malformedCall('', call.request.name, text.callsWithoutId(unnamed, call.request.name)) : call,
        );
  const withoutId: CallOutcome[] = [];
  if (sent.length > 0) {
    // Keyed by call id: runTurn answers calls sharing an id once (the readers already merge them);
    // calls without an id keep their order.
    for (const outcome of await runtime.runTurn({ threadId, principal, context, signal, calls: sent })) {
      if (outcome.call.id === '') withoutId.push(outcome);
      else byId.set(outcome.call.id, outcome);
    }
  }
  const outcomes: CallOutcome[] = [];
  const seen = new Set<string>();
  for (const { id } of calls) {
    if (id === '') {
      outcomes.push(withoutId.shift() as CallOutcome);
    } else if (!seen.has(id)) {
      seen.add(id);
      outcomes.push(byId.get(id) as CallOutcome);
    }
  }
  return {
    outcomes,
    settled: outcomes.filter((o): o is SettledCallOutcome => o.kind !== 'suspended'),
    waiting: outcomes.filter((o): o is SuspendedCallOutcome => o.kind === 'suspended'),
  };
}
