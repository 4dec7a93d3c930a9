/** Every text of the provider loops in one place (lib/runtime/loops/errors.ts has the codes). */
import { LoopError } from './errors';

/** ERR_INVALID_LOOP_OPTIONS naming the field and the rule. */
export function invalidOptions(loop: string, field: string, rule: string): LoopError {
  return new LoopError('ERR_INVALID_LOOP_OPTIONS', `${loop}: ${field} ${rule}`);
}

/** ERR_ANSWER_NOT_WAITING: the answer's call id is not waiting in this conversation. */
export function answerNotWaiting(loop: string, callId: string, waiting: readonly string[]): LoopError {
  const known =
    waiting.length === 0 ? 'no call is waiting' : `waiting: ${waiting.map((id) => JSON.stringify(id)).join(', ')}`;
  return new LoopError(
    'ERR_ANSWER_NOT_WAITING',
    `${loop}: answers names call ${JSON.stringify(callId)}, which does not wait for an answer in the last tool-call turn ` +
      `of these messages (${known}); answer the calls of the result's \`waiting\`, with the messages that result returned`,
  );
}
