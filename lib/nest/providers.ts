/**
 * What ScopeToolModule reads from Nest's provider wrappers: the class a provider holds, the module
 * that declares it, and its instance under the scope rules of the module (see scopedInstance).
 * @internal
 */
import { Scope } from '@nestjs/common';
import { INQUIRER, ModuleRef, REQUEST, createContextId } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { placeOf, providedTwice, requestScoped, tokenName } from './messages';

/** One provider of a class we need (a toolset or a policy). */
export interface FoundProvider {
  readonly cls: Function;
  readonly wrapper: InstanceWrapper;
  /** The declaring module's class name, for messages. */
  readonly moduleName: string | undefined;
  /** The instance probeFactories obtained for a transient factory provider: the registry's own. */
  readonly probed?: object;
}

/** What probeFactories learned of a non-static factory provider: its value's class (and, when transient, an instance to keep). */
export interface Probe {
  readonly cls: Function;
  readonly instance?: object;
}

/** A problem probeFactories met, for the module's log. */
export type ProbeWarning = (message: string) => void;

/** The class of a value, when it is an object built by a class (not a plain object). */
function constructorOf(value: unknown): Function | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const cls = (value as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object ? cls : undefined;
}

/**
 * The class of the value a provider yields: the class of a class provider; for a value provider or
 * a static factory provider, the constructor of its instance; for a transient or request-scoped
 * factory provider, what probeFactories learned; undefined for aliases (`useExisting`, whose target
 * is a provider of its own) and for what is not an object.
 */
export function classOf(wrapper: InstanceWrapper, probes: ReadonlyMap<InstanceWrapper, Probe>): Function | undefined {
  if (wrapper.isAlias) return undefined;
  if (!wrapper.isNotMetatype && typeof wrapper.metatype === 'function') return wrapper.metatype;
  const probe = probes.get(wrapper);
  if (probe !== undefined) return probe.cls;
  try {
    return constructorOf(wrapper.instance);
  } catch {
    return undefined;
  }
}

/** `wrapper.host`'s module class name. */
function moduleNameOf(wrapper: InstanceWrapper): string | undefined {
  const name = (wrapper.host as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The ModuleRef of the module that declares the provider (to resolve its own token there, not a namesake elsewhere). */
function hostRefOf(wrapper: InstanceWrapper): ModuleRef | undefined {
  const ref: unknown = wrapper.host?.providers.get(ModuleRef)?.instance;
  return ref instanceof ModuleRef ? ref : undefined;
}

/** A factory provider whose value Nest does not build at start-up: transient or request-scoped (explicitly or through a dependency). */
function isHiddenFactory(wrapper: InstanceWrapper): boolean {
  if (!wrapper.isFactory || wrapper.isAlias || wrapper.token === REQUEST || wrapper.token === INQUIRER) return false;
  return wrapper.isTransient || !wrapper.isDependencyTreeStatic();
}

/**
 * Learns the class of the value of every transient or request-scoped factory provider, which Nest
 * does not build at start-up (a class provider's class is known without building it):
 * - a transient one that some consumer injected: the class of a consumer's instance (no call);
 * - a transient one nobody injected: its factory is called once, through the declaring module's
 *   ModuleRef.resolve(); the instance is kept, and becomes the registry's own if it is a toolset;
 * - a request-scoped one: its factory is called once, in a context of its own with no request
 *   (`REQUEST` is undefined), only to learn the class; the instance is dropped (a request-scoped
 *   toolset or policy is refused by scopedInstance anyway).
 * A factory that throws (or rejects) there is reported through `warn`, naming the token and module, and
 * left out: start-up goes on, since such a provider may well be no toolset.
 */
export async function probeFactories(wrappers: readonly InstanceWrapper[], warn: ProbeWarning): Promise<Map<InstanceWrapper, Probe>> {
  const probes = new Map<InstanceWrapper, Probe>();
  for (const wrapper of wrappers) {
    if (!isHiddenFactory(wrapper)) continue;
    const isStatic = wrapper.isDependencyTreeStatic();
    if (isStatic) {
      const consumers = wrapper.getStaticTransientInstances().map((host) => constructorOf(host?.instance));
      const cls = consumers.find((c) => c !== undefined);
      if (cls !== undefined) {
        probes.set(wrapper, { cls });
        continue;
      }
    }
    const ref = hostRefOf(wrapper);
    if (ref === undefined) continue;
    let value: unknown;
    try {
      value = await ref.resolve(wrapper.token, createContextId(), { strict: true });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const scope = isStatic ? 'transient' : 'request-scoped';
      const context = isStatic ? 'outside any consumer' : 'outside a request';
      warn(
        `ScopeToolModule: the ${scope} factory provider ${tokenName(wrapper.token)} (${moduleNameOf(wrapper) ?? 'a module'}) threw when called once at start-up ${context} to learn whether it yields a toolset or policy (${why}); it is left out, so if it yields one, it is not registered`,
      );
      continue;
    }
    const cls = constructorOf(value);
    if (cls !== undefined) probes.set(wrapper, isStatic ? { cls, instance: value as object } : { cls });
  }
  return probes;
}

/**
 * The providers whose class passes `accept`, one per class. Two providers of one instance (a value
 * or default-scoped factory that returns an existing provider) count once; `useExisting` aliases are
 * not providers of their own.
 * @throws ToolError ERR_INVALID_TOOL when two providers hold two instances of one class, naming both tokens and modules
 */
export function providersOf(
  wrappers: readonly InstanceWrapper[],
  probes: ReadonlyMap<InstanceWrapper, Probe>,
  kind: 'toolset' | 'policy',
  accept: (cls: Function) => boolean,
): Map<Function, FoundProvider> {
  const found = new Map<Function, FoundProvider>();
  for (const wrapper of wrappers) {
    const cls = classOf(wrapper, probes);
    if (cls === undefined || !accept(cls)) continue;
    const moduleName = moduleNameOf(wrapper);
    const seen = found.get(cls);
    if (seen !== undefined) {
      if (seen.wrapper === wrapper || (isStaticSingleton(seen.wrapper) && isStaticSingleton(wrapper) && seen.wrapper.instance === wrapper.instance)) continue;
      const first = { token: seen.wrapper.token, moduleName: seen.moduleName, host: seen.wrapper.host };
      throw providedTwice(kind, cls, first, { token: wrapper.token, moduleName, host: wrapper.host });
    }
    found.set(cls, { cls, wrapper, moduleName, probed: probes.get(wrapper)?.instance });
  }
  return found;
}

function isStaticSingleton(wrapper: InstanceWrapper): boolean {
  return !wrapper.isTransient && wrapper.isDependencyTreeStatic();
}

/**
 * How messages name a provider: `NotesTools (NotesModule)` for a class provided as itself,
 * `ClockTools (factory provider 'CLOCK' of ClockModule)` or `ClockTools (provider 'CLOCK' of ClockModule)` otherwise.
 */
export function providerPlace(found: FoundProvider): string {
  const { cls, wrapper, moduleName } = found;
  if (wrapper.token === cls && !wrapper.isFactory) return placeOf(cls, moduleName);
  const what = wrapper.isFactory ? 'factory provider' : 'provider';
  return `${cls.name} (${what} ${tokenName(wrapper.token)}${moduleName === undefined ? '' : ` of ${moduleName}`})`;
}

/**
 * The instance to bind, by the provider's scope (class and factory providers alike):
 * - default scope (singleton): the application's instance;
 * - transient: one instance of its own (the one probeFactories built for a factory nobody injected,
 *   or one created now through the declaring module), since Nest gives each consumer of a
 *   transient provider its own instance and the registry is one more consumer;
 * - request-scoped (Scope.REQUEST, durable, or through a request-scoped dependency): refused.
 * @throws ToolError ERR_INVALID_TOOL naming the class, its token and module, why and the fix, for a request-scoped provider
 */
export async function scopedInstance(found: FoundProvider, kind: 'toolset' | 'policy', moduleRef: ModuleRef): Promise<object> {
  const { wrapper } = found;
  if (!wrapper.isDependencyTreeStatic()) {
    const via =
      wrapper.scope === Scope.REQUEST
        ? wrapper.durable === true
          ? 'Scope.REQUEST, durable'
          : 'Scope.REQUEST'
        : wrapper.isFactory
          ? 'its factory injects, directly or not, a request-scoped provider'
          : 'it depends, directly or not, on a request-scoped provider';
    const provider = wrapper.isFactory || wrapper.token !== found.cls ? tokenName(wrapper.token) : undefined;
    throw requestScoped(kind, providerPlace(found), via, provider);
  }
  if (wrapper.isTransient) {
    if (found.probed !== undefined) return found.probed;
    const ref = hostRefOf(wrapper);
    if (ref !== undefined) return (await ref.resolve(wrapper.token, createContextId(), { strict: true })) as object;
    return (await moduleRef.resolve(wrapper.token, undefined, { strict: false })) as object;
  }
  return wrapper.instance as object;
}
