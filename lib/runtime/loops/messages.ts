/** Every text of the provider loops in one place (lib/runtime/loops/errors.ts has the codes). */
import { LoopError } from './errors';

/** ERR_INVALID_LOOP_OPTIONS naming the field and the rule. */
export function invalidOptions(loop: string, field: string, rule: string): LoopError {
  return new LoopError('ERR_INVALID_LOOP_OPTIONS', `${loop}: ${field} ${rule}`);
}

/** ERR_CALL_RUNNING: another run resumes the answered call and its result is not stored yet. */
export function callRunning(callId: string): LoopError {
  return new LoopError(
    'ERR_CALL_RUNNING',
    `call ${JSON.stringify(callId)} is being resumed by another run and its result is not stored yet, so this run ` +
      'stopped before telling the model anything; run the loop again with the same messages and answers once that ' +
      'run has finished (the stored result is then sent)',
  );
}

/** What the model is told for each of several calls of one turn that came without an id: none ran. */
export function callsWithoutId(count: number, tool: string): string {
  return `${count} calls of this turn came without a call id, so their results could not be told apart; the call of ${JSON.stringify(tool)} did not run`;
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
