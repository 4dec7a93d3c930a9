/**
 * `ScopeToolModule`: the NestJS module that turns the application's `@Toolset()` providers into the
 * injectable ToolRegistry.
 */
import { Module } from '@nestjs/common';
import type { DynamicModule, InjectionToken, Provider, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RootMark, SCOPE_TOOL_ROOT, ToolsetExplorer } from './explorer';
import type { OptionsSource } from './explorer';
import { FEATURE_TOOLSETS, FeatureToolsets } from './feature';
import { badAsyncOptions, describeValue, notAnOptionsFactory, tokenName } from './messages';
import { SCOPE_TOOL_OPTIONS } from './options';
import type {
  ScopeToolModuleAsyncOptions,
  ScopeToolModuleOptions,
  ScopeToolModuleScope,
  ScopeToolOptionsFactory,
} from './options';
import { ToolRegistry } from './tool-registry';

/** What the feature modules of forFeature() are instances of. @internal */
@Module({})
export class ScopeToolFeatureModule {}

function rootModule(
  options: Provider[],
  source: OptionsSource,
  scope: ScopeToolModuleScope | undefined,
  imports: DynamicModule['imports'] = [],
): DynamicModule {
  return {
    module: ScopeToolModule,
    global: scope?.global ?? true,
    imports: [DiscoveryModule, ...imports],
    providers: [
      ...options,
      { provide: SCOPE_TOOL_ROOT, useValue: new RootMark(source) },
      { provide: ToolRegistry, useFactory: () => new ToolRegistry() },
      ToolsetExplorer,
    ],
    exports: [ToolRegistry],
  };
}

const ASYNC_KINDS = ['useFactory', 'useClass', 'useExisting'] as const;

/**
 * Which of useFactory, useClass and useExisting forRootAsync() got.
 * @throws ToolError ERR_INVALID_TOOL (`ScopeToolModule.forRootAsync(): ...`) unless exactly one, usable, is given
 */
function asyncKind(options: unknown): (typeof ASYNC_KINDS)[number] {
  if (typeof options !== 'object' || options === null) {
    throw badAsyncOptions(
      `the options are ${describeValue(options)}; pass { useFactory, inject?, imports? }, { useClass, imports? } or { useExisting, imports? }`,
    );
  }
  const given = ASYNC_KINDS.filter((k) => (options as Record<string, unknown>)[k] !== undefined);
  if (given.length !== 1) {
    throw badAsyncOptions(
      `pass exactly one of useFactory, useClass and useExisting (${given.length === 0 ? 'none was given' : `${given.join(' and ')} were given`})`,
    );
  }
  const kind = given[0] as (typeof ASYNC_KINDS)[number];
  const value = (options as Record<string, unknown>)[kind];
  if (kind === 'useFactory' && typeof value !== 'function')
    throw badAsyncOptions(`useFactory is ${describeValue(value)}; pass a function that returns the options`);
  if (kind === 'useClass' && typeof value !== 'function') {
    throw badAsyncOptions(
      `useClass is ${describeValue(value)}; pass an options factory class (one with createScopeToolOptions(), see ScopeToolOptionsFactory)`,
    );
  }
  if (kind === 'useExisting' && value === null)
    throw badAsyncOptions('useExisting is null; pass the token of an options factory provider');
  if (kind !== 'useFactory' && (options as { inject?: unknown }).inject !== undefined) {
    throw badAsyncOptions(
      `inject is for useFactory; an options factory (${kind}) gets its dependencies through its own constructor`,
    );
  }
  return kind;
}

/** The options an options factory builds, checking first that it is one. */
function optionsOf(
  factory: unknown,
  how: 'useClass' | 'useExisting',
  token: unknown,
): ScopeToolModuleOptions | Promise<ScopeToolModuleOptions> {
  const create = (factory as Partial<ScopeToolOptionsFactory> | null | undefined)?.createScopeToolOptions;
  if (typeof create !== 'function') throw notAnOptionsFactory(how, tokenName(token), describeValue(factory));
  return create.call(factory);
}

/**
 * Registers the `@Toolset()` providers of a NestJS application as tools, into an injectable
 * `ToolRegistry`. At start-up (`onModuleInit`; `app.init()`, `NestFactory.create*()`,
 * `TestingModule.init()`):
 * 1. the options are read and checked (`discover` is `'all'` or `'features'`; forRootAsync options
 *    must not be request-scoped), and the application must import one root module;
 * 2. DiscoveryService lists every provider of every module; the toolsets among them (all of them,
 *    or with `discover: 'features'` only the classes a `forFeature()` lists) are the providers whose
 *    token is a `@Toolset()` class, an alias `useExisting` included (their value, for an alias the
 *    value of the provider it stands for, must be an instance of a `@Toolset()` class), and those
 *    whose value's class is one; MetadataScanner finds their `@Tool()` methods. With 'features', a
 *    provider counts by its value's class, whatever its token, and a listed token must hold an
 *    instance of a listed class or of a decorated subclass of one. A `@Toolset()` class in a
 *    module's `controllers`, or one Nest builds only as an enhancer (guard, interceptor, pipe,
 *    filter) that no module provides, is refused;
 * 3. an `@Authorize()` policy that is a class (and a class in `policies`) is taken from the Nest
 *    container (any module), so it may inject dependencies; a provider under its class as token
 *    (an alias included) must hold an instance of it or of a subclass, and two providers of it (two
 *    instances) are refused;
 * 4. scopes, for class, value, factory providers and aliases alike (an alias `useExisting` is
 *    judged by the provider it stands for): only a default-scoped (singleton) toolset or policy is
 *    bound, its application instance, since a tool is bound once, for the registry's life. A
 *    transient one (every consumer has its own instance: none is the registry's) and a
 *    request-scoped one (Scope.REQUEST, durable, or depending on a request-scoped provider: no
 *    request at start-up) are refused without being built; per-call data travels in
 *    `CallOptions.context` (the `ToolCall.context` of a tool method). A transient or request-scoped
 *    factory under a string or symbol token, whose value Nest does not build at start-up, is called
 *    once to learn whether it yields a toolset or policy (then refused), with `discover: 'all'`
 *    only, one after another, each for at most a few seconds; its value is dropped (no lifecycle
 *    hook); if it throws or hangs there, a warning naming its token and module is logged and
 *    start-up goes on. A factory under a class token is never called: a toolset or policy class
 *    token is refused by its scope, any other class is not inspected (unless consumers injected a
 *    transient one: every consumer's instance tells a class, and one toolset or policy among them
 *    is enough to refuse it);
 * 5. createRegistry binds every tool with the manifest and registers them in one atomic batch.
 *
 * Any problem ScopeToolModule finds at start-up fails it with a ToolError whose message, after the
 * code's text (`tool: invalid tool: `), starts `ScopeToolModule:` and names the class and module
 * (and the provider's token when it is not the class): ERR_DUPLICATE_TOOL when two classes declare
 * one tool name (both named), ERR_INVALID_TOOL otherwise (transient or request-scoped provider,
 * request-scoped options, token of a toolset or policy class holding something else, listed token
 * holding an unlisted toolset, toolset controller or enhancer, class provided twice as two
 * instances, policy not provided, bad forFeature list, unknown `discover`, root module imported
 * twice, options factory without createScopeToolOptions()),
 * and the container's errors with their own codes (stale or missing manifest entry, refused DTO).
 * An error thrown by the application's own code while Nest builds providers (a forRootAsync
 * useFactory, a constructor) is Nest's to report, as it is. forFeature() and forRootAsync() check
 * their arguments when called (`ScopeToolModule.forFeature(): ...`). Toolsets of modules loaded
 * later with LazyModuleLoader are not registered.
 */
@Module({})
export class ScopeToolModule {
  /**
   * The root module, configured with options known up front.
   * @param options - `manifest` (path or parsed), `discover` ('all' by default), `policies` asked
   *   before every tool's own, `global` (true by default: ToolRegistry injectable everywhere).
   *   Checked at start-up, which fails with ToolError ERR_INVALID_TOOL for an unknown `discover`
   *   and when the application imports forRoot/forRootAsync more than once
   */
  static forRoot(options: ScopeToolModuleOptions & ScopeToolModuleScope): DynamicModule {
    return rootModule([{ provide: SCOPE_TOOL_OPTIONS, useValue: options }], { forRoot: true }, options);
  }

  /**
   * The root module, with options built at start-up from injected providers (a ConfigService), by
   * exactly one of:
   * - `useFactory` (may be async), with `inject` and `imports`;
   * - `useClass`: an options factory class (ScopeToolOptionsFactory: `createScopeToolOptions()`),
   *   which this module provides and Nest builds with its dependencies from `imports`;
   * - `useExisting`: the token of an options factory that a module of `imports` exports.
   * The options must be resolvable at start-up: a factory that depends on a request-scoped provider
   * fails start-up with ToolError ERR_INVALID_TOOL, as the options checks of forRoot do. An error
   * thrown by useFactory or createScopeToolOptions() is the application's own: Nest reports it as it
   * is, while it builds the providers (before any start-up hook).
   * @param options - see ScopeToolModuleAsyncOptions; `global` (true by default)
   * @throws ToolError ERR_INVALID_TOOL (`ScopeToolModule.forRootAsync(): ...`) when not exactly one
   *   of useFactory, useClass and useExisting is given, or one is not usable (useFactory or useClass
   *   not a function, useExisting null, inject given with useClass or useExisting)
   */
  static forRootAsync(options: ScopeToolModuleAsyncOptions & ScopeToolModuleScope): DynamicModule {
    const kind = asyncKind(options);
    if (kind === 'useFactory') {
      const provider: Provider = {
        provide: SCOPE_TOOL_OPTIONS,
        useFactory: options.useFactory as (...args: unknown[]) => unknown,
        inject: options.inject ?? [],
      };
      return rootModule([provider], { useFactory: true }, options, options.imports);
    }
    const token = kind === 'useClass' ? (options.useClass as Type<ScopeToolOptionsFactory>) : options.useExisting;
    const provider: Provider = {
      provide: SCOPE_TOOL_OPTIONS,
      useFactory: (factory: unknown) => optionsOf(factory, kind, token),
      inject: [token as InjectionToken],
    };
    const own: Provider[] =
      kind === 'useClass'
        ? [{ provide: token as Type<ScopeToolOptionsFactory>, useClass: token as Type<ScopeToolOptionsFactory> }]
        : [];
    return rootModule([provider, ...own], { how: kind, factory: tokenName(token) }, options, options.imports);
  }

  /**
   * Lists a feature module's toolsets: import it in that module (`imports: [ScopeToolModule.forFeature([NotesTools])]`)
   * and provide the classes there. With `discover: 'features'` only listed toolsets become tools;
   * with `'all'` the list is a start-up check. Either way a listed class must be a `@Toolset()`
   * provider of some module (a class provider, a value, or a factory provider whose token is the
   * class, or any provider whose value's class it is), or start-up fails naming it (ToolError
   * ERR_INVALID_TOOL).
   * @throws ToolError ERR_INVALID_TOOL when `toolsets` is not an array of classes
   */
  static forFeature(toolsets: readonly Type[]): DynamicModule {
    return {
      module: ScopeToolFeatureModule,
      providers: [{ provide: FEATURE_TOOLSETS, useValue: new FeatureToolsets(toolsets) }],
    };
  }
}
