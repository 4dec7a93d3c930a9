/**
 * The errors the runtime throws at its caller (the application, never the model): a turn or an
 * answer it cannot take, with a code to branch on. What the model is told is an outcome, never one
 * of these (lib/runtime/outcome.ts).
 */

/**
 * The codes of RuntimeError:
 * - `ERR_INVALID_RUNTIME_CONFIG`: `new Runtime(config)` was given a config it cannot run with;
 * - `ERR_INVALID_TURN`: `runTurn` was given no thread id, no calls array, or a principal that is
 *   not a string, or a thread id or principal holding a NUL or a lone surrogate (also for resume
 *   and list);
 * - `ERR_INVALID_ANSWER`: the answer is not JSON text valid against the stored request's response
 *   schema (the call stays waiting: answer again); `issues` says where;
 * - `ERR_PRINCIPAL_MISMATCH`: the principal answering is not the one the call was suspended for
 *   (the call stays waiting);
 * - `ERR_UNKNOWN_CALL`: no suspended call is stored under that thread and key (`record.callId`);
 * - `ERR_ID_TOO_LONG`: a thread id, call id or principal is longer than MAX_ID_BYTES (1,024) bytes
 *   of UTF-8 (lib/runtime/store.ts), which no store keeps alike; nothing ran (for a call id of a
 *   turn: the `diagnostic` of that call's `refused` outcome, never thrown);
 * - `ERR_INVALID_CALL`: never thrown; the `diagnostic` of the `refused` outcome of a malformed
 *   call of a turn (not an object, an id or tool name that is not a string, arguments that are not
 *   JSON text, an id holding a NUL or a lone surrogate, an id ending in `#` and digits: the form
 *   of a round key); the call did not run, its siblings did;
 * - `ERR_CALL_ID_CONFLICT`: never thrown; the `diagnostic` of a `call-id-conflict` outcome (a call
 *   id of the thread replayed with another tool or other arguments than the stored call);
 * - `ERR_TOO_MANY_ROUNDS`: never thrown; the `diagnostic` of the `failed` outcome of a resumed call
 *   that asked for input again after MAX_SUSPENSION_ROUNDS (100) rounds (nothing was committed).
 */
export type RuntimeErrorCode =
  | 'ERR_INVALID_RUNTIME_CONFIG'
  | 'ERR_INVALID_TURN'
  | 'ERR_INVALID_ANSWER'
  | 'ERR_PRINCIPAL_MISMATCH'
  | 'ERR_UNKNOWN_CALL'
  | 'ERR_ID_TOO_LONG'
  | 'ERR_INVALID_CALL'
  | 'ERR_CALL_ID_CONFLICT'
  | 'ERR_TOO_MANY_ROUNDS';

/** One place in the answer that broke its response schema (a JSON Pointer and the rule). */
export interface AnswerIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * An error of the runtime's caller. Message `runtime: <what>: <why>; <what to do>`; the code on
 * `.code` (so `hasErrorCode`-style checks by code work across package copies), `issues` for
 * ERR_INVALID_ANSWER, the underlying error as the standard `cause`.
 */
export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  readonly issues: readonly AnswerIssue[];

  constructor(
    code: RuntimeErrorCode,
    detail: string,
    options: { cause?: unknown; issues?: readonly AnswerIssue[] } = {},
  ) {
    super(`runtime: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RuntimeError';
    this.code = code;
    this.issues = Object.freeze([...(options.issues ?? [])]);
  }
}
