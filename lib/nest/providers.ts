/**
 * What ScopeToolModule reads from Nest's provider wrappers: the class a provider holds, the module
 * that declares it, and its instance under the scope rules of the module (see scopedInstance).
 * @internal
 */
import { Scope } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { placeOf, providedTwice, requestScoped } from './messages';

/** One provider of a class we need (a toolset or a policy). */
export interface FoundProvider {
  readonly cls: Function;
  readonly wrapper: InstanceWrapper;
  /** The declaring module's class name, for messages. */
  readonly moduleName: string | undefined;
}

/**
 * The class of the value a provider yields: the class of a class provider; for a value or factory
 * provider, the constructor of its (static) instance; undefined for aliases (`useExisting`, whose
 * target is a provider of its own) and for what is not an object.
 */
export function classOf(wrapper: InstanceWrapper): Function | undefined {
  if (wrapper.isAlias) return undefined;
  if (!wrapper.isNotMetatype && typeof wrapper.metatype === 'function') return wrapper.metatype;
  let instance: unknown;
  try {
    instance = wrapper.instance;
  } catch {
    return undefined;
  }
  if (instance === null || typeof instance !== 'object') return undefined;
  const cls = (instance as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object ? cls : undefined;
}

/** `wrapper.host`'s module class name. */
function moduleNameOf(wrapper: InstanceWrapper): string | undefined {
  const name = (wrapper.host as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The providers whose class passes `accept`, one per class.
 * @throws ToolError ERR_INVALID_TOOL when two modules provide the same class (two instances)
 */
export function providersOf(wrappers: readonly InstanceWrapper[], kind: 'toolset' | 'policy', accept: (cls: Function) => boolean): Map<Function, FoundProvider> {
  const found = new Map<Function, FoundProvider>();
  for (const wrapper of wrappers) {
    const cls = classOf(wrapper);
    if (cls === undefined || !accept(cls)) continue;
    const moduleName = moduleNameOf(wrapper);
    const seen = found.get(cls);
    if (seen !== undefined) {
      if (seen.wrapper === wrapper || (isStaticSingleton(seen.wrapper) && seen.wrapper.instance === wrapper.instance)) continue;
      throw providedTwice(kind, cls, seen.moduleName ?? 'a module', moduleName ?? 'another module');
    }
    found.set(cls, { cls, wrapper, moduleName });
  }
  return found;
}

function isStaticSingleton(wrapper: InstanceWrapper): boolean {
  return !wrapper.isTransient && wrapper.isDependencyTreeStatic();
}

/**
 * The instance to bind, by the provider's scope:
 * - default scope (singleton): the application's instance;
 * - transient: one instance of its own, created now (the registry is one more consumer, and Nest
 *   gives each consumer of a transient provider its own instance);
 * - request-scoped (Scope.REQUEST, durable, or through a request-scoped dependency): refused.
 * @throws ToolError ERR_INVALID_TOOL naming the class, its module and why, for a request-scoped provider
 */
export async function scopedInstance(found: FoundProvider, kind: 'toolset' | 'policy', moduleRef: ModuleRef): Promise<object> {
  const { wrapper, cls } = found;
  if (!wrapper.isDependencyTreeStatic()) {
    const via =
      wrapper.scope === Scope.REQUEST
        ? wrapper.durable === true
          ? 'Scope.REQUEST, durable'
          : 'Scope.REQUEST'
        : 'it depends, directly or not, on a request-scoped provider';
    throw requestScoped(kind, placeOf(cls, found.moduleName), via);
  }
  if (wrapper.isTransient) return (await moduleRef.resolve(wrapper.token, undefined, { strict: false })) as object;
  return wrapper.instance as object;
}
