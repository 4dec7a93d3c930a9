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

/**
 * The synchronous form of a library `call` method (FuncTool's, Guard's): `now(tool, invocation,
 * options)` does what `tool.call(invocation, options)` does, but returns the Result when the call
 * settles at once (a synchronous policy and function, the common case) and a native Promise of it
 * only when it must wait, and throws what `call` would reject with. @internal
 */
export type SyncForm = (tool: Tool, invocation: Invocation, options?: CallOptions) => unknown;

/**
 * Synchronous forms by `call` method: keyed by the method, so a subclass or an instance that
 * replaces `call` is called through its own `call`.
 */
const syncForms = new WeakMap<Function, SyncForm>();

/** Declares the synchronous form of a library `call` method (see SyncForm). @internal (FuncTool, Guard) */
export function declareSyncForm(call: Tool['call'], now: SyncForm): void {
  syncForms.set(call, now);
}

/**
 * Calls `tool` without spending a promise and a microtask turn on a call that settles at once: what
 * its `call` resolves to, returned as is when its synchronous form settled at once, else a native
 * Promise of it (any other tool's `call`, adopted as `await` adopts it). Throws what `call` would
 * reject with, when it settled at once. The value is not yet validated (Binding.call does). @internal
 */
export function callNow(tool: Tool, invocation: Invocation, options?: CallOptions): unknown {
  const call = tool.call;
  const now = syncForms.get(call);
  if (now !== undefined) return now(tool, invocation, options);
  return Promise.resolve(call.call(tool, invocation, options));
}

/**
 * The `call` of a tool with a synchronous form: what `now` returns, as a promise; what it throws, as
 * the promise's rejection. @internal (FuncTool, Guard)
 */
export function promiseOf(now: SyncForm, tool: Tool, invocation: Invocation, options?: CallOptions): Promise<Result> {
  try {
    const value = now(tool, invocation, options);
    return (value instanceof Promise ? value : Promise.resolve(value)) as Promise<Result>;
  } catch (e) {
    return Promise.reject(e);
  }
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
