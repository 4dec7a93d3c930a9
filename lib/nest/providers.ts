/**
 * What ScopeToolModule reads from Nest's provider wrappers: the class a provider holds, the module
 * that declares it, the provider an alias stands for, and the instance to bind under the scope rule
 * (see boundInstance).
 * @internal
 */
import { Scope } from '@nestjs/common';
import { INQUIRER, ModuleRef, REQUEST, createContextId } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { readToolset } from '../decorators';
import {
  describeValue,
  notAPolicyValue,
  notAToolsetValue,
  notListedValue,
  placeOf,
  providedTwice,
  requestScoped,
  tokenName,
  transientRefused,
} from './messages';

/** One provider of a class we need (a toolset or a policy). */
export interface FoundProvider {
  /** The toolset class, or the wanted policy class. */
  readonly cls: Function;
  /** The provider that holds the value: for an alias (`useExisting`), the provider it stands for. */
  readonly wrapper: InstanceWrapper;
  /** The declaring module's class name, for messages. */
  readonly moduleName: string | undefined;
  /** The alias (`useExisting`) whose token is the class, when the provider was found through it. */
  readonly alias?: InstanceWrapper;
}

/**
 * What learnFactories learned of a non-static factory provider: its values' classes (one for a
 * probe; for a transient factory, the class of every consumer's instance, which may differ, as an
 * INQUIRER factory's do).
 */
export interface Probe {
  readonly classes: readonly Function[];
}

/** A problem learnFactories met, for the module's log. */
export type ProbeWarning = (message: string) => void;

/**
 * How long ScopeToolModule waits for a factory it calls itself at start-up (a probe, see
 * learnFactories). The timer is unref'd, so it never keeps the process alive. @internal (tests shorten it)
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
 * instance; for a transient or request-scoped factory provider, what learnFactories learned: of
 * its values' classes (one per consumer), the first that `prefer` accepts, else the first.
 * Undefined for what is not an object, and for a factory nobody called. An alias (`useExisting`)
 * is read through aliasTarget first; one whose target could not be found is read by its own value.
 */
export function classOf(
  wrapper: InstanceWrapper,
  probes: ReadonlyMap<InstanceWrapper, Probe>,
  prefer: (cls: Function) => boolean = () => false,
): Function | undefined {
  if (!wrapper.isAlias && !wrapper.isNotMetatype && typeof wrapper.metatype === 'function') return wrapper.metatype;
  const probe = probes.get(wrapper);
  if (probe !== undefined) return probe.classes.find(prefer) ?? probe.classes[0];
  if (isHiddenFactory(wrapper)) return undefined;
  try {
    return constructorOf(wrapper.instance);
  } catch {
    return undefined;
  }
}

/** The value of a provider, for messages (never throws). */
function valueOf(wrapper: InstanceWrapper): unknown {
  try {
    return wrapper.instance;
  } catch {
    return undefined;
  }
}

/**
 * The provider an alias (`{ provide, useExisting }`) stands for, following a chain of aliases: the
 * one Nest injected into it (its recorded dependency), else the target token among the alias's own
 * module's providers. Returns the wrapper itself when it is no alias, and the last alias reached
 * when the chain cannot be followed (a cycle, a target not found).
 */
export function aliasTarget(wrapper: InstanceWrapper): InstanceWrapper {
  const seen = new Set<InstanceWrapper>();
  let current = wrapper;
  while (current.isAlias && !seen.has(current)) {
    seen.add(current);
    const recorded: unknown = current.getCtorMetadata?.()?.[0];
    const token: unknown = current.inject?.[0];
    const next =
      (recorded as InstanceWrapper | undefined) ??
      (token === undefined ? undefined : current.host?.providers.get(token as never));
    if (next === undefined || next === current) break;
    current = next;
  }
  return current;
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
async function buildOnce(wrapper: InstanceWrapper, ref: ModuleRef): Promise<Settled> {
  const timeoutMs = FACTORY_CALL_LIMIT.ms;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ timeoutMs }), timeoutMs);
    timer.unref();
  });
  const build = (async (): Promise<Settled> => {
    try {
      return { value: await ref.resolve(wrapper.token, createContextId(), { strict: true }) };
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
 * not build at start-up (a class provider's class is known without building it), so that one that
 * yields a toolset or policy is refused rather than missed:
 * - a transient one that some consumer injected: the classes of every consumer's instance (no
 *   call; an INQUIRER factory may yield a toolset for one consumer only, and is refused for it);
 * - with `probe` (discover: 'all') and only under a token that is not a class (a string or a
 *   symbol): the factory is called once through the declaring module, in a context of its own
 *   (outside any consumer; with no request, `REQUEST` is undefined), bounded by
 *   FACTORY_CALL_LIMIT, one factory after another; the value is only looked at, then dropped
 *   (ScopeToolModule calls none of its lifecycle hooks).
 * A factory whose token is a class is never called here: the token says what it is (a toolset or
 * policy class is found by its token and refused; any other class is neither); nor is one that an
 * alias under a `@Toolset()` class token stands for (the alias's token says it). A probe that
 * throws, rejects or does not settle in time is reported through `warn`, naming the token and
 * module, and left out: start-up goes on, since such a provider may well be no toolset.
 */
export async function learnFactories(
  wrappers: readonly InstanceWrapper[],
  probe: boolean,
  warn: ProbeWarning,
): Promise<Map<InstanceWrapper, Probe>> {
  const probes = new Map<InstanceWrapper, Probe>();
  const judged = new Set(wrappers.filter((w) => w.isAlias && isToolsetClass(w.token)).map(aliasTarget));
  for (const wrapper of wrappers) {
    if (!isHiddenFactory(wrapper)) continue;
    const isStatic = wrapper.isDependencyTreeStatic();
    if (isStatic) {
      const classes = new Set<Function>();
      for (const host of wrapper.getStaticTransientInstances()) {
        const cls = constructorOf(host?.instance);
        if (cls !== undefined) classes.add(cls);
      }
      if (classes.size > 0) {
        probes.set(wrapper, { classes: [...classes] });
        continue;
      }
    }
    const ref = hostRefOf(wrapper);
    if (!probe || typeof wrapper.token === 'function' || ref === undefined || judged.has(wrapper)) continue;
    const settled = await buildOnce(wrapper, ref);
    if (!('value' in settled)) {
      const scope = isStatic ? 'transient' : 'request-scoped';
      const context = isStatic ? 'outside any consumer' : 'outside a request';
      const what =
        'error' in settled
          ? `threw (${settled.error instanceof Error ? settled.error.message : String(settled.error)})`
          : `did not settle within ${settled.timeoutMs} ms`;
      warn(
        `ScopeToolModule: the ${scope} factory provider ${tokenName(wrapper.token)} (${moduleNameOf(wrapper) ?? 'a module'}) ${what} when called once at start-up, ${context}, to learn whether it yields a toolset or policy; it is left out. A toolset or policy must be default-scoped (singleton) to be registered; if this provider yields neither, give it a class as token ({ provide: TenantInfo, useFactory }), and ScopeToolModule will not call it`,
      );
      continue;
    }
    const cls = constructorOf(settled.value);
    if (cls !== undefined) probes.set(wrapper, { classes: [cls] });
  }
  return probes;
}

/**
 * What a provider counts as, for providersOf: the class it is found under (for a transient or
 * request-scoped factory whose value is unknown, the class its token names) and, for an alias, the
 * provider it stands for.
 */
export interface Classified {
  readonly cls: Function;
  readonly target?: InstanceWrapper;
}

/**
 * The providers `classify` recognizes, one per class. Two providers of one instance (an alias
 * `useExisting` and the provider it stands for, or a value or default-scoped factory that returns
 * an existing provider) count once.
 * @throws ToolError ERR_INVALID_TOOL when two providers hold two instances of one class, naming both
 *   tokens and modules; and what `classify` throws
 */
export function providersOf(
  kind: 'toolset' | 'policy',
  wrappers: readonly InstanceWrapper[],
  classify: (wrapper: InstanceWrapper) => Classified | undefined,
): Map<Function, FoundProvider> {
  const found = new Map<Function, FoundProvider>();
  for (const provider of wrappers) {
    const classified = classify(provider);
    if (classified === undefined) continue;
    const { cls } = classified;
    const wrapper = classified.target ?? provider;
    const moduleName = moduleNameOf(wrapper);
    const seen = found.get(cls);
    if (seen !== undefined) {
      if (
        seen.wrapper === wrapper ||
        (isStaticSingleton(seen.wrapper) && isStaticSingleton(wrapper) && valueOf(seen.wrapper) === valueOf(wrapper))
      )
        continue;
      const first = { token: seen.wrapper.token, moduleName: seen.moduleName, host: seen.wrapper.host };
      throw providedTwice(kind, cls, first, { token: wrapper.token, moduleName, host: wrapper.host });
    }
    found.set(cls, { cls, wrapper, moduleName, alias: wrapper === provider ? undefined : provider });
  }
  return found;
}

/** How messages name a provider found under a class token: `ClockTools (ClockModule)`, or `ClockTools (ClockModule, useExisting: 'CLOCK')` for an alias. */
function tokenPlace(cls: Function, provider: InstanceWrapper, target: InstanceWrapper): string {
  if (provider === target) return placeOf(cls, moduleNameOf(provider));
  const where = moduleNameOf(provider);
  const elsewhere =
    target.host !== provider.host && moduleNameOf(target) !== undefined ? ` of ${moduleNameOf(target)}` : '';
  return `${cls.name} (${where === undefined ? '' : `${where}, `}useExisting: ${tokenName(target.token)}${elsewhere})`;
}

/**
 * Recognizes a toolset provider: one whose token is a `@Toolset()` class (an alias `useExisting`
 * included, read through the provider it stands for), whose value must then be an instance of a
 * `@Toolset()` class; or one (not an alias) whose value's class is a `@Toolset()` class (the
 * decorator is not inherited). `listed`: with discover 'features', the classes the forFeature()
 * lists name, and then a provider counts by its value's class:
 * - under an unlisted token (a `@Toolset()` class or not), it counts when its value's class is
 *   listed; it is not checked otherwise (it never becomes a tool);
 * - under a listed token, its value's class must be a listed class or a decorated subclass of one
 *   (an override), or start-up fails: an unrelated toolset would become a tool unlisted.
 * Undefined `listed` (discover 'all'): every toolset counts.
 * @throws ToolError ERR_INVALID_TOOL for a toolset token whose known value is not a toolset instance,
 *   or (with `listed`) a listed token whose value's class is neither listed nor a subclass of a listed class
 */
export function toolsetClassifier(
  probes: ReadonlyMap<InstanceWrapper, Probe>,
  listed?: ReadonlySet<Function>,
): (wrapper: InstanceWrapper) => Classified | undefined {
  const accept = (cls: Function) => listed === undefined || listed.has(cls);
  const wanted = (cls: Function) => accept(cls) || [...(listed ?? [])].some((l) => cls.prototype instanceof l);
  return (wrapper) => {
    const { token } = wrapper;
    if (typeof token === 'function' && isToolsetClass(token)) {
      const target = aliasTarget(wrapper);
      if (!accept(token)) {
        const known = classOf(target, probes, (c) => isToolsetClass(c) && accept(c));
        return known !== undefined && isToolsetClass(known) && accept(known) ? { cls: known, target } : undefined;
      }
      const known = classOf(target, probes, isToolsetClass);
      if (known === undefined && isHiddenFactory(target)) return { cls: token, target };
      if (known !== undefined && isToolsetClass(known)) {
        if (!wanted(known)) throw notListedValue(token, tokenPlace(token, wrapper, target), known);
        return { cls: known, target };
      }
      const value =
        known === undefined ? describeValue(valueOf(target)) : `an instance of ${known.name || '(anonymous class)'}`;
      throw notAToolsetValue(token, tokenPlace(token, wrapper, target), value, known);
    }
    if (wrapper.isAlias) return undefined;
    const cls = classOf(wrapper, probes, (c) => isToolsetClass(c) && accept(c));
    return cls !== undefined && isToolsetClass(cls) && accept(cls) ? { cls } : undefined;
  };
}

/**
 * Recognizes the provider of one policy class: one whose token is the class (an alias `useExisting`
 * included, read through the provider it stands for), whose value must then be an instance of it or
 * of a subclass; or one (not an alias) whose value's class is the class.
 * @throws ToolError ERR_INVALID_TOOL when the policy's own token holds something else (a mock value)
 */
export function policyClassifier(
  policy: Function,
  where: string,
  probes: ReadonlyMap<InstanceWrapper, Probe>,
): (wrapper: InstanceWrapper) => Classified | undefined {
  return (wrapper) => {
    if (wrapper.token === policy) {
      const target = aliasTarget(wrapper);
      const known = classOf(target, probes, (c) => c === policy || c.prototype instanceof policy);
      if (known === undefined && isHiddenFactory(target)) return { cls: policy, target };
      if (known !== undefined && (known === policy || known.prototype instanceof policy))
        return { cls: policy, target };
      const value =
        known === undefined ? describeValue(valueOf(target)) : `an instance of ${known.name || '(anonymous class)'}`;
      throw notAPolicyValue(policy, where, tokenPlace(policy, wrapper, target), value);
    }
    return !wrapper.isAlias && classOf(wrapper, probes, (c) => c === policy) === policy ? { cls: policy } : undefined;
  };
}

function isStaticSingleton(wrapper: InstanceWrapper): boolean {
  return !wrapper.isTransient && wrapper.isDependencyTreeStatic();
}

/**
 * How messages name a provider: `NotesTools (NotesModule)` for a class provided as itself,
 * `ClockTools (factory provider 'CLOCK' of ClockModule)` or `ClockTools (provider 'CLOCK' of ClockModule)`
 * otherwise, and `ClockTools (provider ClockTools of AppModule, useExisting: factory provider 'CLOCK' of ClockModule)`
 * for an alias.
 */
export function providerPlace(found: FoundProvider): string {
  const { cls, wrapper, moduleName, alias } = found;
  const what = wrapper.isFactory ? 'factory provider' : 'provider';
  if (alias !== undefined) {
    const aliasModule = moduleNameOf(alias);
    return `${cls.name} (provider ${tokenName(alias.token)}${aliasModule === undefined ? '' : ` of ${aliasModule}`}, useExisting: ${what} ${tokenName(wrapper.token)}${moduleName === undefined ? '' : ` of ${moduleName}`})`;
  }
  if (wrapper.token === cls && !wrapper.isFactory) return placeOf(cls, moduleName);
  return `${cls.name} (${what} ${tokenName(wrapper.token)}${moduleName === undefined ? '' : ` of ${moduleName}`})`;
}

/**
 * The instance to bind: the application's instance of a default-scoped (singleton) provider, the
 * same for class, value and factory providers, and for the provider an alias stands for. A tool is
 * bound once, for the registry's life, so a provider that has no one application instance is
 * refused, without being built:
 * - transient (Scope.TRANSIENT): Nest gives every consumer an instance of its own, so none of them
 *   is the one to call;
 * - request-scoped (Scope.REQUEST, durable, or through a request-scoped dependency): there is no
 *   request at start-up.
 * @throws ToolError ERR_INVALID_TOOL naming the class, its token and module, why and the fix
 */
export function boundInstance(found: FoundProvider, kind: 'toolset' | 'policy'): object {
  const { wrapper } = found;
  const provider =
    wrapper.isFactory || wrapper.token !== found.cls || found.alias !== undefined
      ? tokenName(wrapper.token)
      : undefined;
  if (!wrapper.isDependencyTreeStatic()) {
    const via =
      wrapper.scope === Scope.REQUEST
        ? wrapper.durable === true
          ? 'Scope.REQUEST, durable'
          : 'Scope.REQUEST'
        : wrapper.isFactory
          ? 'its factory injects, directly or not, a request-scoped provider'
          : 'it depends, directly or not, on a request-scoped provider';
    throw requestScoped(kind, providerPlace(found), via, provider);
  }
  if (wrapper.isTransient) throw transientRefused(kind, providerPlace(found), provider);
  return wrapper.instance as object;
}
