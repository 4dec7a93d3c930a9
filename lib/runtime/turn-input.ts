/**
 * The checks of what a caller gives runTurn, resume and list (lib/runtime/runtime.ts), made before
 * anything runs: the caller's own ids (thread id, principal) must be ids every store keeps, and
 * each call of a turn must be a well-formed call with such an id, not of the form of a round key
 * (`<id>#<n>`, identity.ts hasRoundSuffix). A malformed call is refused on
 * its own (ERR_INVALID_CALL, or ERR_ID_TOO_LONG for an id over MAX_ID_BYTES); its siblings run.
 * @internal
 */
import { malformedCall } from '../providers/tool-call';
import type { AssembledToolCall } from '../providers/tool-call';
import type { RuntimeError } from './errors';
import { hasRoundSuffix } from './identity';
import * as text from './messages';
import { MAX_ID_BYTES } from './store';

// A NUL cannot be stored in a PostgreSQL text column, and a lone surrogate would be changed to
// U+FFFD on its way to a database, so two ids could collide (lib/runtime/store.ts, key strings).
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `value` holds a NUL or a lone surrogate, which no store keeps unchanged. */
export function unstorable(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** The UTF-8 length of `value` when it is over `max` bytes, else undefined. */
export function bytesOver(value: string, max = MAX_ID_BYTES): number | undefined {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short strings need no count.
  if (value.length * 3 <= max) return undefined;
  const bytes = Buffer.byteLength(value, 'utf8');
  return bytes > max ? bytes : undefined;
}

/** What is wrong with a call: the model's text (no diagnostics) and the caller's error. */
export interface CallProblem {
  readonly model: string;
  readonly error: RuntimeError;
}

/**
 * A call of a turn, read once: `call` holds only strings (a malformed call becomes a `malformed`
 * call with the id and name it had when they were strings, else `''`), and `problem` is set when
 * the call must not run.
 */
export interface ReadCall {
  readonly call: AssembledToolCall;
  readonly problem?: CallProblem;
}

/** A call that must not run: a `malformed` call with the id and name it had when they were strings. */
function refused(id: unknown, name: unknown, model: string, error: RuntimeError): ReadCall {
  const idText = typeof id === 'string' ? id : '';
  const nameText = typeof name === 'string' ? name : '';
  return { call: { ...malformedCall(idText, nameText, model), complete: true }, problem: { model, error } };
}

/** Reads `value`, the call at `index` of a turn's `calls` (never throws, whatever it is). */
export function readCall(value: unknown, index: number): ReadCall {
  let id: unknown;
  let request: unknown;
  let name: unknown;
  let args: unknown;
  let complete: unknown;
  let malformed: unknown;
  let why: string | undefined;
  try {
    if (typeof value !== 'object' || value === null) {
      why = 'is not a tool call object { id, request }';
    } else {
      const v = value as Record<string, unknown>;
      id = v.id;
      request = v.request;
      complete = v.complete;
      malformed = v.malformed;
      if (typeof request === 'object' && request !== null) {
        name = (request as Record<string, unknown>).name;
        args = (request as Record<string, unknown>).arguments;
      }
    }
  } catch {
    why = 'could not be read (reading a member threw)';
  }
  // The checks name their problem; no closure is made per call (the build names every named
  // closure with a defineProperty, esbuild keepNames: a cost per call).
  if (why === undefined) {
    if (typeof id !== 'string') why = 'its id is not a string';
    else if (typeof request !== 'object' || request === null) why = 'it has no request { name, arguments }';
    else if (typeof name !== 'string') why = 'its tool name is not a string';
    else if (typeof args !== 'string') why = 'its arguments are not JSON text';
    else if (complete !== undefined && typeof complete !== 'boolean') why = 'its complete flag is not a boolean';
    else if (malformed !== undefined && typeof malformed !== 'string') why = 'its malformed note is not a string';
    else if (unstorable(id)) why = 'its id holds a NUL character or a lone surrogate, which no store keeps';
    // `<id>#<n>` is the key of round n of call <id>: a provider id of that form could be answered
    // by (or answer) another call's question (docs/runtime.md, Suspension).
    else if (hasRoundSuffix(id)) why = text.ROUND_KEY_CALL_ID;
  }
  if (why !== undefined) return refused(id, name, why, text.invalidCall(index, id, why));
  const bytes = bytesOver(id as string);
  if (bytes !== undefined) {
    return refused(
      id,
      name,
      `its id is ${bytes} bytes of UTF-8, over the ${MAX_ID_BYTES} a store keeps`,
      text.idTooLong('runTurn', `calls[${index}].id`, bytes, MAX_ID_BYTES),
    );
  }
  const call: AssembledToolCall = {
    id: id as string,
    request: { name: name as string, arguments: args as string },
    complete: complete !== false,
    ...(malformed === undefined ? {} : { malformed: malformed as string }),
  };
  return { call };
}

/**
 * Checks a caller's own id (thread id, principal, call id to resume) for what no store keeps.
 * @throws RuntimeError ERR_INVALID_TURN for a NUL or a lone surrogate; ERR_ID_TOO_LONG over `max` bytes
 */
export function checkCallerId(operation: string, field: string, value: string, max = MAX_ID_BYTES): void {
  if (unstorable(value)) {
    throw text.invalidInput(
      operation,
      field,
      'must not hold a NUL character or a lone surrogate (no store keeps them)',
    );
  }
  const bytes = bytesOver(value, max);
  if (bytes !== undefined) throw text.idTooLong(operation, field, bytes, max);
}
