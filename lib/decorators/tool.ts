/**
 * `@Tool()`: marks a method of a toolset as a tool.
 */
import { ToolError } from '../protocol';
import { checkTimeout } from '../protocol/deadline';
import { readOwnMetadata, TOOL_KEY, TOOL_METHODS_KEY, writeMetadata } from './metadata';
import type { ToolMetadata } from './metadata';
import { placeOf } from './place';

/** Tool names (docs/architecture.md section 2, Definition): ASCII letters, digits, `_` and `-`, 1 to 64. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Options of `@Tool()`. */
export interface ToolOptions {
  /** The tool name; defaults to the method name. Must match ^[A-Za-z0-9_-]{1,64}$. */
  readonly name?: string;
  /** A description; the manifest's (from the method's JSDoc) is what the model is shown. */
  readonly description?: string;
  /**
   * The deadline of each call of this tool, in milliseconds: a whole number from 1 to
   * MAX_TIMEOUT_MS (2,147,483,647), or Infinity for none. Default: createRegistry's `timeoutMs`
   * (ScopeToolModule.forRoot's), else DEFAULT_TIMEOUT_MS (60,000). A call's own
   * `CallOptions.timeoutMs` can only shorten it. At the deadline the call ends with a Failure of
   * kind `failed` (`error: tool "NAME" timed out after N ms`) and the method's `call.signal` aborts.
   */
  readonly timeoutMs?: number;
}

/**
 * Marks an instance method as a tool. The method's first parameter type (`design:paramtypes[0]`) is
 * its input DTO (no parameter: `{}` input); the optional second parameter is a `ToolCall`. It may
 * return a string (text output), an Output, an InputRequest (suspends the call), or a JSON value;
 * it may throw a Failure or a CallError.
 * @throws ToolError ERR_INVALID_TOOL, naming `@Tool()`, class and method, when the name is invalid,
 *   the description is not a string, `timeoutMs` is not a whole number of ms from 1 to
 *   MAX_TIMEOUT_MS nor Infinity, the target is not an instance method (static, accessor, field),
 *   or the method is marked twice
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    const where = `@Tool() on ${placeOf(target, key)}`;
    if (typeof options !== 'object' || options === null) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        `${where}: options must be an object, for example { name: 'create_note' }`,
      );
    }
    if (typeof target === 'function')
      throw new ToolError('ERR_INVALID_TOOL', `${where}: a tool must be an instance method, not static`);
    if (typeof descriptor?.value !== 'function') {
      throw new ToolError('ERR_INVALID_TOOL', `${where}: a tool must be a method, not an accessor or a field`);
    }
    const name = options.name ?? (typeof key === 'string' ? key : '');
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        `${where}: tool name ${JSON.stringify(typeof name === 'string' ? name : String(name))} must match ^[A-Za-z0-9_-]{1,64}$; pass { name: 'snake_case_name' }`,
      );
    }
    if (options.description !== undefined && typeof options.description !== 'string') {
      throw new ToolError('ERR_INVALID_TOOL', `${where}: description must be a string`);
    }
    const timeoutMs =
      options.timeoutMs === undefined
        ? undefined
        : checkTimeout(options.timeoutMs, 'ERR_INVALID_TOOL', `${where}: timeoutMs`);
    const method = descriptor.value as Function;
    if (readOwnMetadata(TOOL_KEY, method) !== undefined)
      throw new ToolError('ERR_INVALID_TOOL', `${where}: @Tool() is applied twice; keep one`);
    const metadata: ToolMetadata = Object.freeze({
      name,
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    writeMetadata(TOOL_KEY, metadata, method);
    const names = readOwnMetadata<string[]>(TOOL_METHODS_KEY, target) ?? [];
    writeMetadata(TOOL_METHODS_KEY, [...names, key as string], target);
  };
}
