/**
 * Every text of the runtime in one place: what the model is told for the outcomes the runtime adds
 * to those of lib/providers/outcome.ts (budgets, expiry, a changed tool, an answer still running),
 * and the RuntimeErrors its caller gets. Model texts start with `error:` as the providers' do and
 * say what to do next; they never carry diagnostics.
 */
import { quoteToolName } from '../providers/tool-call';
import { RuntimeError } from './errors';
import type { AnswerIssue } from './errors';

/** `error: the call budget of tool "x" in this conversation is spent (5 calls); do not call it again`. */
export function toolBudgetSpent(tool: string, limit: number): string {
  return `error: the call budget of tool ${quoteToolName(tool)} in this conversation is spent (${calls(limit)}); do not call it again`;
}

/** `error: the tool call budget of this conversation is spent (20 calls); do not call any tool again`. */
export function totalBudgetSpent(limit: number): string {
  return `error: the tool call budget of this conversation is spent (${calls(limit)}); do not call any tool again`;
}

/** The call waited for an answer past its expiry: it will never run. */
export function expiredCall(tool: string): string {
  return `error: the call of tool ${quoteToolName(tool)} waited for an answer until it expired, so it did not run; call it again if it is still needed`;
}

/** The tool was removed or its contract changed while the call waited: it did not run. */
export function toolChanged(tool: string): string {
  return `error: tool ${quoteToolName(tool)} changed while the call waited for an answer, so it did not run; call it again`;
}

/** Another answer resumed the call and its result is not stored yet. */
export function answerRunning(tool: string): string {
  return `error: the call of tool ${quoteToolName(tool)} was already answered and is still running; wait for its result`;
}

/** An answer to a round of a call that was answered already and whose tool then asked again. */
export function roundAnswered(tool: string): string {
  return `error: this question of tool ${quoteToolName(tool)} was already answered and the tool asked another; answer that one`;
}

/** A call id of the thread came back with another tool or other arguments than the stored call: nothing ran. */
export function callIdConflict(tool: string): string {
  return `error: this call of tool ${quoteToolName(tool)} reuses the id of an earlier call in this conversation that had other arguments, so it did not run; call the tool again`;
}

/** A call of a turn that is not a well-formed call (`problem` says what is wrong): it did not run. */
export function malformedCall(problem: string): string {
  return `error: the tool call is malformed (${problem}), so it did not run; call the tool again`;
}

/**
 * What is wrong with a call whose provider id has the form of a round key (`<id>#<n>`, identity.ts
 * hasRoundSuffix), as malformedCall and invalidCall say it: such an id could name another call's
 * later question in `resume`, so it is refused.
 */
export const ROUND_KEY_CALL_ID =
  'its id ends in "#" and digits, the form the runtime keeps for the later questions of a call';

function calls(n: number): string {
  return n === 1 ? '1 call' : `${n} calls`;
}

/** ERR_INVALID_TURN: a field of runTurn's input is missing or of the wrong type. */
export function invalidTurn(field: string, rule: string): RuntimeError {
  return new RuntimeError('ERR_INVALID_TURN', `runTurn: ${field} ${rule}`);
}

/**
 * ERR_INVALID_CALL, the diagnostic of the `refused` outcome of a malformed call of a turn (never
 * thrown): `calls[index]` and its id, what is wrong.
 */
export function invalidCall(index: number, id: unknown, problem: string): RuntimeError {
  const named =
    typeof id === 'string' ? `id ${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}...` : id)}` : 'no id';
  return new RuntimeError(
    'ERR_INVALID_CALL',
    `runTurn: calls[${index}] (${named}): ${problem}; the call did not run, the other calls of the turn did ` +
      '(check the provider reader that built it)',
  );
}

/** ERR_INVALID_TURN for any operation's input (`operation: field rule`). */
export function invalidInput(operation: string, field: string, rule: string): RuntimeError {
  return new RuntimeError('ERR_INVALID_TURN', `${operation}: ${field} ${rule}`);
}

/** ERR_INVALID_TURN for resume's input (same code: the caller's request is malformed). */
export function invalidResume(field: string, rule: string): RuntimeError {
  return new RuntimeError('ERR_INVALID_TURN', `resume: ${field} ${rule}`);
}

/** ERR_INVALID_TURN for list's filter. */
export function invalidFilter(): RuntimeError {
  return new RuntimeError(
    'ERR_INVALID_TURN',
    'list: the filter must be { threadId } or { principal } (one string member)',
  );
}

/** ERR_INVALID_RUNTIME_CONFIG naming the field and the rule. */
export function invalidConfig(field: string, rule: string): RuntimeError {
  return new RuntimeError('ERR_INVALID_RUNTIME_CONFIG', `new Runtime: ${field} ${rule}`);
}

/** ERR_UNKNOWN_CALL: nothing is stored under the key. */
export function unknownCall(threadId: string, callId: string): RuntimeError {
  return new RuntimeError(
    'ERR_UNKNOWN_CALL',
    `resume: no suspended call ${JSON.stringify(callId)} in thread ${JSON.stringify(threadId)}; ` +
      "pass the thread id and the key of the question: a suspended outcome's record.callId, as list() shows it",
  );
}

/**
 * ERR_PRINCIPAL_MISMATCH: someone else answers. `stored` / `given`: whether the suspended record and
 * the resume name a principal (both: another principal; neither names one is no mismatch). Neither
 * principal is repeated.
 */
export function principalMismatch(threadId: string, callId: string, stored: boolean, given: boolean): RuntimeError {
  const call = `resume: call ${JSON.stringify(callId)} in thread ${JSON.stringify(threadId)}`;
  const waits = ' (the call stays waiting)';
  // Regression (new-user trial, finding 14b): a resume without a principal was told it was
  // "another principal's".
  const detail = !given
    ? `${call} was suspended by a turn with a principal, and this resume gives none; pass { principal } as the turn did${waits}`
    : !stored
      ? `${call} was suspended by a turn without a principal, and this resume gives one; resume without { principal }${waits}`
      : `${call} waits for another principal's answer; answer as the principal of the turn that suspended it${waits}`;
  return new RuntimeError('ERR_PRINCIPAL_MISMATCH', detail);
}

/** ERR_INVALID_ANSWER: the answer broke the response schema, or is not JSON text. */
export function invalidAnswer(
  callId: string,
  detail: string,
  issues: readonly AnswerIssue[],
  cause: unknown,
): RuntimeError {
  return new RuntimeError(
    'ERR_INVALID_ANSWER',
    `resume: the answer to call ${JSON.stringify(callId)} is invalid: ${detail}; ` +
      "send JSON text that the request's response_schema admits (the call stays waiting)",
    { issues, cause },
  );
}

/** ERR_ID_TOO_LONG: an id over MAX_ID_BYTES bytes of UTF-8. */
export function idTooLong(operation: string, field: string, bytes: number, max: number): RuntimeError {
  return new RuntimeError(
    'ERR_ID_TOO_LONG',
    `${operation}: ${field} is ${bytes} bytes of UTF-8, over the ${max} every store keeps (MAX_ID_BYTES); ` +
      'use a shorter id (a hash of a long one)',
  );
}

/** ERR_CALL_ID_CONFLICT, the diagnostic of a `call-id-conflict` outcome (never thrown). */
export function callIdConflictError(threadId: string, callId: string, stored: string): RuntimeError {
  return new RuntimeError(
    'ERR_CALL_ID_CONFLICT',
    `runTurn: call ${JSON.stringify(callId)} of thread ${JSON.stringify(threadId)} is stored as ${stored}; ` +
      'a replayed call id must carry the same tool and arguments, so this call did not run (check how the turn was rebuilt)',
  );
}

/** The tool asked for input again after its last allowed round (MAX_SUSPENSION_ROUNDS): the call ended. */
export function tooManyRounds(tool: string, max: number): string {
  return `error: the call of tool ${quoteToolName(tool)} asked for input more than ${max} times, so it was ended without a result; call it again if it is still needed`;
}

/** ERR_TOO_MANY_ROUNDS: the diagnostic of a call that asked for input past MAX_SUSPENSION_ROUNDS. */
export function tooManyRoundsError(threadId: string, callId: string, max: number): RuntimeError {
  return new RuntimeError(
    'ERR_TOO_MANY_ROUNDS',
    `resume: call ${JSON.stringify(callId)} of thread ${JSON.stringify(threadId)} asked for input in round ${max + 1}; ` +
      `a call may suspend at most ${max} times (MAX_SUSPENSION_ROUNDS), so it ended \`failed\` (make the tool finish in fewer rounds)`,
  );
}
