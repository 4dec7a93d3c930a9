/**
 * Provider-neutral rendering of a tool call's outcome for the model: what the model may see, and
 * whether it is an error. Every provider projection (OpenAI Chat, Anthropic Messages) goes through
 * `renderOutcome`, so the rules below hold for all of them.
 *
 * Rules, first match wins:
 * 1. `{ result: { output } }` → that Output, not an error (kind `completed`).
 * 2. `{ result: { inputRequest } }` → refused: a suspended call has no tool result yet (see
 *    `renderOutcome`'s `@throws`).
 * 3. a Failure (found by `classifyFailure`) → its output; an empty output becomes `tool: <kind>`;
 *    an error (kind `failed` or `rejected`).
 * 4. a cancellation (the `signal`'s abort reason, or an `AbortError` / `TimeoutError` in the chain)
 *    → `error: the call was cancelled`.
 * 5. an AuthorizationError → `error: authorization for tool "x" could not be decided`.
 * 6. a top-level ToolError `ERR_INVALID_INVOCATION` (what `Contract.prepare` and `prepareToolCall`
 *    throw) → an actionable text built from its `issues`; see `describeInvalidArguments`: kind
 *    `unknown_tool` for a name no tool has (`error: unknown tool "x"; call one of: a, b, c`), else
 *    `invalid_arguments` (a stream that ended mid-arguments included: it asks for the arguments
 *    again as one complete JSON object).
 * 7. anything else (CallError, plain errors, thrown non-errors) → `error: tool "x" failed`.
 *
 * Diagnostics never reach the model: a Failure's `diagnosticCause`, an AuthorizationError's cause,
 * a CallError's message, cause and evidence, stacks and messages of plain errors are never read.
 */
import { AuthorizationError, Output, ToolError, isAdmissionRefusal, classifyFailure, findError } from '../protocol';
import { walkCauses } from '../protocol/errors';
import type { InputRequest, Result } from '../protocol';
import { describeInvalidArguments } from './invalid-arguments';
import { unknownToolOf } from './prepare';
import { quoteToolName } from './tool-call';

/**
 * What happened to one proposed call: the Result a Binding returned, or the error thrown by
 * `prepareToolCall` (or `Contract.prepare`), `Binding.call` or the runtime around them.
 */
export type ToolOutcome = { readonly result: Result } | { readonly error: unknown };

/** How an outcome was classified for the model. */
export type OutcomeKind =
  'completed' | 'failed' | 'rejected' | 'cancelled' | 'undecided' | 'unknown_tool' | 'invalid_arguments' | 'error';

/**
 * An outcome rendered for the model: `output` is what the model may see (for errors, one text
 * block), `isError` tells providers that have an error flag (Anthropic `is_error`) to set it.
 */
export interface RenderedOutcome {
  readonly kind: OutcomeKind;
  readonly isError: boolean;
  readonly output: Output;
}

/** Options of renderOutcome. */
export interface RenderOutcomeOptions {
  /** The call's abort signal: when aborted, an error that is (or wraps) its reason is a cancellation. */
  readonly signal?: AbortSignal;
}

/**
 * Reports whether an outcome is a suspension (a Result holding an InputRequest), which is not a
 * tool result: ask the person, then resume with `InputRequest.continuation(answer)`.
 */
export function isSuspendedOutcome(
  outcome: ToolOutcome,
): outcome is { readonly result: { readonly inputRequest: InputRequest } } {
  return (
    'result' in outcome &&
    outcome.result !== null &&
    typeof outcome.result === 'object' &&
    'inputRequest' in outcome.result
  );
}

/**
 * Renders one outcome for the model under the rules of this module.
 * @param toolName - the name the model called (quoted as a JSON string in error texts)
 * @param outcome - the Result, or the thrown error
 * @returns the classification, the error flag and the Output the model may see
 * @throws ToolError ERR_INVALID_RESULT when the result holds no Output (not a Result), or when it
 *   is an InputRequest: a suspended call has no tool result; show `InputRequest.prompt` to a
 *   person, then prepare the same call again with `InputRequest.continuation(answer)` and send the
 *   result of that call (check with `isSuspendedOutcome` first)
 */
export function renderOutcome(
  toolName: string,
  outcome: ToolOutcome,
  options: RenderOutcomeOptions = {},
): RenderedOutcome {
  const name = quoteToolName(toolName);
  if ('result' in outcome) {
    if (isSuspendedOutcome(outcome)) {
      throw new ToolError(
        'ERR_INVALID_RESULT',
        `renderOutcome: tool ${name} asked for human input (an InputRequest), which is not a tool result; ` +
          'show InputRequest.prompt to a person, then prepare the same call again with ' +
          'InputRequest.continuation(answer) and send the result of that call',
      );
    }
    const output = (outcome.result as { output?: unknown } | null)?.output;
    if (!(output instanceof Output)) {
      throw new ToolError(
        'ERR_INVALID_RESULT',
        `renderOutcome: the result of tool ${name} holds neither an Output nor an InputRequest; pass the Result that Binding.call returned`,
      );
    }
    return { kind: 'completed', isError: false, output };
  }
  const error = outcome.error;
  const failure = safely(() => classifyFailure(error));
  if (failure !== undefined) {
    const output = failure.output;
    const empty = output.asText() === '';
    return { kind: failure.kind, isError: true, output: empty ? Output.text(`tool: ${failure.kind}`) : output };
  }
  if (isCancellation(error, options.signal)) return errorText('cancelled', 'error: the call was cancelled');
  if (safely(() => findError(error, AuthorizationError)) !== undefined) {
    return errorText('undecided', `error: authorization for tool ${name} could not be decided`);
  }
  if (isAdmissionError(error)) {
    const kind = unknownToolOf(error) === undefined ? 'invalid_arguments' : 'unknown_tool';
    return errorText(kind, describeInvalidArguments(toolName, error));
  }
  return errorText('error', `error: tool ${name} failed`);
}

function errorText(kind: OutcomeKind, text: string): RenderedOutcome {
  return { kind, isError: true, output: Output.text(text) };
}

/**
 * A refusal of the proposed call itself, as Contract.prepare or prepareToolCall threw it (marked by
 * the protocol; never matched by code, so a tool throwing ERR_INVALID_INVOCATION at call time, or
 * a runtime's own mix-up, is not shown to the model as its mistake). Never throws.
 */
function isAdmissionError(error: unknown): error is ToolError {
  return isAdmissionRefusal(error);
}

const ABORT_NAMES = new Set(['AbortError', 'TimeoutError']);

/**
 * Walks cause links and AggregateError members (the shared, bounded `walkCauses`) looking for the
 * abort reason or an abort-named error. A `name` getter that throws is not a match.
 */
function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  const reason = signal?.aborted === true ? signal.reason : undefined;
  for (const node of walkCauses(error)) {
    if (reason !== undefined && node === reason) return true;
    if (typeof node !== 'object') continue;
    try {
      if (ABORT_NAMES.has((node as { name?: unknown }).name as string)) return true;
    } catch {
      // a throwing getter is simply not a match
    }
  }
  return false;
}

function safely<T>(f: () => T | undefined): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * The text of an Output for a text-only channel (OpenAI tool messages): `asText()` when defined, else the text blocks in
 * order with `[<mime> media omitted: this channel cannot carry it]` for each media block.
 */
export function plainTextOf(output: Output): string {
  const text = output.asText();
  if (text !== undefined) return text;
  return output.content.map((block) => (block.kind === 'text' ? block.text : mediaNote(block.media.mime))).join('');
}

/** The note that replaces a media block the channel cannot carry. @internal */
export function mediaNote(mime: string): string {
  return `[${mime} media omitted: this channel cannot carry it]`;
}
