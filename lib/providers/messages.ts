/**
 * Messages of the providers layer for the developer (never shown to the model), worded in one
 * place. The sentences are tested once, in spec/providers/messages.spec.ts; other tests assert codes.
 * @internal
 */
import { ToolError } from '../protocol';
import { ERROR_MESSAGES, wrappedText } from '../protocol/errors';

/** At most this many member names of a mis-shaped call are listed. */
const LISTED_MEMBERS = 5;
/** A listed member name is cut to this many UTF-16 code units. */
const MEMBER_NAME = 32;

/**
 * What a value is, for a message about a call's shape: `null`, `a string`, `an array`,
 * `an object with members id, name, arguments` (at most 5 names, each at most 32 code units).
 * Never throws (a member list that cannot be read is said so).
 */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object')
    return value === undefined ? 'undefined' : `a${/^[aeiou]/.test(typeof value) ? 'n' : ''} ${typeof value}`;
  let keys: string[];
  try {
    keys = Object.keys(value);
  } catch {
    return 'an object whose members cannot be read';
  }
  if (keys.length === 0) return 'an empty object';
  const listed = keys
    .slice(0, LISTED_MEMBERS)
    .map((k) => (k.length > MEMBER_NAME ? `${k.slice(0, MEMBER_NAME)}...` : k));
  const more = keys.length > LISTED_MEMBERS ? ` and ${keys.length - LISTED_MEMBERS} more` : '';
  return `an object with member${keys.length === 1 ? '' : 's'} ${listed.join(', ')}${more}`;
}

/**
 * `prepareToolCall` was given something other than `{ id, request: { name, arguments } }` with
 * string `name` and `arguments`: a bug of the calling code (every provider reader builds that
 * shape, a model's mistake included), so it is not a refusal and the model is not told.
 * `found` says what was given (`an object with members id, name, arguments`).
 * ERR_INVALID_INVOCATION wrapping ERR_INVALID_REQUEST.
 */
export function notAToolCall(found: string, cause?: unknown): ToolError {
  return developerError(
    `prepareToolCall: the call must be { id, request: { name, arguments } }, name the tool name and arguments the ` +
      `model's JSON text (a string), but it is ${found}; pass a call as the provider readers return it ` +
      '(openAIChatToolCalls, anthropicToolCalls, geminiFunctionCalls, ...) or build that shape',
    cause,
  );
}

/**
 * `prepareToolCall` was given a first argument that is not a Registry (no `resolve` and
 * `definitions` methods): a bug of the calling code, not a refusal. `found` says what was given.
 * ERR_INVALID_INVOCATION wrapping ERR_INVALID_REQUEST; a getter that threw is the inner cause.
 */
export function notARegistry(found: string, cause?: unknown): ToolError {
  return developerError(
    `prepareToolCall: the registry must be a Registry (with resolve and definitions methods), but it is ${found}; ` +
      'pass the Registry holding the tools the model was offered',
    cause,
  );
}

/**
 * Reading a member of a call threw (a getter or proxy trap of the calling code). The thrown value
 * is kept as the cause only: its message is never part of this text. `member` names what was read
 * (`call.request`).
 */
export function unreadableMember(member: string): string {
  return `an object whose ${member} could not be read (reading it threw; the thrown value is the cause)`;
}

/** ERR_INVALID_INVOCATION wrapping ERR_INVALID_REQUEST (`detail`, with `cause` when given). */
function developerError(detail: string, cause: unknown): ToolError {
  const inner = new ToolError('ERR_INVALID_REQUEST', detail, cause === undefined ? {} : { cause });
  return new ToolError('ERR_INVALID_INVOCATION', wrappedText(ERROR_MESSAGES.ERR_INVALID_INVOCATION, inner), {
    cause: inner,
  });
}
