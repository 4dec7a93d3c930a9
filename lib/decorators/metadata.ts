/**
 * The metadata of the decorator layer: every key in one place, and the typed readers the
 * container uses. Nothing else in scope-tool calls `Reflect.getMetadata` for these keys or for
 * `design:paramtypes`.
 *
 * reflect-metadata is imported for its global `Reflect.defineMetadata` / `getMetadata` (a
 * polyfill, idempotent): decorators need it when the class is defined.
 */
import 'reflect-metadata';
import type { Authorizer, AuthorizerFunc, ToolAnnotations } from '../protocol';

/** Watermark and options of `@Toolset()`, on the class. @internal */
export const TOOLSET_KEY = 'scope-tool:toolset';
/** `@Tool()` options, on the method function and on the prototype under the method's name. @internal */
export const TOOL_KEY = 'scope-tool:tool';
/** The method names `@Tool()` marked, on the prototype that declares them (own metadata). @internal */
export const TOOL_METHODS_KEY = 'scope-tool:tool-methods';
/** `@Authorize()` policies, on the class, or on the prototype under the method's name. @internal */
export const POLICIES_KEY = 'scope-tool:policies';
/** TypeScript's parameter types of a method (emitDecoratorMetadata). */
export const PARAMTYPES_KEY = 'design:paramtypes';

/** A class whose instances are Authorizers; the container resolves it (resolver, or `new`). */
export type AuthorizerClass = abstract new (...args: never[]) => Authorizer;

/** What `@Authorize()` accepts: an Authorizer object, an authorizer function, or an Authorizer class. */
export type Policy = Authorizer | AuthorizerFunc | AuthorizerClass;

/** The options `@Toolset()` recorded. */
export interface ToolsetMetadata {
  /** Free text describing the set (for people and generated documentation). */
  readonly description?: string;
}

/** What `@Tool()` recorded on one method. */
export interface ToolMetadata {
  /** The tool name (the method name when not given), matching ^[A-Za-z0-9_-]{1,64}$. */
  readonly name: string;
  /** The description given to the decorator, if any (the manifest's definition is authoritative). */
  readonly description?: string;
  /** The deadline given to the decorator (ms, or Infinity), if any; validated. */
  readonly timeoutMs?: number;
  /** The input DTO class given to the decorator (null: no input), if any; a class, checked at bind. */
  readonly input?: Function | null;
  /** The title given to the decorator, if any (not empty). */
  readonly title?: string;
  /** The annotations given to the decorator, if any; checked, frozen. */
  readonly annotations?: ToolAnnotations;
  /** The output DTO class given to the decorator, if any. */
  readonly output?: Function;
}

/** The `@Toolset()` options of `cls` (own, not inherited), or undefined when it is not a toolset. */
export function readToolset(cls: Function): ToolsetMetadata | undefined {
  return Reflect.getOwnMetadata(TOOLSET_KEY, cls) as ToolsetMetadata | undefined;
}

/** The method names marked `@Tool()` on `prototype` itself (not its ancestors), in declaration order. */
export function readTools(prototype: object): readonly string[] {
  return (Reflect.getOwnMetadata(TOOL_METHODS_KEY, prototype) as string[] | undefined) ?? [];
}

/**
 * The `@Tool()` metadata of a method function, or of the method `name` that `prototype` itself
 * defines (kept by prototype and name as well: a decorator written above `@Tool()` that wraps the
 * method keeps it a tool; the container reads it so); undefined when it is not a tool.
 */
export function readTool(method: Function): ToolMetadata | undefined;
export function readTool(prototype: object, name: string | symbol): ToolMetadata | undefined;
export function readTool(target: object, name?: string | symbol): ToolMetadata | undefined {
  return readOwnMetadata<ToolMetadata>(TOOL_KEY, target, name);
}

/**
 * The policies of a class (its own and its ancestors', base class first), or those written on the
 * method `method` of the prototype `target` (that prototype's own, not inherited: the container
 * gathers an override chain, lib/container/scanner.ts), in the order they are written. Method
 * policies are kept by prototype and name, not on the function: a decorator that wraps the method
 * (logging, metrics) keeps them.
 */
export function readPolicies(target: Function, kind: 'class'): readonly Policy[];
export function readPolicies(target: object, kind: 'method', method: string | symbol): readonly Policy[];
export function readPolicies(target: object, kind: 'class' | 'method', method?: string | symbol): readonly Policy[] {
  if (kind === 'method') return readOwnMetadata<Policy[]>(POLICIES_KEY, target, method) ?? [];
  // The classes up the constructor chain and those whose prototypes the instances inherit (they
  // differ after util.inherits or Object.setPrototypeOf on the prototype alone: the tools come from
  // the prototypes, so their classes' policies must too), each once, base first.
  const chain = new Set<Function>();
  for (let c: unknown = target; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.add(c as Function);
  }
  for (
    let p: unknown = (target as { prototype?: unknown }).prototype;
    typeof p === 'object' && p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    const c = Object.getOwnPropertyDescriptor(p, 'constructor')?.value as unknown;
    if (typeof c === 'function') chain.add(c as Function);
  }
  return [...chain].reverse().flatMap((c) => (Reflect.getOwnMetadata(POLICIES_KEY, c) as Policy[] | undefined) ?? []);
}

/**
 * The parameter types TypeScript emitted for `prototype[method]` (looked up through the prototype
 * chain), or undefined when there are none (emitDecoratorMetadata off, or no decorator on it).
 */
export function readParamTypes(prototype: object, method: string): readonly unknown[] | undefined {
  return Reflect.getMetadata(PARAMTYPES_KEY, prototype, method) as unknown[] | undefined;
}

/** Writes own metadata, of `target` or of its member `property`. @internal (decorators only) */
export function writeMetadata(key: string, value: unknown, target: object, property?: string | symbol): void {
  if (property === undefined) Reflect.defineMetadata(key, value, target);
  else Reflect.defineMetadata(key, value, target, property);
}

/** Reads own metadata, of `target` or of its member `property`. @internal (decorators only) */
export function readOwnMetadata<T>(key: string, target: object, property?: string | symbol): T | undefined {
  return (
    property === undefined ? Reflect.getOwnMetadata(key, target) : Reflect.getOwnMetadata(key, target, property)
  ) as T | undefined;
}
