/**
 * `ScopeToolModule`: the NestJS module that turns the application's `@Toolset()` providers into the
 * injectable ToolRegistry.
 */
import { Module } from '@nestjs/common';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RootMark, SCOPE_TOOL_ROOT, ToolsetExplorer } from './explorer';
import { FEATURE_TOOLSETS, FeatureToolsets } from './feature';
import { SCOPE_TOOL_OPTIONS } from './options';
import type { ScopeToolModuleAsyncOptions, ScopeToolModuleOptions, ScopeToolModuleScope } from './options';
import { ToolRegistry } from './tool-registry';

/** What the feature modules of forFeature() are instances of. @internal */
@Module({})
export class ScopeToolFeatureModule {}

function rootModule(options: Provider, scope: ScopeToolModuleScope, imports: DynamicModule['imports'] = []): DynamicModule {
  return {
    module: ScopeToolModule,
    global: scope.global ?? true,
    imports: [DiscoveryModule, ...imports],
    providers: [options, { provide: SCOPE_TOOL_ROOT, useValue: new RootMark() }, { provide: ToolRegistry, useFactory: () => new ToolRegistry() }, ToolsetExplorer],
    exports: [ToolRegistry],
  };
}

/**
 * Registers the `@Toolset()` providers of a NestJS application as tools, into an injectable
 * `ToolRegistry`. At start-up (`onModuleInit`; `app.init()`, `NestFactory.create*()`,
 * `TestingModule.init()`):
 * 1. the options are read and checked (`discover` is `'all'` or `'features'`; forRootAsync options
 *    must not be request-scoped), and the application must import one root module;
 * 2. DiscoveryService lists every provider of every module; the toolsets among them (all of them,
 *    or with `discover: 'features'` only the classes a `forFeature()` lists) are the providers whose
 *    token is a `@Toolset()` class (their value must be an instance of a `@Toolset()` class) and
 *    those whose value's class is one; MetadataScanner finds their `@Tool()` methods. A `@Toolset()`
 *    class in a module's `controllers` is refused;
 * 3. an `@Authorize()` policy that is a class (and a class in `policies`) is taken from the Nest
 *    container (any module), so it may inject dependencies;
 * 4. scopes, for class and factory providers alike: a default-scoped provider is used as is; a
 *    transient one gets one instance of its own for the registry, whose lifecycle hooks this module
 *    calls; a request-scoped one (Scope.REQUEST, durable, or depending on a request-scoped provider)
 *    is refused without being built, because tools are bound once, outside any request: per-request
 *    data travels in `CallOptions.context` (the `ToolCall.context` of a tool method). A transient or
 *    request-scoped factory under a string or symbol token, whose value Nest does not build at
 *    start-up, is called once to learn its class, with `discover: 'all'` only and for at most a few
 *    seconds; if it throws or hangs there, a warning naming its token and module is logged and
 *    start-up goes on (a factory under a class token is never called for this: the token tells);
 * 5. createRegistry binds every tool with the manifest and registers them in one atomic batch.
 *
 * Any problem fails the application's start-up with a ToolError whose message starts
 * `ScopeToolModule:` and names the class and module (and the provider's token when it is not the
 * class): ERR_DUPLICATE_TOOL when two classes declare one tool name (both named), ERR_INVALID_TOOL
 * otherwise (request-scoped provider or options, transient instance that cannot be built, token of a
 * toolset or policy class holding something else, toolset controller, class provided twice as two
 * instances, policy not provided, bad forFeature list, unknown `discover`, root module imported
 * twice), and the container's errors with their own codes (stale or missing manifest entry, refused
 * DTO). Toolsets of modules loaded later with LazyModuleLoader are not registered.
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
    return rootModule({ provide: SCOPE_TOOL_OPTIONS, useValue: options }, options);
  }

  /**
   * The root module, with options built by a factory that may inject providers (a ConfigService) and be async.
   * @param options - `useFactory`, `inject`, `imports`, `global` (true by default). The options must
   *   be resolvable at start-up: a useFactory that injects a request-scoped provider fails start-up
   *   with ToolError ERR_INVALID_TOOL, as the options checks of forRoot do
   */
  static forRootAsync(options: ScopeToolModuleAsyncOptions & ScopeToolModuleScope): DynamicModule {
    const provider: Provider = { provide: SCOPE_TOOL_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] };
    return rootModule(provider, options, options.imports);
  }

  /**
   * Lists a feature module's toolsets: import it in that module (`imports: [ScopeToolModule.forFeature([NotesTools])]`)
   * and provide the classes there. With `discover: 'features'` only listed toolsets become tools;
   * with `'all'` the list is a start-up check. Either way a listed class must be a `@Toolset()`
   * provider of some module (a class provider, a value, or a factory provider whose token is the
   * class), or start-up fails naming it (ToolError ERR_INVALID_TOOL).
   * @throws ToolError ERR_INVALID_TOOL when `toolsets` is not an array of classes
   */
  static forFeature(toolsets: readonly Type[]): DynamicModule {
    return {
      module: ScopeToolFeatureModule,
      providers: [{ provide: FEATURE_TOOLSETS, useValue: new FeatureToolsets(toolsets) }],
    };
  }
}
