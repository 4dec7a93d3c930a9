/**
 * What ScopeToolModule reads from Nest's provider wrappers: the class a provider holds, the module
 * that declares it, and its instance under the scope rules of the module (see scopedInstance).
 * @internal
 */
import { Scope } from '@nestjs/common';
import { INQUIRER, ModuleRef, REQUEST, createContextId } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { readToolset } from '../decorators';
import { describeValue, notAPolicyValue, notAToolsetValue, ownInstanceFailed, placeOf, providedTwice, requestScoped, tokenName } from './messages';

/** One provider of a class we need (a toolset or a policy). */
export interface FoundProvider {
  /** The toolset class, or the wanted policy class. */
  readonly cls: Function;
  readonly wrapper: InstanceWrapper;
  /** The declaring module's class name, for messages. */
  readonly moduleName: string | undefined;
  /** The instance learnFactories obtained for a transient factory provider: the registry's own. */
  readonly probed?: object;
  /**
   * Found by its token alone (a transient or request-scoped factory provider whose token is the
   * class): its value is unknown until built, and is checked then (see checkValue).
   */
  readonly byToken?: boolean;
}

/** What learnFactories learned of a non-static factory provider: its value's class (and, when it built a transient one, that instance). */
export interface Probe {
  readonly cls: Function;
  readonly instance?: object;
}

/** A problem learnFactories met, for the module's log. */
export type ProbeWarning = (message: string) => void;

/**
 * How long ScopeToolModule waits for a factory (or constructor) it calls itself at start-up: a
 * probe (see learnFactories) or the registry's own instance of a transient provider. The timer is
 * unref'd, so it never keeps the process alive. @internal (tests shorten it)
 */
export const FACTORY_CALL_LIMIT = { ms: 5000 };

/** The class of a value, when it is an object built by a class (not a plain object). */
export function constructorOf(value: unknown): Function | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const cls = (value as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object ? cls : undefined;
}

/** A class decorated with `@Toolset()` itself (the decorator is not inherited). */
export function isToolsetClass(cls: unknown): boolean {
  return typeof cls === 'function' && readToolset(cls) !== undefined;
}

/**
 * The class of the value a provider yields, when known without calling anything: the class of a
 * class provider; for a value provider or a static factory provider, the constructor of its
 * instance; for a transient or request-scoped factory provider, what learnFactories learned.
 * Undefined for aliases (`useExisting`, whose target is a provider of its own), for what is not an
 * object, and for a factory nobody called.
 */
export function classOf(wrapper: InstanceWrapper, probes: ReadonlyMap<InstanceWrapper, Probe>): Function | undefined {
  if (wrapper.isAlias) return undefined;
  if (!wrapper.isNotMetatype && typeof wrapper.metatype === 'function') return wrapper.metatype;
  const probe = probes.get(wrapper);
  if (probe !== undefined) return probe.cls;
  if (isHiddenFactory(wrapper)) return undefined;
  try {
    return constructorOf(wrapper.instance);
  } catch {
    return undefined;
  }
}

/** `wrapper.host`'s module class name. */
export function moduleNameOf(wrapper: InstanceWrapper): string | undefined {
  const name = (wrapper.host as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The ModuleRef of the module that declares the provider (to resolve its own token there, not a namesake elsewhere). */
function hostRefOf(wrapper: InstanceWrapper): ModuleRef | undefined {
  const ref: unknown = wrapper.host?.providers.get(ModuleRef)?.instance;
  return ref instanceof ModuleRef ? ref : undefined;
}

/** A factory provider whose value Nest does not build at start-up: transient or request-scoped (explicitly or through a dependency). */
export function isHiddenFactory(wrapper: InstanceWrapper): boolean {
  if (!wrapper.isFactory || wrapper.isAlias || wrapper.token === REQUEST || wrapper.token === INQUIRER) return false;
  return wrapper.isTransient || !wrapper.isDependencyTreeStatic();
}

type Settled = { value: unknown } | { error: unknown } | { timeoutMs: number };

/** Builds the provider once, through its declaring module, in a context of its own; bounded by FACTORY_CALL_LIMIT. Never throws. */
async function buildOnce(wrapper: InstanceWrapper, fallback?: ModuleRef): Promise<Settled> {
  const ref = hostRefOf(wrapper);
  const timeoutMs = FACTORY_CALL_LIMIT.ms;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ timeoutMs }), timeoutMs);
    timer.unref();
  });
  const build = (async (): Promise<Settled> => {
    try {
      const value: unknown =
        ref !== undefined
          ? await ref.resolve(wrapper.token, createContextId(), { strict: true })
          : await (fallback as ModuleRef).resolve(wrapper.token, undefined, { strict: false });
      return { value };
    } catch (error) {
      return { error };
    }
  })();
  try {
    return await Promise.race([build, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Learns the class of the value of transient and request-scoped factory providers, which Nest does
 * not build at start-up (a class provider's class is known without building it):
 * - a transient one that some consumer injected: the class of a consumer's instance (no call);
 * - with `probe` (discover: 'all') and only under a token that is not a class (a string or a
 *   symbol): the factory is called once through the declaring module, bounded by
 *   FACTORY_CALL_LIMIT; a transient one's instance is kept, and becomes the registry's own if it is
 *   a toolset or policy; a request-scoped one is called with no request (`REQUEST` is undefined),
 *   only to learn the class, and its instance is dropped.
 * A factory whose token is a class is never called here: the token says what it is (a toolset or
 * policy class is found by its token, and built or refused by scopedInstance; any other class is
 * neither). A probe that throws, rejects or does not settle in time is reported through `warn`,
 * naming the token and module, and left out: start-up goes on, since such a provider may well be
 * no toolset.
 */
export async function learnFactories(wrappers: readonly InstanceWrapper[], probe: boolean, warn: ProbeWarning): Promise<Map<InstanceWrapper, Probe>> {
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
    if (!probe || typeof wrapper.token === 'function' || hostRefOf(wrapper) === undefined) continue;
    const settled = await buildOnce(wrapper);
    if (!('value' in settled)) {
      const scope = isStatic ? 'transient' : 'request-scoped';
      const context = isStatic ? 'outside any consumer' : 'outside a request';
      const what =
        'error' in settled ? `threw (${settled.error instanceof Error ? settled.error.message : String(settled.error)})` : `did not settle within ${settled.timeoutMs} ms`;
      warn(
        `ScopeToolModule: the ${scope} factory provider ${tokenName(wrapper.token)} (${moduleNameOf(wrapper) ?? 'a module'}) ${what} when called once at start-up ${context} to learn whether it yields a toolset or policy; it is left out, so if it yields one, it is not registered. Provide a toolset or policy under its class as token ({ provide: NotesTools, useFactory }): such a factory is never called to learn this`,
      );
      continue;
    }
    const cls = constructorOf(settled.value);
    if (cls !== undefined) probes.set(wrapper, isStatic ? { cls, instance: settled.value as object } : { cls });
  }
  return probes;
}

/** What a provider counts as, for providersOf: the class it is found under, and whether by its token alone. */
export interface Classified {
  readonly cls: Function;
  readonly byToken?: boolean;
}

/**
 * The providers `classify` recognizes, one per class. Two providers of one instance (a value or
 * default-scoped factory that returns an existing provider) count once; `useExisting` aliases are
 * not providers of their own.
 * @throws ToolError ERR_INVALID_TOOL when two providers hold two instances of one class, naming both
 *   tokens and modules; and what `classify` throws
 */
export function providersOf(
  wrappers: readonly InstanceWrapper[],
  probes: ReadonlyMap<InstanceWrapper, Probe>,
  kind: 'toolset' | 'policy',
  classify: (wrapper: InstanceWrapper) => Classified | undefined,
): Map<Function, FoundProvider> {
  const found = new Map<Function, FoundProvider>();
  for (const wrapper of wrappers) {
    if (wrapper.isAlias) continue;
    const classified = classify(wrapper);
    if (classified === undefined) continue;
    const { cls } = classified;
    const moduleName = moduleNameOf(wrapper);
    const seen = found.get(cls);
    if (seen !== undefined) {
      if (seen.wrapper === wrapper || (isStaticSingleton(seen.wrapper) && isStaticSingleton(wrapper) && seen.wrapper.instance === wrapper.instance)) continue;
      const first = { token: seen.wrapper.token, moduleName: seen.moduleName, host: seen.wrapper.host };
      throw providedTwice(kind, cls, first, { token: wrapper.token, moduleName, host: wrapper.host });
    }
    found.set(cls, { cls, wrapper, moduleName, probed: probes.get(wrapper)?.instance, byToken: classified.byToken });
  }
  return found;
}

/**
 * Recognizes a toolset provider: one whose token is a `@Toolset()` class (whatever its value; the
 * value must be a toolset instance, see checkToolsetValue), or one whose value's class is a
 * `@Toolset()` class. `accept`: which toolset classes to look for (all, or the forFeature() lists).
 * @throws ToolError ERR_INVALID_TOOL for a toolset token whose known value is not a toolset instance
 */
export function toolsetClassifier(probes: ReadonlyMap<InstanceWrapper, Probe>, accept: (cls: Function) => boolean): (wrapper: InstanceWrapper) => Classified | undefined {
  return (wrapper) => {
    const { token } = wrapper;
    if (typeof token === 'function' && isToolsetClass(token)) {
      if (!accept(token)) return undefined;
      const known = classOf(wrapper, probes);
      if (known === undefined && isHiddenFactory(wrapper)) return { cls: token, byToken: true };
      if (known !== undefined && isToolsetClass(known)) return { cls: known };
      const value = known === undefined ? describeValue(wrapper.instance) : `an instance of ${known.name || '(anonymous class)'}`;
      throw notAToolsetValue(token, placeOf(token, moduleNameOf(wrapper)), value, known);
    }
    const cls = classOf(wrapper, probes);
    return cls !== undefined && isToolsetClass(cls) && accept(cls) ? { cls } : undefined;
  };
}

/**
 * Recognizes the provider of one policy class: one whose token is the class (its value must be an
 * instance of it, or of a subclass), or one whose value's class is the class.
 * @throws ToolError ERR_INVALID_TOOL when the policy's own token holds something else (a mock value)
 */
export function policyClassifier(policy: Function, where: string, probes: ReadonlyMap<InstanceWrapper, Probe>): (wrapper: InstanceWrapper) => Classified | undefined {
  return (wrapper) => {
    if (wrapper.token === policy) {
      const known = classOf(wrapper, probes);
      if (known === undefined && isHiddenFactory(wrapper)) return { cls: policy, byToken: true };
      if (known !== undefined && (known === policy || known.prototype instanceof policy)) return { cls: policy };
      const value = known === undefined ? describeValue(wrapper.instance) : `an instance of ${known.name || '(anonymous class)'}`;
      throw notAPolicyValue(policy, where, placeOf(policy, moduleNameOf(wrapper)), value);
    }
    return classOf(wrapper, probes) === policy ? { cls: policy } : undefined;
  };
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

/** The instance to bind, and whether it is the registry's own (a transient provider's: ScopeToolModule calls its lifecycle hooks). */
export interface ScopedInstance {
  readonly instance: unknown;
  readonly own: boolean;
}

/**
 * The instance to bind, by the provider's scope (class and factory providers alike):
 * - default scope (singleton): the application's instance;
 * - transient: one instance of its own (the one learnFactories built for a factory nobody injected,
 *   or one built now through the declaring module, outside any consumer: INQUIRER is null), since
 *   Nest gives each consumer of a transient provider its own instance and the registry is one more
 *   consumer; a factory or constructor that throws or does not settle within FACTORY_CALL_LIMIT
 *   fails start-up;
 * - request-scoped (Scope.REQUEST, durable, or through a request-scoped dependency): refused,
 *   without calling its factory.
 * @throws ToolError ERR_INVALID_TOOL naming the class, its token and module, why and the fix, for a
 *   request-scoped provider, and for a transient one that could not be built
 */
export async function scopedInstance(found: FoundProvider, kind: 'toolset' | 'policy', moduleRef: ModuleRef): Promise<ScopedInstance> {
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
    if (found.probed !== undefined) return { instance: found.probed, own: true };
    const settled = await buildOnce(wrapper, moduleRef);
    if (!('value' in settled)) throw ownInstanceFailed(kind, providerPlace(found), wrapper.isFactory, settled);
    return { instance: settled.value, own: true };
  }
  return { instance: wrapper.instance, own: false };
}

/**
 * Checks a toolset instance found by its token alone, once built.
 * @throws ToolError ERR_INVALID_TOOL when it is not an instance of a `@Toolset()` class
 */
export function checkToolsetValue(found: FoundProvider, value: unknown): void {
  const cls = constructorOf(value);
  if (isToolsetClass(cls)) return;
  throw notAToolsetValue(found.cls, providerPlace(found), describeValue(value), cls);
}

/**
 * Checks a policy instance found by its token alone, once built.
 * @throws ToolError ERR_INVALID_TOOL when it is not an instance of the policy class
 */
export function checkPolicyValue(found: FoundProvider, where: string, value: unknown): void {
  if (value instanceof found.cls) return;
  throw notAPolicyValue(found.cls, where, providerPlace(found), describeValue(value));
}
