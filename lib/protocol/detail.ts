/**
 * Message helpers for re-wrapping ToolErrors without repeating the Go sentinel text.
 * @internal
 */
import { ERROR_MESSAGES, ToolError, instanceOf, messageOf, wrapError } from './errors';
import type { ToolErrorCode } from './errors';

/** The message of `err` without its own sentinel prefix (`tool: invalid tool: x` gives `x`). */
export function detailOf(err: unknown): string {
  const message = messageOf(err);
  if (instanceOf(err, ToolError)) {
    const prefix = `${ERROR_MESSAGES[err.code]}: `;
    if (message.startsWith(prefix)) return message.slice(prefix.length);
    if (message === ERROR_MESSAGES[err.code]) return '';
  }
  return message;
}

/**
 * Wraps `inner` under `code` with a location segment, repeating no prefix (wrapError):
 * `tool: invalid tool: tools[0]: tool is nil`. The inner error stays the standard cause and its
 * issues are carried along.
 */
export function rewrap(code: ToolErrorCode, inner: unknown, segment: string): ToolError {
  return wrapError(code, inner, segment);
}
