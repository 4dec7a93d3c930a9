/**
 * Which errors are admission refusals: the model's proposal was refused before anything ran, and the
 * model can fix it (bad JSON, a schema or decoder violation, an oversized or malformed request, an
 * unknown tool). Providers render only these as "invalid arguments" text built from their issues.
 *
 * The mark is a private WeakSet, not a code: a tool that throws `ToolError('ERR_INVALID_INVOCATION',
 * ...)` at call time, or a runtime that mixes up bindings, is not the model's mistake, and its
 * message must not be shown to the model as if it were.
 */
const refusals = new WeakSet<object>();

/**
 * Marks `error` as an admission refusal and returns it. Called by Contract.prepare and by the
 * providers' prepareToolCall; not meant for tools.
 * @internal
 */
export function markRefusal<T>(error: T): T {
  if (typeof error === 'object' && error !== null) refusals.add(error);
  return error;
}

/**
 * Reports whether `error` was thrown by `Contract.prepare` (or the providers' `prepareToolCall`)
 * because the proposed call itself was invalid: the model can fix it. False for everything a tool,
 * a policy or the runtime throws, and for input-validator defects (InputValidatorError).
 */
export function isAdmissionRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && refusals.has(error);
}
