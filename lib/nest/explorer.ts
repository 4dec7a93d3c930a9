/**
 * At start-up (onModuleInit), finds the `@Toolset()` providers of the application with Nest's
 * DiscoveryService and MetadataScanner, resolves their `@Authorize()` policy classes from the Nest
 * container, and registers their tools into the ToolRegistry through createRegistry.
 * @internal
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import type { Module as NestModule } from '@nestjs/core/injector/module';
import { createRegistry } from '../container';
import { readPolicies, readTool, readToolset } from '../decorators';
import type { Policy } from '../decorators';
import { FeatureToolsets } from './feature';
import {
  badFeature,
  badOptions,
  buildFailed,
  duplicateTool,
  optionsRequestScoped,
  policyNotProvided,
  rootImportedTwice,
  startUpFailed,
  tokenName,
  toolsetController,
  toolsetEnhancer,
} from './messages';
import { SCOPE_TOOL_OPTIONS } from './options';
import type { ScopeToolModuleOptions } from './options';
import {
  boundInstance,
  classOf,
  constructorOf,
  isToolsetClass,
  learnFactories,
  moduleNameOf,
  policyClassifier,
  providerPlace,
  providersOf,
  toolsetClassifier,
} from './providers';
import type { FoundProvider, Probe } from './providers';
import { fillRegistry, markFilled, ToolRegistry } from './tool-registry';

/** The token of each root module's mark, to tell two roots (and who imports them) apart. @internal */
export const SCOPE_TOOL_ROOT: unique symbol = Symbol('scope-tool:nest-root');

/** How a root module gets its options: forRoot's value, forRootAsync's useFactory, or its options factory class (useClass / useExisting). @internal */
export type OptionsSource =
  | { readonly forRoot: true }
  | { readonly useFactory: true }
  | { readonly how: 'useClass' | 'useExisting'; readonly factory: string };

/** One root module (forRoot or forRootAsync call). @internal */
export class RootMark {
  constructor(readonly source: OptionsSource) {}
}

/** The metadata key of a module's imports (MODULE_METADATA.IMPORTS of @nestjs/common/constants). */
const IMPORTS = 'imports';

/** The `discover` values ScopeToolModule knows. */
const DISCOVERY = ['all', 'features'];

/** An `@Authorize()` class: resolved from the container (functions and Authorizer objects are used as they are). */
function isPolicyClass(policy: Policy): policy is Policy & Function {
  return (
    typeof policy === 'function' &&
    typeof (policy.prototype as { authorize?: unknown } | undefined)?.authorize === 'function'
  );
}

/** The imports a module declares: its @Module() metadata and, for a dynamic module, the dynamic part. */
function declaredImports(module: NestModule): unknown[] {
  const own: unknown = Reflect.getMetadata(IMPORTS, module.metatype);
  const container = (
    module as unknown as { container?: { getDynamicMetadataByToken?: (token: string, key: string) => unknown } }
  ).container;
  let dynamic: unknown;
  try {
    dynamic = container?.getDynamicMetadataByToken?.(module.token, IMPORTS);
  } catch {
    dynamic = undefined;
  }
  return [...(Array.isArray(own) ? own : []), ...(Array.isArray(dynamic) ? dynamic : [])];
}

/** Whether an import is the root module that carries `mark`. */
function importsRoot(declared: unknown, mark: unknown): boolean {
  const providers = (declared as { providers?: unknown } | null | undefined)?.providers;
  return (
    Array.isArray(providers) &&
    providers.some(
      (p: unknown) =>
        (p as { provide?: unknown } | null)?.provide === SCOPE_TOOL_ROOT &&
        (p as { useValue?: unknown }).useValue === mark,
    )
  );
}

/** Fills the ToolRegistry at start-up. @internal */
@Injectable()
export class ToolsetExplorer implements OnModuleInit {
  readonly #registry: ToolRegistry;
  readonly #discovery: DiscoveryService;
  readonly #scanner: MetadataScanner;
  readonly #moduleRef: ModuleRef;
  readonly #modules: ModulesContainer;

  // The options are not injected: injected, request-scoped options (forRootAsync injecting a
  // request-scoped provider) would make this explorer request-scoped too, and onModuleInit would
  // never run. They are read from the module at onModuleInit instead, where that case fails.
  constructor(
    registry: ToolRegistry,
    discovery: DiscoveryService,
    scanner: MetadataScanner,
    moduleRef: ModuleRef,
    modules: ModulesContainer,
  ) {
    this.#registry = registry;
    this.#discovery = discovery;
    this.#scanner = scanner;
    this.#moduleRef = moduleRef;
    this.#modules = modules;
  }

  /**
   * Discovers, checks and registers (one atomic batch). Only default-scoped (singleton) toolsets
   * and policies are bound; transient and request-scoped ones are refused. Transient and
   * request-scoped factory providers, whose value Nest does not build at start-up, are found by
   * their token when it is a `@Toolset()` or policy class (or an alias of one); with
   * `discover: 'all'`, one under a string or symbol token is called once to learn its class (see
   * learnFactories), and one that throws or hangs there is logged as a warning and left out.
   * @throws ToolError, its message (after the code's text) starting `ScopeToolModule:` (see
   *   messages.ts): ERR_INVALID_TOOL for ScopeToolModule.forRoot imported twice; request-scoped
   *   forRootAsync options; an unknown `discover`; a transient or request-scoped toolset or policy
   *   (class, factory or alias); a provider whose token is a toolset or policy class but whose value
   *   is not an instance of one; with discover 'features', a listed toolset token holding an
   *   unlisted toolset; a `@Toolset()` controller, or enhancer no module provides; a class
   *   provided twice (two instances: two modules, or two tokens of one module); a policy class no
   *   module provides; a bad forFeature() list. ERR_DUPLICATE_TOOL for a tool name declared by two classes. Every
   *   createRegistry error, with its own code. Anything else that fails here (not expected) as
   *   ERR_INVALID_TOOL, with the error as its cause
   */
  async onModuleInit(): Promise<void> {
    try {
      await this.#fill();
    } catch (e) {
      throw startUpFailed(e);
    }
  }

  async #fill(): Promise<void> {
    const wrappers = this.#discovery.getProviders();
    this.#checkOneRoot(wrappers);
    const options = this.#options(wrappers);
    const features = options.discover === 'features';
    const listed = this.#listed(wrappers);
    const wanted = (cls: Function) => !features || listed.has(cls);
    this.#checkControllers(wanted);
    this.#checkEnhancers(wrappers, wanted);
    const logger = new Logger('ScopeToolModule');
    const probes = await learnFactories(wrappers, !features, (message) => logger.warn(message));
    const toolsets = this.#selected(wrappers, probes, listed, features).map((found) => ({
      found,
      instance: boundInstance(found, 'toolset'),
    }));
    this.#checkNames(toolsets.map(({ found, instance }) => ({ found, cls: constructorOf(instance) ?? found.cls })));
    const policies = this.#policyInstances(wrappers, probes, options, toolsets);
    try {
      fillRegistry(this.#registry, () =>
        createRegistry({
          manifest: options.manifest,
          toolsets: toolsets.map((t) => t.instance),
          policies: options.policies,
          timeoutMs: options.timeoutMs,
          registry: this.#registry,
          resolve: (cls) => {
            const instance = policies.get(cls);
            if (instance === undefined) throw new Error(`${cls.name} was not resolved at start-up`);
            return instance;
          },
        }),
      );
    } catch (e) {
      throw buildFailed(e);
    }
    markFilled(this.#registry);
  }

  /**
   * The options of this root module, read (not injected) at start-up.
   * @throws ToolError ERR_INVALID_TOOL when they are request-scoped, or not valid
   */
  #options(wrappers: readonly InstanceWrapper[]): ScopeToolModuleOptions {
    const host = wrappers.find((w) => w.token === ToolsetExplorer && w.instance === this)?.host;
    const wrapper = host?.providers.get(SCOPE_TOOL_OPTIONS);
    let options: unknown;
    if (wrapper === undefined) {
      options = this.#moduleRef.get(SCOPE_TOOL_OPTIONS, { strict: true });
    } else if (!wrapper.isDependencyTreeStatic()) {
      const tokens = (wrapper.inject ?? []).map((t: unknown) =>
        typeof t === 'object' && t !== null && 'token' in t ? (t as { token: unknown }).token : t,
      );
      const scoped = tokens
        .filter((t) => wrappers.some((w) => w.token === t && !w.isDependencyTreeStatic()))
        .map(tokenName);
      const mark: unknown = host?.providers.get(SCOPE_TOOL_ROOT)?.instance;
      const source = mark instanceof RootMark && 'how' in mark.source ? mark.source : undefined;
      throw optionsRequestScoped(source ?? { useFactory: true }, scoped);
    } else {
      options = wrapper.instance;
    }
    if (typeof options !== 'object' || options === null) {
      throw badOptions(
        `the options are ${options === null ? 'null' : typeof options}; pass an object: { manifest, discover?, policies? }`,
      );
    }
    const discover = (options as { discover?: unknown }).discover;
    if (discover !== undefined && !DISCOVERY.includes(discover as string)) {
      const shown = typeof discover === 'string' ? `'${discover}'` : String(discover);
      throw badOptions(
        `options.discover is ${shown}; use 'all' (every @Toolset() provider of the application, the default) or 'features' (only the classes listed by ScopeToolModule.forFeature())`,
      );
    }
    return options as ScopeToolModuleOptions;
  }

  /**
   * One root module per application: two forRoot/forRootAsync imports make two registries.
   * @throws ToolError ERR_INVALID_TOOL naming the modules that import a root, when there are two roots
   */
  #checkOneRoot(wrappers: readonly InstanceWrapper[]): void {
    const roots = wrappers.filter((w) => w.token === SCOPE_TOOL_ROOT);
    if (new Set(roots.map((r) => r.host)).size < 2) return;
    const importers: string[] = [];
    for (const root of roots) {
      for (const module of this.#modules.values()) {
        if (declaredImports(module).some((d) => importsRoot(d, root.instance))) importers.push(module.name);
      }
    }
    throw rootImportedTwice(importers);
  }

  /** The classes the forFeature() modules list. */
  #listed(wrappers: readonly InstanceWrapper[]): Set<Function> {
    const listed = new Set<Function>();
    for (const w of wrappers) {
      const value: unknown = w.isAlias ? undefined : w.instance;
      if (value instanceof FeatureToolsets) for (const cls of value.toolsets) listed.add(cls);
    }
    return listed;
  }

  /** @throws ToolError ERR_INVALID_TOOL for a `@Toolset()` class (that `wanted` accepts) in a module's controllers */
  #checkControllers(wanted: (cls: Function) => boolean): void {
    for (const controller of this.#discovery.getControllers()) {
      const cls = controller.metatype;
      if (typeof cls === 'function' && isToolsetClass(cls) && wanted(cls))
        throw toolsetController(cls, moduleNameOf(controller));
    }
  }

  /**
   * A `@Toolset()` class (that `wanted` accepts) that Nest builds only as an enhancer: named in
   * `@UseGuards()`, `@UseInterceptors()`, `@UsePipes()`, `@UseFilters()` or a parameter pipe, and
   * no provider's token nor a provider's value's class. Nest keeps such a class in its module's
   * injectables and builds an instance of its own, which is no provider, so it would silently not
   * be a tool. A class that some module also provides is registered from that provider.
   * @throws ToolError ERR_INVALID_TOOL naming the class, its module and the enhancer kind
   */
  #checkEnhancers(wrappers: readonly InstanceWrapper[], wanted: (cls: Function) => boolean): void {
    let provided: Set<unknown> | undefined;
    for (const module of this.#modules.values()) {
      for (const enhancer of module.injectables.values()) {
        const cls = enhancer.metatype;
        if (enhancer.isNotMetatype || typeof cls !== 'function' || !isToolsetClass(cls) || !wanted(cls)) continue;
        provided ??= new Set(wrappers.flatMap((w) => [w.token, classOf(w, new Map())]));
        if (!provided.has(cls)) throw toolsetEnhancer(cls, module.name, enhancer.subtype);
      }
    }
  }

  /**
   * The toolset providers to register, by `discover` and the forFeature() lists (with 'features',
   * only listed classes are looked at, by a provider's token and its value's class; see
   * toolsetClassifier). A listed class is provided when some provider has it as its token (an alias
   * included) or its value's class is the class.
   */
  #selected(
    wrappers: readonly InstanceWrapper[],
    probes: ReadonlyMap<InstanceWrapper, Probe>,
    listed: ReadonlySet<Function>,
    features: boolean,
  ): FoundProvider[] {
    for (const cls of listed) if (readToolset(cls) === undefined) throw badFeature(cls, 'not-a-toolset');
    const found = providersOf('toolset', wrappers, toolsetClassifier(probes, features ? listed : undefined));
    const tokens = new Set(wrappers.map((w) => w.token));
    for (const cls of listed) if (!found.has(cls) && !tokens.has(cls)) throw badFeature(cls, 'not-provided');
    return [...found.values()];
  }

  /** The tool methods of a class, by the MetadataScanner (inherited ones included, accessors skipped). */
  #toolMethods(cls: Function): { methodName: string; method: Function; name: string }[] {
    const prototype = cls.prototype as Record<string, unknown>;
    return this.#scanner.getAllMethodNames(prototype).flatMap((methodName) => {
      const method = prototype[methodName];
      const metadata = typeof method === 'function' ? readTool(method) : undefined;
      return metadata === undefined ? [] : [{ methodName, method: method as Function, name: metadata.name }];
    });
  }

  /** @throws ToolError ERR_DUPLICATE_TOOL naming both classes (and modules) */
  #checkNames(toolsets: readonly { found: FoundProvider; cls: Function }[]): void {
    const owners = new Map<string, string>();
    for (const { found, cls } of toolsets) {
      for (const tool of this.#toolMethods(cls)) {
        const place = `${cls.name}.${tool.methodName}${found.moduleName === undefined ? '' : ` (${found.moduleName})`}`;
        const first = owners.get(tool.name);
        if (first !== undefined) throw duplicateTool(tool.name, first, place);
        owners.set(tool.name, place);
      }
    }
  }

  /** Every policy class the registry will ask for, resolved from the Nest container (any module). */
  #policyInstances(
    wrappers: readonly InstanceWrapper[],
    probes: ReadonlyMap<InstanceWrapper, Probe>,
    options: ScopeToolModuleOptions,
    toolsets: readonly { found: FoundProvider; instance: object }[],
  ): Map<Function, object> {
    const wanted = new Map<Function, { where: string; shared: boolean }>();
    const want = (policies: readonly Policy[], where: string, shared = false) => {
      for (const p of policies) if (isPolicyClass(p) && !wanted.has(p)) wanted.set(p, { where, shared });
    };
    want(options.policies ?? [], 'ScopeToolModule.forRoot({ policies })', true);
    for (const { found, instance } of toolsets) {
      const cls = constructorOf(instance) ?? found.cls;
      want(readPolicies(cls, 'class'), cls === found.cls ? providerPlace(found) : cls.name);
      for (const tool of this.#toolMethods(cls))
        want(readPolicies(tool.method, 'method'), `${cls.name}.${tool.methodName}`);
    }
    const instances = new Map<Function, object>();
    for (const [policy, { where, shared }] of wanted) {
      const found = providersOf('policy', wrappers, policyClassifier(policy, where, probes)).get(policy);
      if (found === undefined) throw policyNotProvided(policy, where, shared);
      instances.set(policy, boundInstance(found, 'policy'));
    }
    return instances;
  }
}
