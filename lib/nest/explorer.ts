/**
 * ScopeToolModule's start-up (the steps are listed in its TSDoc): discovers the toolsets and policies
 * and fills the ToolRegistry. @internal
 */
import { Injectable } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ModuleRef, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import type { Module as NestModule } from '@nestjs/core/injector/module';
import { createRegistry } from '../container';
import { scanToolset } from '../container/scanner';
import { readPolicies, readToolset } from '../decorators';
import type { Policy } from '../decorators';
import { FeatureToolsets } from './feature';
import { ScopeToolModuleError, describeValue, startUpFailed, tokenName, withModule } from './messages';
import type { NestProblem, NotProvidedUse, ProviderShape } from './messages';
import { SCOPE_TOOL_OPTIONS } from './options';
import type { ScopeToolModuleOptions } from './options';
import { builtClass, isToolsetClass, moduleNameOf, siteOf, staticValue, unbindable } from './providers';
import { fillRegistry, markFilled, ToolRegistry } from './tool-registry';

/** The token of each root module's mark, to tell two roots (and who imports them) apart. @internal */
export const SCOPE_TOOL_ROOT: unique symbol = Symbol('scope-tool:nest-root');

/** How a root module gets its options, for messages. @internal */
export interface OptionsSource {
  readonly how: 'forRoot' | 'useFactory' | 'useClass' | 'useExisting';
  /** The options factory class or token (useClass, useExisting). */
  readonly factory?: string;
}

/** One root module (forRoot or forRootAsync call). @internal */
export class RootMark {
  constructor(readonly source: OptionsSource) {}
}

/** One bound provider: the class it was found as, its wrapper, and the application's instance. */
interface Found {
  readonly cls: Function;
  readonly wrapper: InstanceWrapper;
  readonly instance: object;
}

const fail = (problem: NestProblem): ScopeToolModuleError => new ScopeToolModuleError(problem);

const USES: readonly string[] = ['guard', 'interceptor', 'pipe', 'filter'];

/**
 * The providers `claim` takes for a toolset or policy class, one per class. A default-scoped class
 * provider is bound (`fits` checks that its class suits the claim); any other is refused, unless it
 * is one more token of a bound instance (an alias, or a factory that returns that instance).
 * @throws ScopeToolModuleError not_static_class_provider, wrong_class, provided_twice
 */
function bindable(
  kind: 'toolset' | 'policy',
  wrappers: readonly InstanceWrapper[],
  claim: (wrapper: InstanceWrapper) => Function | undefined,
  fits: (cls: Function, claimed: Function) => boolean,
): Map<Function, Found> {
  const found = new Map<Function, Found>();
  const others: [InstanceWrapper, Function, ProviderShape][] = [];
  for (const wrapper of wrappers) {
    const cls = claim(wrapper);
    if (cls === undefined) continue;
    const shape = unbindable(wrapper);
    if (shape !== undefined) {
      others.push([wrapper, cls, shape]);
      continue;
    }
    const built = wrapper.metatype as Function;
    if (!fits(built, cls)) {
      throw fail({
        rule: 'wrong_class',
        kind,
        token: tokenName(wrapper.token),
        module: moduleNameOf(wrapper),
        cls: built.name,
      });
    }
    const seen = found.get(cls);
    if (seen !== undefined) {
      const sameModule = seen.wrapper.host === wrapper.host;
      throw fail({
        rule: 'provided_twice',
        kind,
        cls: cls.name,
        first: siteOf(seen.wrapper),
        second: siteOf(wrapper),
        sameModule,
      });
    }
    found.set(cls, { cls, wrapper, instance: wrapper.instance as object });
  }
  const bound = new Set<unknown>([...found.values()].map((f) => f.instance));
  for (const [wrapper, cls, shape] of others) {
    const value = staticValue(wrapper);
    if (value !== undefined && bound.has(value)) continue;
    throw fail({ rule: 'not_static_class_provider', kind, cls: cls.name, site: siteOf(wrapper), shape });
  }
  return found;
}

/** The imports a module declares: its @Module() metadata and, for a dynamic module, the dynamic part. */
function declaredImports(module: NestModule): unknown[] {
  const own: unknown = Reflect.getMetadata('imports', module.metatype);
  const container = (
    module as unknown as { container?: { getDynamicMetadataByToken?: (t: string, k: string) => unknown } }
  ).container;
  const dynamic: unknown = container?.getDynamicMetadataByToken?.(module.token, 'imports');
  return [...(Array.isArray(own) ? own : []), ...(Array.isArray(dynamic) ? dynamic : [])];
}

/** Whether a declared import is the root module that carries `mark`. */
function importsRoot(declared: unknown, mark: unknown): boolean {
  const providers = (declared as { providers?: unknown } | null | undefined)?.providers;
  return (
    Array.isArray(providers) &&
    providers.some(
      (p: { provide?: unknown; useValue?: unknown } | null) => p?.provide === SCOPE_TOOL_ROOT && p.useValue === mark,
    )
  );
}

/** An `@Authorize()` class (functions and Authorizer objects are used as they are). */
function isPolicyClass(policy: Policy): policy is Policy & Function {
  return typeof policy === 'function' && typeof (policy.prototype as { authorize?: unknown })?.authorize === 'function';
}

/** Fills the ToolRegistry at start-up. @internal */
@Injectable()
export class ToolsetExplorer implements OnModuleInit {
  // The options are read at onModuleInit, not injected: injected request-scoped options would make
  // this explorer request-scoped too, and onModuleInit would never run.
  constructor(
    private readonly registry: ToolRegistry,
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly modules: ModulesContainer,
  ) {}

  /**
   * Discovers, checks and registers the tools (one atomic batch).
   * @throws ScopeToolModuleError for every problem found (see NestProblem); a container error
   *   (manifest, DTO, binding) as `build_failed` with its own code; anything else as `start_up_failed`
   */
  onModuleInit(): void {
    let building = false;
    try {
      const wrappers = this.discovery.getProviders();
      this.#checkOneRoot(wrappers);
      const options = this.#options(wrappers);
      const toolsets = this.#toolsets(wrappers, options.discover === 'features');
      const policies = this.#policies(wrappers, options, toolsets);
      building = true;
      fillRegistry(this.registry, () =>
        createRegistry({
          manifest: options.manifest,
          toolsets: toolsets.map((t) => t.instance),
          policies: options.policies,
          timeoutMs: options.timeoutMs,
          registry: this.registry,
          resolve: (cls) => policies.get(cls) as object,
        }),
      );
    } catch (e) {
      throw startUpFailed(e, building);
    }
    markFilled(this.registry);
  }

  /** The options of this root module, read at start-up. */
  #options(wrappers: readonly InstanceWrapper[]): ScopeToolModuleOptions {
    const host = wrappers.find((w) => w.token === ToolsetExplorer && w.instance === this)?.host;
    const wrapper = host?.providers.get(SCOPE_TOOL_OPTIONS);
    if (wrapper !== undefined && !wrapper.isDependencyTreeStatic()) {
      const mark: unknown = host?.providers.get(SCOPE_TOOL_ROOT)?.instance;
      const source: OptionsSource = mark instanceof RootMark ? mark.source : { how: 'useFactory' };
      const how = source.how === 'forRoot' ? 'useFactory' : source.how;
      throw fail({ rule: 'options_request_scoped', how, factory: source.factory });
    }
    const options: unknown =
      wrapper === undefined ? this.moduleRef.get(SCOPE_TOOL_OPTIONS, { strict: true }) : wrapper.instance;
    if (typeof options !== 'object' || options === null) {
      throw fail({ rule: 'bad_options', option: 'options', value: describeValue(options) });
    }
    const discover = (options as { discover?: unknown }).discover;
    if (discover !== undefined && discover !== 'all' && discover !== 'features') {
      const value = typeof discover === 'string' ? `'${discover}'` : String(discover);
      throw fail({ rule: 'bad_options', option: 'discover', value });
    }
    return options as ScopeToolModuleOptions;
  }

  /** One root module per application: two forRoot/forRootAsync imports would make two registries. */
  #checkOneRoot(wrappers: readonly InstanceWrapper[]): void {
    const roots = wrappers.filter((w) => w.token === SCOPE_TOOL_ROOT);
    if (new Set(roots.map((r) => r.host)).size < 2) return;
    const importers: string[] = [];
    for (const root of roots) {
      for (const module of this.modules.values()) {
        if (declaredImports(module).some((d) => importsRoot(d, root.instance))) importers.push(module.name);
      }
    }
    throw fail({ rule: 'root_imported_twice', importers });
  }

  /**
   * The toolsets to register: the providers whose built class, or else whose token, is a
   * `@Toolset()` class; with discover 'features', only the classes forFeature() lists (or a
   * decorated subclass of one, as an override), each of which must be provided.
   */
  #toolsets(wrappers: readonly InstanceWrapper[], features: boolean): Found[] {
    const listed = new Set<Function>();
    for (const w of wrappers) {
      const value = staticValue(w);
      if (value instanceof FeatureToolsets) for (const cls of value.toolsets) listed.add(cls);
    }
    for (const cls of listed)
      if (readToolset(cls) === undefined) throw fail({ rule: 'feature_not_toolset', cls: cls.name });
    const wanted = (cls: Function) =>
      !features || listed.has(cls) || [...listed].some((l) => cls.prototype instanceof l);
    this.#checkNotProvided(wrappers, wanted);
    const found = bindable(
      'toolset',
      wrappers,
      (w) => {
        const built = builtClass(w);
        const cls = isToolsetClass(built) ? built : isToolsetClass(w.token) ? w.token : undefined;
        return cls !== undefined && wanted(cls) ? cls : undefined;
      },
      (built) => isToolsetClass(built),
    );
    const toolsets = [...found.values()];
    for (const cls of listed) {
      if (!toolsets.some((t) => t.cls === cls || t.cls.prototype instanceof cls))
        throw fail({ rule: 'feature_not_provided', cls: cls.name });
    }
    this.#checkNames(toolsets);
    return toolsets;
  }

  /** A wanted `@Toolset()` class among a module's controllers, or built only as an enhancer, is refused. */
  #checkNotProvided(wrappers: readonly InstanceWrapper[], wanted: (cls: Function) => boolean): void {
    for (const controller of this.discovery.getControllers()) {
      const cls = controller.metatype;
      if (isToolsetClass(cls) && wanted(cls))
        throw fail({ rule: 'not_a_provider', cls: cls.name, module: moduleNameOf(controller), use: 'controller' });
    }
    const provided = new Set<unknown>(wrappers.flatMap((w) => [w.token, builtClass(w)]));
    for (const module of this.modules.values()) {
      for (const enhancer of module.injectables.values()) {
        const cls = enhancer.metatype;
        if (enhancer.isNotMetatype || !isToolsetClass(cls) || !wanted(cls) || provided.has(cls)) continue;
        const use = (USES.includes(enhancer.subtype as string) ? enhancer.subtype : 'enhancer') as NotProvidedUse;
        throw fail({ rule: 'not_a_provider', cls: cls.name, module: module.name, use });
      }
    }
  }

  /** One tool name, one toolset: names both classes and modules. */
  #checkNames(toolsets: readonly Found[]): void {
    const owners = new Map<string, string>();
    for (const { cls, wrapper } of toolsets) {
      const module = moduleNameOf(wrapper);
      for (const tool of scanToolset(cls)) {
        const place = withModule(`${cls.name}.${tool.methodName}`, module);
        const first = owners.get(tool.metadata.name);
        if (first !== undefined) throw fail({ rule: 'duplicate_tool', tool: tool.metadata.name, first, second: place });
        owners.set(tool.metadata.name, place);
      }
    }
  }

  /** Every policy class the registry will ask for, bound from the providers of any module. */
  #policies(
    wrappers: readonly InstanceWrapper[],
    options: ScopeToolModuleOptions,
    toolsets: readonly Found[],
  ): Map<Function, object> {
    const wanted = new Map<Function, { of: string; shared: boolean }>();
    const want = (policies: readonly Policy[], of: string, shared = false) => {
      for (const p of policies) if (isPolicyClass(p) && !wanted.has(p)) wanted.set(p, { of, shared });
    };
    want(options.policies ?? [], 'ScopeToolModule.forRoot({ policies })', true);
    for (const { cls, wrapper } of toolsets) {
      const module = moduleNameOf(wrapper);
      want(readPolicies(cls, 'class'), withModule(cls.name, module));
      // With the policies of the methods they override, as createRegistry guards them.
      for (const tool of scanToolset(cls)) want(tool.policies, `${cls.name}.${tool.methodName}`);
    }
    const instances = new Map<Function, object>();
    for (const [policy, { of, shared }] of wanted) {
      const found = bindable(
        'policy',
        wrappers,
        (w) => (w.token === policy || builtClass(w) === policy ? policy : undefined),
        (built) => built === policy || built.prototype instanceof policy,
      ).get(policy);
      if (found === undefined) throw fail({ rule: 'policy_not_provided', policy: policy.name, of, shared });
      instances.set(policy, found.instance);
    }
    return instances;
  }
}
