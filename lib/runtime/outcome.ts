/**
 * The outcome of one tool call as the runtime resolves it: its kind, the call it answers, and what
 * the provider renderers of lib/providers need (`toolOutcome`, already rendered as `rendered`), or
 * the committed suspension. Also the conversions to and from the store's StoredOutcome, so a
 * replayed outcome renders exactly as the first one did.
 */
import { Failure, Output } from '../protocol';
import type { InputRequest } from '../protocol';
import { plainTextOf, renderOutcome } from '../providers/outcome';
import type { RenderedOutcome, ToolOutcome } from '../providers/outcome';
import type { ProviderToolCall } from '../providers/tool-call';
import { expiredCall } from './messages';
import type { StoredOutcome, SuspensionRecord } from './store';
import { frozenWith } from './frozen';

/**
 * What happened to a call:
 * - `completed`: the tool returned an Output;
 * - `refused`: admission refused the proposed call (unknown tool, arguments the contract does not
 *   admit, a malformed or cut-off call, a call id shared by several calls); nothing ran;
 * - `rejected`: a policy refused it (or the tool threw a Failure of kind `rejected`);
 * - `failed`: the tool threw a Failure of kind `failed` (its deadline passing included);
 * - `error`: anything else (a defect, a cancellation, an undecided policy, a store that failed); the
 *   model is told only `error: tool "x" failed` or the like, never the error itself;
 * - `budget-exceeded`: the thread's call budget (per tool or in total) is spent; nothing ran;
 * - `expired`: the call waited for an answer past its expiry; it will never run;
 * - `tool-changed`: on resume, the tool is gone or its contract changed; nothing ran;
 * - `already-answered`: on resume, another answer took the call first (see `previous`);
 * - `call-id-conflict`: in a turn, the call id is stored for a call of another tool or with other
 *   arguments (a replay that does not match); nothing ran; `diagnostic` is a RuntimeError
 *   ERR_CALL_ID_CONFLICT;
 * - `suspended`: the tool asked for input; the suspension is committed to the store.
 */
export type CallOutcomeKind =
  | 'completed'
  | 'refused'
  | 'rejected'
  | 'failed'
  | 'error'
  | 'budget-exceeded'
  | 'expired'
  | 'tool-changed'
  | 'already-answered'
  | 'call-id-conflict'
  | 'suspended';

/** What every outcome carries. */
interface OutcomeBase {
  /** The conversation the call belongs to. */
  readonly threadId: string;
  /**
   * The call answered: `id` is the provider call id (`''` for a Gemini call without one), `request`
   * the tool name and arguments text (on resume: the stored normalized arguments).
   */
  readonly call: ProviderToolCall;
  /** The call's idempotency key (identity.ts); undefined for a call without an id. */
  readonly idempotencyKey: string | undefined;
  /** True when read back from the store (a replayed turn, a repeated answer): the tool did not run now. */
  readonly replayed: boolean;
}

/** A call that has its result for the model. */
export interface SettledCallOutcome extends OutcomeBase {
  readonly kind: Exclude<CallOutcomeKind, 'suspended'>;
  /**
   * What the lib/providers renderers take (`openAIToolMessage(call, toolOutcome)`, ...): the Result
   * for `completed`, else a Failure whose output is exactly the model-facing text (`rendered`), so
   * every renderer, now or after a replay, tells the model the same thing.
   */
  readonly toolOutcome: ToolOutcome;
  /** The model-facing rendering of `toolOutcome` (lib/providers/outcome.ts renderOutcome). */
  readonly rendered: RenderedOutcome;
  /**
   * For `already-answered`: the outcome the first answer to this round stored, when it has
   * finished; `suspended` (the next round, whose `record.callId` answers it) when the tool asked again.
   */
  readonly previous?: CallOutcome;
  /** The error behind a non-completed outcome, for logs only; never shown to the model. */
  readonly diagnostic?: unknown;
  /**
   * Set when the store failed to record this outcome of a resumed call (its `finish` rejected): the
   * tool did run; a later answer to the call gets `already-answered` without `previous`.
   */
  readonly storeError?: unknown;
}

/** A call that waits for a person's answer; its record was committed before this was returned. */
export interface SuspendedCallOutcome extends OutcomeBase {
  readonly kind: 'suspended';
  /** What to ask: `prompt`, `responseSchema` (the answer's JSON Schema). */
  readonly inputRequest: InputRequest;
  /** The committed record (its `callId` is `<call id>#<round>` when a resume suspended again). */
  readonly record: SuspensionRecord;
  /** Set as on SettledCallOutcome when the suspended resume's own record could not be finished. */
  readonly storeError?: unknown;
}

/** Exactly one per call id of a turn, or the result of a resume. */
export type CallOutcome = SettledCallOutcome | SuspendedCallOutcome;

/** The call identity every outcome repeats. @internal */
export interface CallIdentity {
  readonly threadId: string;
  readonly call: ProviderToolCall;
  readonly idempotencyKey: string | undefined;
}

/** Maps the providers' classification to the runtime's kinds. */
function kindOf(rendered: RenderedOutcome): SettledCallOutcome['kind'] {
  switch (rendered.kind) {
    case 'completed':
    case 'failed':
    case 'rejected':
      return rendered.kind;
    case 'unknown_tool':
    case 'invalid_arguments':
      return 'refused';
    default:
      return 'error';
  }
}

/**
 * A Failure carrying exactly the model-facing output; the error behind it (or one naming the
 * runtime's kind) is its diagnosticCause, which no renderer reads.
 */
function failureOf(kind: SettledCallOutcome['kind'], output: Output, cause?: unknown): ToolOutcome {
  return {
    error: new Failure({
      kind: kind === 'rejected' ? 'rejected' : 'failed',
      output,
      cause: cause ?? new Error(`runtime: call outcome ${kind}`),
    }),
  };
}

/**
 * Classifies a live ToolOutcome (a Binding's Result, or what prepare or the call threw) under the
 * rules of lib/providers/outcome.ts. `kind` overrides the classification (`tool-changed`, ...).
 * @internal
 */
export function settledOf(
  identity: CallIdentity,
  outcome: ToolOutcome,
  options: { readonly signal?: AbortSignal; readonly kind?: SettledCallOutcome['kind'] } = {},
): SettledCallOutcome {
  let rendered: RenderedOutcome;
  try {
    rendered = renderOutcome(identity.call.request.name, outcome, { signal: options.signal });
  } catch (e) {
    // Not a Result a Binding returns (the Binding validates them): a defect, rendered generically.
    rendered = renderOutcome(identity.call.request.name, { error: e });
  }
  const kind = options.kind ?? kindOf(rendered);
  const diagnostic = 'error' in outcome ? outcome.error : undefined;
  const toolOutcome = kind === 'completed' ? outcome : failureOf(kind, rendered.output, diagnostic);
  const members = {
    kind,
    replayed: false,
    toolOutcome,
    rendered: kind === 'completed' ? rendered : renderOutcome(identity.call.request.name, toolOutcome),
    ...(diagnostic === undefined ? {} : { diagnostic }),
  };
  return frozenWith(identity, members);
}

/**
 * An outcome the runtime states itself (budget, expiry, ...): a `failed` Failure with `text`, and
 * `diagnostic` when given. @internal
 */
export function statedOf(
  identity: CallIdentity,
  kind: SettledCallOutcome['kind'],
  text: string,
  replayed = false,
  diagnostic?: unknown,
): SettledCallOutcome {
  const toolOutcome = failureOf(kind, Output.text(text), diagnostic);
  const members = {
    kind,
    replayed,
    toolOutcome,
    rendered: renderOutcome(identity.call.request.name, toolOutcome),
    ...(diagnostic === undefined ? {} : { diagnostic }),
  };
  return frozenWith(identity, members);
}

/** Stored kinds, by runtime kind (the store contract has no `tool-changed` or `budget-exceeded`). */
const STORED_KIND: Record<SettledCallOutcome['kind'], StoredOutcome['kind']> = {
  completed: 'completed',
  refused: 'refused',
  rejected: 'rejected',
  failed: 'failed',
  error: 'error',
  'budget-exceeded': 'failed',
  expired: 'expired',
  'tool-changed': 'refused',
  'already-answered': 'error',
  'call-id-conflict': 'refused',
};

/**
 * The StoredOutcome of a settled outcome: `output` the Output wire JSON of what the model sees (the
 * tool's Output, or the error text), `message` that text for every kind but `completed`. @internal
 */
export function storedOf(outcome: SettledCallOutcome): StoredOutcome {
  const output = JSON.stringify(outcome.rendered.output);
  if (outcome.kind === 'completed') return { kind: 'completed', output };
  return { kind: STORED_KIND[outcome.kind], output, message: plainTextOf(outcome.rendered.output) };
}

/**
 * The settled outcome a StoredOutcome records, marked `replayed`: it renders as the stored one
 * did. A stored outcome without output or message (written by another program) is an `error`.
 * @internal
 */
export function fromStored(identity: CallIdentity, stored: StoredOutcome): SettledCallOutcome {
  let output: Output | undefined;
  try {
    if (stored.output !== undefined) output = Output.parse(stored.output);
  } catch {
    output = undefined;
  }
  if (output === undefined && stored.message !== undefined) output = Output.text(stored.message);
  // A store records expiry itself, as `{ kind: 'expired' }` alone (lib/runtime/store.ts take).
  if (output === undefined && stored.kind === 'expired') output = Output.text(expiredCall(identity.call.request.name));
  if (stored.kind === 'completed' && output !== undefined) {
    const toolOutcome: ToolOutcome = { result: { output } };
    return frozenWith(identity, {
      kind: 'completed' as const,
      replayed: true,
      toolOutcome,
      rendered: renderOutcome(identity.call.request.name, toolOutcome),
    });
  }
  const kind: SettledCallOutcome['kind'] =
    output === undefined || stored.kind === 'completed' || stored.kind === 'suspended' ? 'error' : stored.kind;
  const toolOutcome = failureOf(
    kind,
    output ?? Output.text(`error: tool ${JSON.stringify(identity.call.request.name)} failed`),
  );
  return frozenWith(identity, {
    kind,
    replayed: true,
    toolOutcome,
    rendered: renderOutcome(identity.call.request.name, toolOutcome),
  });
}
