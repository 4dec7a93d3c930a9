/**
 * `@Authorize(...policies)`: the policies that must all permit a call, on a class (every tool of
 * the set) or on a method.
 */
import { ToolError } from '../protocol';
import { POLICIES_KEY, readOwnMetadata, writeMetadata } from './metadata';
import type { Policy } from './metadata';
import { placeOf, refuseStandardDecorator } from './place';

/** Whether `value` is a class declaration (`class X {}`), as opposed to a plain function. */
function isClass(value: Function): boolean {
  try {
    return /^class[\s{]/.test(Function.prototype.toString.call(value));
  } catch {
    return false;
  }
}

/**
 * Whether `value` is a policy `@Authorize()` accepts: an Authorizer (an object with `authorize()`),
 * a function `(authorization, options) => boolean | Promise<boolean>`, or a class whose prototype
 * has `authorize()` (resolved by the container).
 */
export function isPolicy(value: unknown): value is Policy {
  if (typeof value === 'function') {
    if (!isClass(value)) return true;
    return typeof (value.prototype as { authorize?: unknown } | undefined)?.authorize === 'function';
  }
  return (
    typeof value === 'object' && value !== null && typeof (value as { authorize?: unknown }).authorize === 'function'
  );
}

/**
 * Adds policies to a class or a method. Every policy must permit (AND); class policies run before
 * method policies, and within one place in the order written (top decorator first, left to right).
 * Two `@Authorize()` on one place both apply.
 * @throws ToolError ERR_INVALID_TOOL when no policy is given, or one is not an Authorizer, a
 *   function or an Authorizer class: `@Authorize() on NotesTools.createNote: policy 2 is not an
 *   Authorizer, function or class`; and when it runs as a standard (TC39) decorator, compiled
 *   without `experimentalDecorators`
 */
export function Authorize(...policies: Policy[]): ClassDecorator & MethodDecorator {
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    refuseStandardDecorator('@Authorize()', key);
    const where = `@Authorize() on ${placeOf(target, key)}`;
    if (policies.length === 0) throw new ToolError('ERR_INVALID_TOOL', `${where}: give at least one policy`);
    policies.forEach((p, i) => {
      if (!isPolicy(p)) {
        throw new ToolError(
          'ERR_INVALID_TOOL',
          `${where}: policy ${i + 1} is not an Authorizer, function or class; pass an object with authorize(), a function returning a boolean, or a class with authorize()`,
        );
      }
    });
    if (key !== undefined && typeof descriptor?.value !== 'function')
      throw new ToolError('ERR_INVALID_TOOL', `${where}: apply it to a class or a method`);
    // On the class, or on the prototype under the method's name (not on the function: a decorator
    // that wraps the method must not shed them). Decorators run bottom-up: the decorator applied
    // later is written above, so it goes first.
    const existing = readOwnMetadata<Policy[]>(POLICIES_KEY, target, key) ?? [];
    writeMetadata(POLICIES_KEY, Object.freeze([...policies, ...existing]), target, key);
  }) as ClassDecorator & MethodDecorator;
}
