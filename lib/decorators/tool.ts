/**
 * `@Tool()`: marks a method of a toolset as a tool.
 */
import { ToolError, validateDefinition } from '../protocol';
import type { ToolAnnotations } from '../protocol';
import { checkTimeout } from '../protocol/deadline';
import { readOwnMetadata, TOOL_KEY, TOOL_METHODS_KEY, writeMetadata } from './metadata';
import type { ToolMetadata } from './metadata';
import { placeOf, refuseStandardDecorator } from './place';

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
  /**
   * The input DTO class, or null for a method that takes no input. Needed where the compiler emits
   * no `design:paramtypes` (tsx, esbuild, Vitest, SWC without decorator metadata); where it does,
   * both must name the same class, or createRegistry refuses the tool. `scope-tool generate` checks
   * it against the first parameter's declared type.
   */
  readonly input?: (abstract new (...args: never[]) => object) | null;
  /**
   * A short name for people (MCP `title`); the Definition's `title`. Valid Unicode text.
   */
  readonly title?: string;
  /**
   * Hints about what the tool does (MCP `ToolAnnotations`): `readOnlyHint`, `destructiveHint`,
   * `idempotentHint`, `openWorldHint`, each a boolean; the Definition's `annotations`, which a
   * policy reads through `Authorization.definition()`.
   */
  readonly annotations?: ToolAnnotations;
  /**
   * The output DTO class: `scope-tool generate` derives the Definition's `outputSchema` from it
   * (as it derives the input schema), and every call's result must match it (ERR_OUTPUT_MISMATCH
   * otherwise). Without it, the generator reads a class named by the declared return type
   * (`Promise<NoteResult>`, `NoteResult`); any other return type declares no output contract.
   */
  readonly output?: abstract new (...args: never[]) => object;
}

/**
 * Marks an instance method as a tool. The method's first parameter type is its input DTO (no
 * parameter: `{}` input), given as `input` or read from `design:paramtypes[0]`; the optional second
 * parameter is a `ToolCall`. It may
 * return a string (text output), an Output, an InputRequest (suspends the call), or a JSON value;
 * it may throw a Failure or a CallError.
 * @throws ToolError ERR_INVALID_TOOL, naming `@Tool()`, class and method, when the name is invalid,
 *   the description is not a string, `timeoutMs` is not a whole number of ms from 1 to
 *   MAX_TIMEOUT_MS nor Infinity, `input` is neither a class nor null, `output` is not a class,
 *   `title` is not text, `annotations` has a member other than the four hints or a hint that is not
 *   a boolean (the Definition's rules, lib/protocol/definition.ts), the target is not an
 *   instance method (static, accessor, field), or the method is marked twice; and when it runs as a
 *   standard (TC39) decorator, compiled without `experimentalDecorators`
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    refuseStandardDecorator('@Tool()', key);
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
    // The manifest and the container name a tool's method by its name (Class.method).
    if (typeof key === 'symbol')
      throw new ToolError('ERR_INVALID_TOOL', `${where}: a tool method must have a string name, not a symbol`);
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
    const input: unknown = options.input;
    if (input !== undefined && input !== null && !isClass(input)) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        `${where}: input must be the input DTO class, or null for a method without input`,
      );
    }
    const output: unknown = options.output;
    if (output !== undefined && !isClass(output)) {
      throw new ToolError('ERR_INVALID_TOOL', `${where}: output must be the output DTO class`);
    }
    if (options.title !== undefined || options.annotations !== undefined) {
      try {
        validateDefinition({
          name,
          inputSchema: { type: 'object' },
          title: options.title,
          annotations: options.annotations,
        });
      } catch (e) {
        // The Definition's own rule and wording (unknown hint, wrong type), said of this decorator.
        throw new ToolError(
          'ERR_INVALID_TOOL',
          `${where}: ${(e as Error).message.replace(/^tool: invalid definition: tool "[^"]*": /, '')}`,
          { cause: e },
        );
      }
    }
    const method = descriptor.value as Function;
    if (readOwnMetadata(TOOL_KEY, method) !== undefined || readOwnMetadata(TOOL_KEY, target, key) !== undefined)
      throw new ToolError('ERR_INVALID_TOOL', `${where}: @Tool() is applied twice; keep one`);
    const metadata: ToolMetadata = Object.freeze({
      name,
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(input === undefined ? {} : { input }),
      ...(options.title === undefined || options.title === '' ? {} : { title: options.title }),
      ...(options.annotations === undefined ? {} : { annotations: Object.freeze({ ...options.annotations }) }),
      ...(output === undefined ? {} : { output }),
    });
    writeMetadata(TOOL_KEY, metadata, method);
    // By prototype and name too: a decorator applied after this one may replace the function.
    writeMetadata(TOOL_KEY, metadata, target, key);
    const names = readOwnMetadata<string[]>(TOOL_METHODS_KEY, target) ?? [];
    writeMetadata(TOOL_METHODS_KEY, [...names, key as string], target);
  };
}

/** A class (or a function usable as one): arrow functions, methods and bound functions have no prototype. */
function isClass(value: unknown): value is Function {
  return typeof value === 'function' && typeof (value as { prototype?: unknown }).prototype === 'object';
}
