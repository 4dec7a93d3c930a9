/**
 * Policies of a tool: resolution (an Authorizer class becomes one instance per container) and
 * composition into Guards.
 */
import { Guard } from '../protocol';
import type { Authorizer, AuthorizerFunc, Tool } from '../protocol';
import type { Policy } from '../decorators';
import { policyWithoutAuthorize } from './messages';

/** Builds instances of classes: the container's resolver, or `new` for zero-argument constructors. @internal */
export type Instantiate = (cls: Function, what: string) => object;

/**
 * Resolves policies for one container: a class policy is resolved once and shared by every tool
 * of the container; an Authorizer object or a function is used as is. @internal
 */
export class PolicyResolver {
  readonly #instances = new Map<Function, Authorizer>();
  readonly #instantiate: Instantiate;

  constructor(instantiate: Instantiate) {
    this.#instantiate = instantiate;
  }

  /** The Authorizer (or function) for `policy`. */
  resolve(policy: Policy, where: string): Authorizer | AuthorizerFunc {
    if (
      typeof policy !== 'function' ||
      typeof (policy.prototype as { authorize?: unknown } | undefined)?.authorize !== 'function'
    ) {
      return policy as Authorizer | AuthorizerFunc;
    }
    const cached = this.#instances.get(policy);
    if (cached !== undefined) return cached;
    const instance = this.#instantiate(
      policy,
      `policy ${policy.name || '(anonymous class)'} of ${where}`,
    ) as Authorizer;
    if (typeof instance.authorize !== 'function') {
      throw policyWithoutAuthorize(policy, where);
    }
    this.#instances.set(policy, instance);
    return instance;
  }
}

/**
 * Wraps `tool` in one Guard per policy so that `policies[0]` is the outermost (asked first) and
 * every policy must permit (AND): the first refusal, error or abort stops the call, and the tool
 * runs only after all permitted. Class policies come first because they guard the whole set: a
 * method policy must never be asked (and observe arguments) when the set refuses the caller.
 * @internal
 */
export function guardAll(tool: Tool, policies: readonly (Authorizer | AuthorizerFunc)[]): Tool {
  return policies.reduceRight<Tool>((inner, authorizer) => new Guard({ tool: inner, authorizer }), tool);
}
