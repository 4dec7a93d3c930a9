/**
 * Finds the `@Tool()` methods of a toolset class, inheritance included. One scan per class,
 * cached in a WeakMap (no global mutable state beyond that cache of immutable results).
 */
import { readPolicies, readTool, readTools } from '../decorators';
import type { Policy, ToolMetadata } from '../decorators';
import { madeAccessor } from './messages';

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
  for (const p of prototypesOf(cls.prototype as object)) {
    for (const n of readTools(p)) if (!names.includes(n)) names.push(n);
  }
  const found: ScannedTool[] = [];
  for (const methodName of names) {
    const owner = definingPrototype(cls.prototype as object, methodName);
    if (owner === undefined) continue;
    // By prototype and name: the most derived definition carries @Tool() itself (a wrapping
    // decorator written above @Tool() may have replaced the function it marked).
    const metadata = readTool(owner, methodName);
    const method: unknown = Object.getOwnPropertyDescriptor(owner, methodName)?.value;
    if (typeof method !== 'function') {
      // An override that is an accessor or a field is not a tool; but @Tool() on this very class
      // with an accessor in the end means a decorator above it made one (autobind): say so.
      if (metadata !== undefined) throw madeAccessor(`${cls.name}.${methodName}`);
      continue;
    }
    if (metadata === undefined) continue;
    const policies = methodPolicies(owner, methodName, metadata.name);
    found.push(Object.freeze({ methodName, method, prototype: owner, metadata, policies }));
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
  for (const p of prototypesOf(owner)) {
    const own = readTools(p).filter((m) => m !== name && readTool(p, m)?.name === tool);
    chain.unshift([name, ...own].flatMap((m) => readPolicies(p, 'method', m)));
  }
  return chain.flat();
}

/** `start` and the prototypes above it, up to (not including) Object.prototype. */
function* prototypesOf(start: object): Generator<object> {
  for (
    let p: unknown = start;
    typeof p === 'object' && p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  )
    yield p;
}

function definingPrototype(start: object, name: string): object | undefined {
  for (const p of prototypesOf(start)) if (Object.prototype.hasOwnProperty.call(p, name)) return p;
  return undefined;
}
