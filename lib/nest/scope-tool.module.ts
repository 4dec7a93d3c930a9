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
import { ScopeToolModuleError, describeValue, tokenName } from './messages';
import type { AsyncOptionsProblem } from './messages';
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
 * @throws ScopeToolModuleError bad_async_options (ERR_INVALID_TOOL) unless exactly one, usable, is given
 */
function asyncKind(options: unknown): (typeof ASYNC_KINDS)[number] {
  const bad = (problem: AsyncOptionsProblem) => new ScopeToolModuleError({ rule: 'bad_async_options', ...problem });
  if (typeof options !== 'object' || options === null)
    throw bad({ issue: 'not_an_object', value: describeValue(options) });
  const record = options as Record<string, unknown>;
  const given = ASYNC_KINDS.filter((k) => record[k] !== undefined);
  if (given.length !== 1) throw bad({ issue: 'not_exactly_one', given });
  const kind = given[0] as (typeof ASYNC_KINDS)[number];
  const value = record[kind];
  if (kind !== 'useExisting' && typeof value !== 'function')
    throw bad({ issue: 'not_a_function', key: kind, value: describeValue(value) });
  if (kind === 'useExisting' && value === null) throw bad({ issue: 'null_token' });
  if (kind !== 'useFactory' && record.inject !== undefined) throw bad({ issue: 'inject_without_factory', key: kind });
  return kind;
}

/** The options an options factory builds, checking first that it is one. */
function optionsOf(
  factory: unknown,
  how: 'useClass' | 'useExisting',
  token: unknown,
): ScopeToolModuleOptions | Promise<ScopeToolModuleOptions> {
  const create = (factory as Partial<ScopeToolOptionsFactory> | null | undefined)?.createScopeToolOptions;
  if (typeof create !== 'function') {
    throw new ScopeToolModuleError({
      rule: 'not_an_options_factory',
      how,
      token: tokenName(token),
      value: describeValue(factory),
    });
  }
  return create.call(factory);
}

/**
 * Registers the `@Toolset()` providers of a NestJS application as tools, into an injectable
 * `ToolRegistry`. At start-up (`onModuleInit`: `app.init()`, `NestFactory.create*()`,
 * `TestingModule.init()`), with Nest's DiscoveryService (the tool methods of a class are found as
 * createRegistry finds them, lib/container/scanner.ts):
 * 1. the options are read and checked, and the application must import one root module;
 * 2. the toolsets are the providers whose class (or else token) is a `@Toolset()` class; with
 *    `discover: 'features'` only the classes a `forFeature()` lists (or a decorated subclass);
 * 3. the `@Authorize()` policy classes (and classes in `policies`) are the providers of any module
 *    whose token or class is the policy class;
 * 4. each must be a default-scoped class provider, bound as the application's instance; any other
 *    toolset or policy provider (useValue, useFactory, useExisting, transient, request-scoped) is
 *    refused (rule `not_static_class_provider`). Nothing is built or called to learn what a
 *    provider is, so a transient or request-scoped factory under a string or symbol token is not
 *    seen at all;
 * 5. createRegistry binds every tool with the manifest and registers them in one atomic batch.
 * Every problem fails start-up with a ScopeToolModuleError whose `problem` names the rule and the
 * place (see NestProblem); ERR_DUPLICATE_TOOL for one tool name in two classes, the container's own
 * code for a stale manifest or a refused DTO (`build_failed`), ERR_INVALID_TOOL otherwise. An error
 * thrown by the application's own code while Nest builds providers (a forRootAsync useFactory, a
 * constructor) is Nest's to report, as it is. Toolsets of modules loaded later with
 * LazyModuleLoader are not registered.
 */
@Module({})
export class ScopeToolModule {
  /**
   * The root module, configured with options known up front.
   * @param options - see ScopeToolModuleOptions; `global` (true by default: ToolRegistry injectable
   *   everywhere). Checked at start-up, which fails with ScopeToolModuleError (ERR_INVALID_TOOL)
   *   `bad_options` for an unknown `discover`, `root_imported_twice` when forRoot/forRootAsync is
   *   imported more than once
   */
  static forRoot(options: ScopeToolModuleOptions & ScopeToolModuleScope): DynamicModule {
    return rootModule([{ provide: SCOPE_TOOL_OPTIONS, useValue: options }], { how: 'forRoot' }, options);
  }

  /**
   * The root module, with options built at start-up from injected providers (a ConfigService), by
   * exactly one of useFactory, useClass and useExisting (see ScopeToolModuleAsyncOptions). The options
   * must be resolvable at start-up: a factory that depends on a request-scoped provider fails start-up
   * with ScopeToolModuleError `options_request_scoped` (ERR_INVALID_TOOL). An error thrown by
   * useFactory or createScopeToolOptions() is the application's own: Nest reports it as it is, while
   * it builds the providers (before any start-up hook).
   * @param options - see ScopeToolModuleAsyncOptions; `global` (true by default)
   * @throws ScopeToolModuleError `bad_async_options` (ERR_INVALID_TOOL) when not exactly one of
   *   useFactory, useClass and useExisting is given, or one is not usable (useFactory or useClass not
   *   a function, useExisting null, inject given with useClass or useExisting)
   */
  static forRootAsync(options: ScopeToolModuleAsyncOptions & ScopeToolModuleScope): DynamicModule {
    const kind = asyncKind(options);
    if (kind === 'useFactory') {
      const provider: Provider = {
        provide: SCOPE_TOOL_OPTIONS,
        useFactory: options.useFactory as (...args: unknown[]) => unknown,
        inject: options.inject ?? [],
      };
      return rootModule([provider], { how: 'useFactory' }, options, options.imports);
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
   * class provider of some module, or start-up fails (`feature_not_toolset`, `feature_not_provided`).
   * @throws ScopeToolModuleError `bad_feature_list` (ERR_INVALID_TOOL) when `toolsets` is not an array of classes
   */
  static forFeature(toolsets: readonly Type[]): DynamicModule {
    return {
      module: ScopeToolFeatureModule,
      providers: [{ provide: FEATURE_TOOLSETS, useValue: new FeatureToolsets(toolsets) }],
    };
  }
}
