/**
 * The executable Tool protocol: what Bind, Guard and Registry consume. Ports `Tool` and the
 * `context.Context` parameter of the seed.
 */
import type { Definition } from './definition';
import type { Invocation } from './contract';
import type { Result } from './result';
import { isCallScope } from './deadline';

/**
 * Per-call options, the port of Go's `context.Context`.
 * - `signal`: cancellation of this execution; an aborted signal's `reason` is the abort error.
 * - `context`: caller-owned data (identity, tenancy), passed unchanged to authorizers and tools.
 * - `timeoutMs`: the deadline of this call in milliseconds (Binding.call): a whole number from 1 to
 *   MAX_TIMEOUT_MS, or Infinity; the smaller of it and the binding's deadline applies. A Binding
 *   hands its tool `{ signal, context, idempotencyKey }` only: a signal that also aborts at the deadline.
 * - `idempotencyKey`: a key that names this logical call, the same on its first run and on every
 *   resume of it (the runtime derives it from the thread id and the provider call id, see
 *   lib/runtime/identity.ts); a tool passes it to its own side effects (a payment API's
 *   `Idempotency-Key` header, a unique database column) so a replayed call does not repeat them.
 *   Passed unchanged to authorizers and tools; undefined when the caller names none. No seed
 *   counterpart (the seed leaves call identity to the driving runtime).
 */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly timeoutMs?: number;
  readonly idempotencyKey?: string;
}

/**
 * An executable tool. Ports `Tool` (exactly two members).
 * - `definition()`: a detached, valid snapshot (name, description, input schema).
 * - `call(invocation, options)`: runs one invocation admitted by this tool's exact Contract. It
 *   resolves to a Result (completed output or input request) or rejects with an error that carries
 *   no retry or control meaning; it must honor `options.signal` and must not keep the invocation.
 */
export interface Tool {
  definition(): Definition;
  call(invocation: Invocation, options?: CallOptions): Promise<Result>;
}

/** Reports whether `value` has the shape of a Tool (`definition` and `call` functions). @internal */
export function isToolShaped(value: unknown): value is Tool {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const candidate = value as { definition?: unknown; call?: unknown };
  return typeof candidate.definition === 'function' && typeof candidate.call === 'function';
}

/**
 * The options handed to authorizers and tools: a fresh frozen `{ signal, context, idempotencyKey }`;
 * a Binding's CallScope (already fresh and frozen, its signal made on first read) is passed on as
 * is. @internal
 */
export function callOptionsOf(options: CallOptions | undefined): CallOptions {
  if (isCallScope(options)) return options as CallOptions;
  return Object.freeze({ signal: options?.signal, context: options?.context, idempotencyKey: options?.idempotencyKey });
}
