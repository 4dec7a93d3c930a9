/**
 * At start-up (onModuleInit), finds the `@Toolset()` providers of the application with Nest's
 * DiscoveryService and MetadataScanner, resolves their `@Authorize()` policy classes from the Nest
 * container, and registers their tools into the ToolRegistry through createRegistry.
 * @internal
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { createRegistry } from '../container';
import { readPolicies, readTool, readToolset } from '../decorators';
import type { Policy } from '../decorators';
import { FeatureToolsets } from './feature';
import { badFeature, buildFailed, duplicateTool, policyNotProvided } from './messages';
import { SCOPE_TOOL_OPTIONS } from './options';
import type { ScopeToolModuleOptions } from './options';
import { probeFactories, providerPlace, providersOf, scopedInstance } from './providers';
import type { FoundProvider, Probe } from './providers';
import { ToolRegistry } from './tool-registry';

/** An `@Authorize()` class: resolved from the container (functions and Authorizer objects are used as they are). */
function isPolicyClass(policy: Policy): policy is Policy & Function {
  return typeof policy === 'function' && typeof (policy.prototype as { authorize?: unknown } | undefined)?.authorize === 'function';
}

/** Fills the ToolRegistry at start-up. @internal */
@Injectable()
export class ToolsetExplorer implements OnModuleInit {
  readonly #options: ScopeToolModuleOptions;
  readonly #registry: ToolRegistry;
  readonly #discovery: DiscoveryService;
  readonly #scanner: MetadataScanner;
  readonly #moduleRef: ModuleRef;

  constructor(
    @Inject(SCOPE_TOOL_OPTIONS) options: ScopeToolModuleOptions,
    registry: ToolRegistry,
    discovery: DiscoveryService,
    scanner: MetadataScanner,
    moduleRef: ModuleRef,
  ) {
    this.#options = options;
    this.#registry = registry;
    this.#discovery = discovery;
    this.#scanner = scanner;
    this.#moduleRef = moduleRef;
  }

  /**
   * Discovers, checks and registers (one atomic batch). Transient and request-scoped factory
   * providers, whose value Nest does not build at start-up, are called once to learn their class
   * (see probeFactories); one that throws there is logged as a warning and left out.
   * @throws ToolError (see messages.ts): ERR_INVALID_TOOL for a request-scoped toolset or policy
   *   (class or factory provider); a class provided twice (two instances: two modules, or two tokens
   *   of one module); a policy class no module provides; a bad forFeature() list. ERR_DUPLICATE_TOOL
   *   for a tool name declared by two classes. And every createRegistry error, with its own code,
   *   prefixed `ScopeToolModule:`
   */
  async onModuleInit(): Promise<void> {
    const wrappers = this.#discovery.getProviders();
    const logger = new Logger('ScopeToolModule');
    const probes = await probeFactories(wrappers, (message) => logger.warn(message));
    const toolsets = this.#selected(wrappers, probes);
    this.#checkNames(toolsets);
    const instances: object[] = [];
    for (const found of toolsets) instances.push(await scopedInstance(found, 'toolset', this.#moduleRef));
    const policies = await this.#policyInstances(wrappers, probes, toolsets);
    try {
      createRegistry({
        manifest: this.#options.manifest,
        toolsets: instances,
        policies: this.#options.policies,
        registry: this.#registry,
        resolve: (cls) => {
          const instance = policies.get(cls);
          if (instance === undefined) throw new Error(`${cls.name} was not resolved at start-up`);
          return instance;
        },
      });
    } catch (e) {
      throw buildFailed(e);
    }
  }

  /** The toolset providers to register, by `discover` and the forFeature() lists. */
  #selected(wrappers: readonly InstanceWrapper[], probes: ReadonlyMap<InstanceWrapper, Probe>): FoundProvider[] {
    const found = providersOf(wrappers, probes, 'toolset', (cls) => readToolset(cls) !== undefined);
    const listed = new Set<Function>();
    for (const w of wrappers) {
      const value: unknown = w.isAlias ? undefined : w.instance;
      if (value instanceof FeatureToolsets) for (const cls of value.toolsets) listed.add(cls);
    }
    for (const cls of listed) {
      if (readToolset(cls) === undefined) throw badFeature(cls, 'not-a-toolset');
      if (!found.has(cls)) throw badFeature(cls, 'not-provided');
    }
    const all = [...found.values()];
    return this.#options.discover === 'features' ? all.filter((f) => listed.has(f.cls)) : all;
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
  #checkNames(toolsets: readonly FoundProvider[]): void {
    const owners = new Map<string, string>();
    for (const found of toolsets) {
      for (const tool of this.#toolMethods(found.cls)) {
        const place = `${found.cls.name}.${tool.methodName}${found.moduleName === undefined ? '' : ` (${found.moduleName})`}`;
        const first = owners.get(tool.name);
        if (first !== undefined) throw duplicateTool(tool.name, first, place);
        owners.set(tool.name, place);
      }
    }
  }

  /** Every policy class the registry will ask for, resolved from the Nest container. */
  async #policyInstances(
    wrappers: readonly InstanceWrapper[],
    probes: ReadonlyMap<InstanceWrapper, Probe>,
    toolsets: readonly FoundProvider[],
  ): Promise<Map<Function, object>> {
    const wanted = new Map<Function, string>();
    const want = (policies: readonly Policy[], where: string) => {
      for (const p of policies) if (isPolicyClass(p) && !wanted.has(p)) wanted.set(p, where);
    };
    want(this.#options.policies ?? [], 'ScopeToolModule.forRoot({ policies })');
    for (const found of toolsets) {
      want(readPolicies(found.cls, 'class'), providerPlace(found));
      for (const tool of this.#toolMethods(found.cls)) want(readPolicies(tool.method, 'method'), `${found.cls.name}.${tool.methodName}`);
    }
    const provided = providersOf(wrappers, probes, 'policy', (cls) => wanted.has(cls));
    const instances = new Map<Function, object>();
    for (const [policy, where] of wanted) {
      const found = provided.get(policy);
      if (found === undefined) throw policyNotProvided(policy, where);
      instances.set(policy, await scopedInstance(found, 'policy', this.#moduleRef));
    }
    return instances;
  }
}
