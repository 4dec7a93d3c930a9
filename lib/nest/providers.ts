/**
 * What ScopeToolModule reads from Nest's provider wrappers, without building or calling anything:
 * the provider's form and scope, the class it builds, its module. Only a default-scoped class
 * provider is bound (docs/nestjs.md, "Discovery").
 * @internal
 */
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { readToolset } from '../decorators';
import { tokenName } from './messages';
import type { ProviderShape, ProviderSite } from './messages';

/** A class decorated with `@Toolset()` itself (the decorator is not inherited). */
export function isToolsetClass(cls: unknown): cls is Function {
  return typeof cls === 'function' && readToolset(cls) !== undefined;
}

/** Why a provider cannot be bound, or undefined for a default-scoped class provider. */
export function unbindable(wrapper: InstanceWrapper): ProviderShape | undefined {
  if (wrapper.isAlias) return 'useExisting';
  if (wrapper.isFactory) return 'useFactory';
  if (typeof wrapper.metatype !== 'function') return 'useValue';
  if (wrapper.isTransient) return 'transient';
  if (!wrapper.isDependencyTreeStatic()) return 'request_scoped';
  return undefined;
}

/**
 * The value of a provider Nest built at start-up: a default-scoped class, value or factory provider,
 * or an alias of one. Undefined for a transient or request-scoped provider, whose value Nest builds
 * only for a consumer or a request (ScopeToolModule never builds it).
 */
export function staticValue(wrapper: InstanceWrapper): unknown {
  if (wrapper.isTransient || !wrapper.isDependencyTreeStatic()) return undefined;
  try {
    return wrapper.instance;
  } catch {
    return undefined;
  }
}

/**
 * The class a provider builds, known without calling anything: a class provider's class, else the
 * constructor of the value Nest built at start-up (not for an alias: its target is judged itself).
 */
export function builtClass(wrapper: InstanceWrapper): Function | undefined {
  if (wrapper.isAlias) return undefined;
  if (!wrapper.isFactory && typeof wrapper.metatype === 'function') return wrapper.metatype;
  const value = staticValue(wrapper);
  if (value === null || typeof value !== 'object') return undefined;
  const cls = (value as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object ? cls : undefined;
}

/** The declaring module's class name. */
export function moduleNameOf(wrapper: InstanceWrapper): string | undefined {
  const name = (wrapper.host as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The provider's token and module, for messages. */
export function siteOf(wrapper: InstanceWrapper): ProviderSite {
  return { token: tokenName(wrapper.token), module: moduleNameOf(wrapper) };
}
