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
 */
export interface ToolCall {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly continuation?: Continuation;
}
