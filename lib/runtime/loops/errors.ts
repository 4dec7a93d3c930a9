/**
 * The error the provider loops (lib/runtime/loops) throw at their caller, never at the model. The
 * runtime's own errors (RuntimeError of lib/runtime/errors.ts, from `resume`) and the provider
 * client's errors (HTTP, network) pass through the loops unchanged.
 */

/**
 * The codes of LoopError:
 * - `ERR_INVALID_LOOP_OPTIONS`: a loop was given options it cannot run with (no runtime, no
 *   registry, an empty thread id, a `maxSteps` that is not a whole number ≥ 1, a request without
 *   its messages or input, malformed answers); the message names the field;
 * - `ERR_ANSWER_NOT_WAITING`: an answer names a call id that is not one of the unanswered calls of
 *   the conversation's last tool-call turn (nothing ran; answer the calls `waiting` lists);
 * - `ERR_CALL_RUNNING`: an answer names a call that another run (on this or another instance) is
 *   resuming right now, so its result is not known yet: the loop stops rather than tell the model
 *   a placeholder (run it again with the same messages and answers once that run finished: the
 *   stored result is then sent).
 */
export type LoopErrorCode = 'ERR_INVALID_LOOP_OPTIONS' | 'ERR_ANSWER_NOT_WAITING' | 'ERR_CALL_RUNNING';

/** An error of a loop's caller. Message `loop: <where>: <what>; <what to do>`; the code on `.code`. */
export class LoopError extends Error {
  readonly code: LoopErrorCode;

  constructor(code: LoopErrorCode, detail: string) {
    super(`loop: ${detail}`);
    this.name = 'LoopError';
    this.code = code;
  }
}
