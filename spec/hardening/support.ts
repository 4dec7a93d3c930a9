/**
 * Shared fixtures of the hardening specs: hostile thrown values, a minimal Tool, and a runner that
 * turns one prepared call into a ToolOutcome (what providers render).
 */
import { bind } from '../../lib/protocol';
import type { Binding, CallOptions, Definition, JsonObject, Result, Tool } from '../../lib/protocol';
import type { ToolOutcome } from '../../lib/providers';

/** A Proxy whose every trap throws: reading, testing, enumerating or describing it fails. */
export function hostileProxy(): object {
  const trap = (): never => {
    throw new Error('proxy trap');
  };
  return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap });
}

/** An object whose name, message, cause, stack and toString getters all throw. */
export function throwingGetters(): object {
  const boom = (): never => {
    throw new Error('getter');
  };
  return Object.defineProperties(
    {},
    {
      name: { get: boom },
      message: { get: boom },
      cause: { get: boom },
      stack: { get: boom },
      toString: { get: boom },
    },
  );
}

/** The non-Error values a tool or a policy may throw, each with a label for test names. */
export function hostileThrows(): [string, () => unknown][] {
  return [
    ['a string', () => 'boom'],
    ['undefined', () => undefined],
    ['null', () => null],
    ['a number', () => 42],
    ['a frozen object', () => Object.freeze({ reason: 'frozen' })],
    ['an object whose getters throw', throwingGetters],
    ['a Proxy whose traps throw', hostileProxy],
    ['a Symbol', () => Symbol('boom')],
  ];
}

export const OPEN_SCHEMA: JsonObject = { type: 'object' };

/** A Tool whose call is `impl`; its definition is fixed at creation. */
export function rawTool(
  name: string,
  impl: (options?: CallOptions) => Promise<Result>,
  inputSchema: JsonObject = OPEN_SCHEMA,
): Tool {
  const definition: Definition = { name, inputSchema };
  return { definition: () => definition, call: (_invocation, options) => impl(options) };
}

/** Prepares `args` through the binding's contract and runs it; the thrown value or Result as an outcome. */
export async function outcomeOf(binding: Binding, args = '{}', options?: CallOptions): Promise<ToolOutcome> {
  try {
    const invocation = binding.contract.prepare({ name: binding.contract.name, arguments: args });
    return { result: await binding.call(invocation, options) };
  } catch (error) {
    return { error };
  }
}

/** Binds `tool` and runs one call with `{}` arguments. */
export function runTool(tool: Tool, options?: CallOptions): Promise<ToolOutcome> {
  return outcomeOf(bind(tool), '{}', options);
}

/** The thrown value of an outcome (fails the test when the outcome is a result). */
export function thrown(outcome: ToolOutcome): unknown {
  if (!('error' in outcome)) throw new Error(`expected an error outcome, got a result`);
  return outcome.error;
}

/** Snapshot of the own property names of the three prototypes a pollution attack targets. */
export function prototypeSnapshot(): string {
  const names = (o: object): string[] => Reflect.ownKeys(o).map(String).sort();
  return JSON.stringify([names(Object.prototype), names(Array.prototype), names(Function.prototype)]);
}
