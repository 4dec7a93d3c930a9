/**
 * Finds the `@Tool()` methods of a toolset class, inheritance included. One scan per class,
 * cached in a WeakMap (no global mutable state beyond that cache of immutable results).
 */
import { readPolicies, readTool, readTools } from '../decorators';
import type { Policy, ToolMetadata } from '../decorators';
import { ToolError } from '../protocol';

/** One tool method of a class. @internal */
export interface ScannedTool {
  /** The method's property name. */
  readonly methodName: string;
  /** The function that runs (the most derived definition). */
  readonly method: Function;
  /** The prototype that defines `method` (where its `design:paramtypes` live). */
  readonly prototype: object;
  readonly metadata: ToolMetadata;
  /**
   * The `@Authorize` policies of the method and of every definition it overrides, base class first,
   * each in written order: an override keeps the policies of the method it replaces, as a class
   * keeps its base classes' (lib/decorators/metadata.ts readPolicies).
   */
  readonly policies: readonly Policy[];
}

const scans = new WeakMap<Function, readonly ScannedTool[]>();

/**
 * The tool methods of `cls`, most derived class first, each name once. A method name marked
 * `@Tool()` anywhere in the chain counts only if its most derived definition is a plain method
 * carrying `@Tool()` itself: an override without `@Tool()` is not a tool, an accessor is skipped.
 * @internal
 */
export function scanToolset(cls: Function): readonly ScannedTool[] {
  const cached = scans.get(cls);
  if (cached !== undefined) return cached;
  const names: string[] = [];
  for (
    let p: unknown = cls.prototype;
    p !== null && p !== Object.prototype && typeof p === 'object';
    p = Object.getPrototypeOf(p)
  ) {
    for (const n of readTools(p as object)) if (!names.includes(n)) names.push(n);
  }
  const found: ScannedTool[] = [];
  for (const methodName of names) {
    const owner = definingPrototype(cls.prototype as object, methodName);
    if (owner === undefined) continue;
    const descriptor = Object.getOwnPropertyDescriptor(owner, methodName);
    if (descriptor === undefined || typeof descriptor.value !== 'function') {
      // An override that is an accessor or a field is not a tool; but @Tool() on this very class
      // with an accessor in the end means a decorator above it made one (autobind): say so.
      if (readTool(owner, methodName) !== undefined) throw madeAccessor(cls, methodName);
      continue;
    }
    // By prototype and name: the most derived definition carries @Tool() itself (a wrapping
    // decorator written above @Tool() may have replaced the function it marked).
    const metadata = readTool(owner, methodName);
    if (metadata === undefined) continue;
    const method = descriptor.value as Function;
    found.push(
      Object.freeze({
        methodName,
        method,
        prototype: owner,
        metadata,
        policies: methodPolicies(owner, methodName, metadata.name),
      }),
    );
  }
  const result = Object.freeze(found);
  scans.set(cls, result);
  return result;
}

/**
 * The policies a tool keeps from its class chain, base first: on each prototype from the base class
 * down to `owner`, those written on the method `name` (an override keeps the policies of the method
 * it replaces) and on any other `@Tool()` method there named `tool` (a subclass that gives a base
 * tool's name to another method keeps that tool's policies: the model calls it by that name).
 * Regressions: an override (`@Tool()` repeated, `@Authorize` not) ran for every caller, and so did
 * a subclass's new method named like the base tool it replaced.
 */
function methodPolicies(owner: object, name: string, tool: string): Policy[] {
  const chain: Policy[][] = [];
  for (
    let p: object | null = owner;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    const own = readTools(p).filter((m) => m !== name && toolNameOf(p as object, m) === tool);
    chain.unshift([name, ...own].flatMap((m) => readPolicies(p as object, 'method', m)));
  }
  return chain.flat();
}

/** The `@Tool()` name of the method `m` defined on `p`, or undefined. */
function toolNameOf(p: object, m: string): string | undefined {
  return readTool(p, m)?.name;
}

/** ERR_INVALID_TOOL: a decorator written above @Tool() turned the method into an accessor. */
function madeAccessor(cls: Function, name: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `@Tool() on ${cls.name}.${name}: a decorator above it made the method an accessor (autobind?), which is no tool; write @Tool() above it, or bind in the constructor`,
  );
}

function definingPrototype(start: object, name: string): object | undefined {
  for (
    let p: object | null = start;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    if (Object.prototype.hasOwnProperty.call(p, name)) return p;
  }
  return undefined;
}
