/**
 * The checks of what a caller gives runTurn, resume and list (lib/runtime/runtime.ts), made before
 * anything runs: the caller's own ids (thread id, principal) must be ids every store keeps, and
 * each call of a turn must be a well-formed call with such an id. A malformed call is refused on
 * its own (ERR_INVALID_CALL, or ERR_ID_TOO_LONG for an id over MAX_ID_BYTES); its siblings run.
 * @internal
 */
import { malformedCall } from '../providers/tool-call';
import type { AssembledToolCall } from '../providers/tool-call';
import type { RuntimeError } from './errors';
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
  const idText = typeof id === 'string' ? id : '';
  const nameText = typeof name === 'string' ? name : '';
  const refuse = (model: string, error: RuntimeError): ReadCall => ({
    call: { ...malformedCall(idText, nameText, model), complete: true },
    problem: { model, error },
  });
  const invalid = (model: string) => refuse(model, text.invalidCall(index, id, model));
  if (why !== undefined) return invalid(why);
  if (typeof id !== 'string') return invalid('its id is not a string');
  if (typeof request !== 'object' || request === null) return invalid('it has no request { name, arguments }');
  if (typeof name !== 'string') return invalid('its tool name is not a string');
  if (typeof args !== 'string') return invalid('its arguments are not JSON text');
  if (complete !== undefined && typeof complete !== 'boolean') return invalid('its complete flag is not a boolean');
  if (malformed !== undefined && typeof malformed !== 'string') return invalid('its malformed note is not a string');
  if (unstorable(id)) return invalid('its id holds a NUL character or a lone surrogate, which no store keeps');
  const bytes = bytesOver(id);
  if (bytes !== undefined) {
    return refuse(
      `its id is ${bytes} bytes of UTF-8, over the ${MAX_ID_BYTES} a store keeps`,
      text.idTooLong('runTurn', `calls[${index}].id`, bytes, MAX_ID_BYTES),
    );
  }
  const call: AssembledToolCall = {
    id,
    request: { name, arguments: args },
    complete: complete !== false,
    ...(malformed === undefined ? {} : { malformed }),
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
