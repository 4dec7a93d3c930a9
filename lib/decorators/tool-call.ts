/**
 * The second parameter of a `@Tool()` method.
 */
import type { Continuation } from '../protocol';

/**
 * What a tool method receives beside its input:
 * - `signal`: the execution signal (abort reason = the cancellation); honor it in long work.
 * - `context`: the caller-owned context (identity, tenancy), passed unchanged from CallOptions.
 * - `continuation`: present when the call resumes a suspended one (the method returned an
 *   InputRequest earlier): `state` is the checkpoint it saved, `response` the validated answer,
 *   both raw JSON texts.
 * - `idempotencyKey`: the key of this logical call, passed unchanged from CallOptions: the same on
 *   the first run and on every resume (the runtime derives it from the thread id and the provider
 *   call id); pass it to your own side effects so a replayed call does not repeat them. Undefined
 *   when the caller names none.
 */
export interface ToolCall {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly continuation?: Continuation;
  readonly idempotencyKey?: string;
}
