/**
 * Deadlines of calls: the default, the rule a timeout must follow, the DeadlineTool capability, and
 * the CallScope a Binding hands its tool (a signal that aborts when the caller's signal aborts or
 * when the call's deadline passes). The seed has no counterpart: Go's caller sets a deadline on the
 * context; a JavaScript caller that passes no signal (or one that never aborts) would otherwise wait
 * forever for a policy or tool that never settles.
 */
import { ToolError, goQuote } from './errors';
import { Failure } from './failure';
import type { Continuation } from './input';
import { Output } from './output';
import type { CallOptions } from './tool';

/** The deadline of a call when neither its binding nor its call options set one: 60,000 ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The longest finite deadline, 2,147,483,647 ms (about 24.8 days): the most a Node.js timer waits. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** What a timeout value must be, for error messages. */
const TIMEOUT_RULE = `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or Infinity for no deadline`;

/**
 * A tool that declares the deadline of its calls (the `@Tool({ timeoutMs })` of a method tool).
 * `bind` reads `timeoutMs()` once, through the wrapping chain (outermost wins, as for
 * InputValidatingTool), unless `bind(tool, { timeoutMs })` names one. It returns milliseconds
 * (see BindOptions.timeoutMs), or undefined for DEFAULT_TIMEOUT_MS.
 */
export interface DeadlineTool {
  timeoutMs(): number | undefined;
}

/** Reports whether `value` implements DeadlineTool (has a `timeoutMs` function). */
export function isDeadlineTool(value: unknown): value is DeadlineTool {
  return typeof value === 'object' && value !== null && typeof (value as DeadlineTool).timeoutMs === 'function';
}

/**
 * Checks a timeout value (ms): a whole number from 1 to MAX_TIMEOUT_MS, or Infinity (no deadline).
 * @param where - what the value is, first in the message (`timeoutMs`, `call options: timeoutMs`)
 * @throws ToolError `code` naming the value and the rule
 * @internal
 */
export function checkTimeout(
  value: unknown,
  code: 'ERR_INVALID_TOOL' | 'ERR_INVALID_INVOCATION',
  where: string,
): number {
  if (
    value === Infinity ||
    (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS)
  ) {
    return value;
  }
  const got = typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value;
  throw new ToolError(code, `${where} is ${got}; pass ${TIMEOUT_RULE}`);
}

const NONE: unique symbol = Symbol('none');

/** Brand check and state access of CallScope (set in its static block). */
let scopeOf: (value: unknown) => CallScope | undefined = () => undefined;
let abortedOf: (scope: CallScope) => boolean = () => false;
let reasonOf: (scope: CallScope) => unknown = () => undefined;
let expire: (scope: CallScope, reason: unknown) => void = () => undefined;
let settle: (scope: CallScope) => void = () => undefined;

/**
 * The options a Binding hands its tool for one call under a deadline: the caller's `context` and
 * `idempotencyKey`, unchanged, and a `signal` that aborts with the caller's abort reason when the caller's signal
 * aborts, or with a TimeoutError when the deadline passes (whichever comes first), until the call
 * settles. The AbortSignal is made on the first read of `signal` (making one costs microseconds on
 * Node 20), so a call that settles without anything reading it makes none; `isCallAborted` and
 * `abortReasonOf` read the state without making it. `signal` is a getter of the class (an own
 * accessor per call cost more than the whole call in a CPU profile), so `{ ...options }` drops it:
 * forward the options as is. Frozen. @internal
 */
export class CallScope implements CallOptions {
  readonly context: unknown;
  readonly idempotencyKey: string | undefined;
  readonly #caller: AbortSignal | undefined;
  #controller: AbortController | undefined;
  /** Set when the deadline passed: its TimeoutError, or the caller's reason when that came first. */
  #reason: unknown = NONE;
  #settled = false;
  #unlink: (() => void) | undefined;

  static {
    scopeOf = (value) =>
      typeof value === 'object' && value !== null && #caller in value ? (value as CallScope) : undefined;
    abortedOf = (scope) => {
      const controller = scope.#controller;
      if (controller !== undefined) return controller.signal.aborted;
      return scope.#reason !== NONE || scope.#caller?.aborted === true;
    };
    reasonOf = (scope) => {
      const controller = scope.#controller;
      if (controller !== undefined) return controller.signal.reason;
      return scope.#reason !== NONE ? scope.#reason : scope.#caller?.reason;
    };
    expire = (scope, reason) => {
      if (scope.#reason !== NONE) return;
      const caller = scope.#caller;
      scope.#reason = caller?.aborted === true ? caller.reason : reason;
      scope.#controller?.abort(reason);
    };
    settle = (scope) => {
      scope.#settled = true;
      scope.#unlink?.();
      scope.#unlink = undefined;
    };
  }

  constructor(caller: AbortSignal | undefined, context: unknown, idempotencyKey?: string) {
    this.#caller = caller;
    this.context = context;
    this.idempotencyKey = idempotencyKey;
    Object.freeze(this);
  }

  /** The call's signal, made on first read. */
  get signal(): AbortSignal {
    const made = this.#controller;
    if (made !== undefined) return made.signal;
    const controller = new AbortController();
    this.#controller = controller;
    const caller = this.#caller;
    if (this.#reason !== NONE) {
      controller.abort(this.#reason);
    } else if (caller?.aborted === true) {
      controller.abort(caller.reason);
    } else if (caller !== undefined && !this.#settled) {
      const onAbort = (): void => controller.abort(caller.reason);
      caller.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => caller.removeEventListener('abort', onAbort);
    }
    return controller.signal;
  }
}

/**
 * Whether the call `options` describe is aborted, read without making a CallScope's signal: for a
 * CallScope its state, else `options.signal.aborted`. @internal
 */
export function isCallAborted(options: CallOptions | undefined): boolean {
  const scope = scopeOf(options);
  return scope !== undefined ? abortedOf(scope) : options?.signal?.aborted === true;
}

/** The abort reason of an aborted call (see isCallAborted). @internal */
export function abortReasonOf(options: CallOptions | undefined): unknown {
  const scope = scopeOf(options);
  return scope !== undefined ? reasonOf(scope) : options?.signal?.reason;
}

/** Whether `options` is a CallScope (which is already fresh and frozen: passed on as is). @internal */
export function isCallScope(options: CallOptions | undefined): boolean {
  return scopeOf(options) !== undefined;
}

/**
 * What a FuncTool's function receives: `{ signal, context, continuation, idempotencyKey }`, frozen,
 * `signal` an own enumerable getter of the call's CallScope (made on first read). @internal
 */
class FuncCallScope {
  readonly context: unknown;
  readonly continuation: Continuation | undefined;
  readonly idempotencyKey: string | undefined;
  readonly #scope: CallScope;

  constructor(scope: CallScope, continuation: Continuation | undefined) {
    this.#scope = scope;
    this.context = scope.context;
    this.continuation = continuation;
    this.idempotencyKey = scope.idempotencyKey;
    Object.freeze(this);
  }

  /** The call's signal (its CallScope's), made on first read. */
  get signal(): AbortSignal {
    return this.#scope.signal;
  }
}

/**
 * The frozen `{ signal, context, continuation, idempotencyKey }` a FuncTool hands its function: a
 * CallScope's signal stays lazy (see CallScope). @internal
 */
export function funcCallOf(
  options: CallOptions | undefined,
  continuation: Continuation | undefined,
): {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly continuation?: Continuation;
  readonly idempotencyKey?: string;
} {
  const scope = scopeOf(options);
  if (scope !== undefined) return new FuncCallScope(scope, continuation);
  return Object.freeze({
    signal: options?.signal,
    context: options?.context,
    continuation,
    idempotencyKey: options?.idempotencyKey,
  });
}

const SETTLED: Promise<void> = Promise.resolve();

const promiseThen = Promise.prototype.then;

/**
 * `promise.then(onFulfilled, onRejected)` through Promise.prototype.then, never an own or subclass
 * `then` of the promise: a tool's promise cannot skip the reaction that validates its Result
 * (regression: a native promise with an own `then` made Binding.call return it unvalidated). @internal
 */
export function thenOf<T>(
  promise: Promise<unknown>,
  onFulfilled: (value: unknown) => T,
  onRejected?: (error: unknown) => void,
): Promise<T> {
  return promiseThen.call(promise, onFulfilled, onRejected) as Promise<T>;
}

/** The state of one call under callWithin (module functions, not closures: see `finish`). */
interface PendingCall {
  readonly scope: CallScope;
  done: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Marks the call settled, once: clears its timer and settles its scope. False when it already was.
 * A module function rather than a closure per call: the build keeps function names, and a named
 * closure costs a defineProperty of its `name` each time it is made.
 */
function finish(call: PendingCall): boolean {
  if (call.done) return false;
  call.done = true;
  if (call.timer !== undefined) clearTimeout(call.timer);
  settle(call.scope);
  return true;
}

/**
 * Runs `start` under a deadline of `timeoutMs` ms (finite): hands it a fresh CallScope linked to
 * `options.signal` and returns `accept` of what it settles to (`accept` throwing rejects), unless
 * the deadline passes first. Then, at once (whether or not the policy or tool ever settles): the
 * scope's signal aborts with a DOMException `TimeoutError` (`tool "NAME" timed out after N ms`), and
 * the returned promise rejects with a Failure of kind `failed`, output `error: tool "NAME" timed out
 * after N ms`, that TimeoutError as diagnosticCause; a later settlement of `start` is ignored (a
 * rejection is handled, never unhandled). A settlement before the deadline is never replaced.
 * `start` returns a native Promise, or the value itself when the call settled at once (callNow):
 * that value is accepted at once, with no timer. The timer is armed only if the promise has not
 * settled one microtask turn after `start` returned, and is cleared when the call settles: no timer
 * outlives the call. A caller's abort is forwarded, not acted on: the policy or tool
 * decides (docs/architecture.md sections 3.10 and 3.11). @internal (Binding.call)
 */
export function callWithin<T>(
  name: string,
  timeoutMs: number,
  options: CallOptions | undefined,
  start: (options: CallOptions) => unknown,
  accept: (value: unknown) => T,
): Promise<T> {
  const scope = new CallScope(options?.signal, options?.context, options?.idempotencyKey);
  let pending: unknown;
  try {
    pending = start(scope);
  } catch (e) {
    settle(scope);
    return Promise.reject(e);
  }
  if (!(pending instanceof Promise)) {
    settle(scope);
    try {
      return Promise.resolve(accept(pending));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return new Promise<T>((resolve, reject) => {
    const call: PendingCall = { scope, done: false, timer: undefined };
    thenOf(
      pending,
      (value) => {
        if (!finish(call)) return;
        let accepted: T;
        try {
          accepted = accept(value);
        } catch (e) {
          reject(e);
          return;
        }
        resolve(accepted);
      },
      (error: unknown) => {
        if (finish(call)) reject(error);
      },
    );
    // A policy and tool that settle at once (the common case) settle before this turn: no timer.
    // A promise reaction, not queueMicrotask (which wraps its callback in an AsyncResource).
    void SETTLED.then(() => {
      if (call.done) return;
      call.timer = setTimeout(() => {
        call.timer = undefined;
        if (call.done) return;
        const reason = new DOMException(`tool ${goQuote(name)} timed out after ${timeoutMs} ms`, 'TimeoutError');
        expire(scope, reason);
        finish(call);
        reject(new Failure({ kind: 'failed', output: Output.text(`error: ${reason.message}`), cause: reason }));
      }, timeoutMs);
    });
  });
}
