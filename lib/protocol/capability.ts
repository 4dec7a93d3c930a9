/**
 * Capability lookup through decorator chains. Ports `WrappingTool` and `Capability[T]`.
 */
import { ToolError, messageOf } from './errors';
import type { Tool } from './tool';

/**
 * A tool that decorates another one (Guard does). `unwrap()` returns the next inner tool; it must be
 * stable and do no I/O. Ports WrappingTool.
 */
export interface WrappingTool {
  unwrap(): Tool;
}

/** Most wrappers a chain may hold above a capability: the 65th unwrap is refused. */
export const MAX_WRAPPERS = 64;

/** Reports whether `value` implements WrappingTool (has an `unwrap` function). */
export function isWrappingTool(value: unknown): value is WrappingTool {
  return typeof value === 'object' && value !== null && typeof (value as WrappingTool).unwrap === 'function';
}

function typeName(value: unknown): string {
  try {
    const ctor = (value as { constructor?: { name?: unknown } }).constructor;
    return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : typeof value;
  } catch {
    return typeof value;
  }
}

/**
 * Finds the outermost tool in the wrapping chain of `tool` that satisfies `isT`. Walks depth
 * 0, 1, 2, ...: a null tool or a non-wrapper ends the search (undefined); a match is returned
 * before the depth check, so a capability after 64 unwraps is found; a 65th unwrap is refused.
 * Cycles are caught by the depth limit. Ports Capability[T].
 * @param isT - the runtime predicate standing in for Go's type assertion
 * @throws ToolError ERR_INVALID_WRAPPING_CHAIN when the chain exceeds 64 wrappers
 *   (`<Type> exceeds 64 wrappers`) or an unwrap() throws (the thrown value is the cause)
 */
export function capability<T>(
  tool: Tool | undefined | null,
  isT: (candidate: unknown) => candidate is T,
): T | undefined {
  let current: unknown = tool;
  for (let depth = 0; ; depth++) {
    if (current === null || current === undefined) return undefined;
    if (isT(current)) return current;
    if (!isWrappingTool(current)) return undefined;
    if (depth === MAX_WRAPPERS) {
      throw new ToolError(
        'ERR_INVALID_WRAPPING_CHAIN',
        `${typeName(tool)} exceeds ${MAX_WRAPPERS} wrappers; shorten the chain or break its cycle`,
      );
    }
    try {
      current = current.unwrap();
    } catch (e) {
      throw new ToolError(
        'ERR_INVALID_WRAPPING_CHAIN',
        `${typeName(tool)} unwrap() threw at depth ${depth}: ${messageOf(e)}`,
        {
          cause: e,
        },
      );
    }
  }
}
