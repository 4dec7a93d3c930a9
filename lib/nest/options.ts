/**
 * The options of `ScopeToolModule.forRoot()` / `forRootAsync()` and the token they are provided under.
 */
import type { ModuleMetadata } from '@nestjs/common';
import type { InjectionToken, OptionalFactoryDependency, Type } from '@nestjs/common';
import type { ManifestInput } from '../container';
import type { Policy } from '../decorators';

/** The injection token of the resolved ScopeToolModuleOptions. */
export const SCOPE_TOOL_OPTIONS: unique symbol = Symbol('scope-tool:nest-options');

/**
 * Which `@Toolset()` providers become tools:
 * - `'all'` (default): every `@Toolset()` class provider of every module of the application;
 * - `'features'`: only the classes listed in a `ScopeToolModule.forFeature()` (or a decorated
 *   subclass of one, as a test override), for applications that load modules whose toolsets the
 *   model must not see by default. A provider counts by the class it builds, whatever its token.
 * Any other value fails start-up with ScopeToolModuleError `bad_options` (ERR_INVALID_TOOL).
 */
export type ToolsetDiscovery = 'all' | 'features';

/** Options of `ScopeToolModule.forRoot()`. */
export interface ScopeToolModuleOptions {
  /**
   * The manifest `scope-tool generate` wrote: a path to the file (relative: to the working
   * directory), a `file:` URL, or its parsed content (lib/container/manifest.ts ManifestInput).
   */
  readonly manifest: ManifestInput;
  /** See ToolsetDiscovery. Default `'all'`. */
  readonly discover?: ToolsetDiscovery;
  /**
   * Policies asked before every tool's own `@Authorize()` policies (like Nest's global guards): an
   * Authorizer, a function, or an `@Injectable()` Authorizer class, resolved from the Nest container.
   */
  readonly policies?: readonly Policy[];
  /**
   * The deadline of each call of a tool whose `@Tool()` sets none, in milliseconds: a whole number
   * from 1 to 2,147,483,647, or Infinity for none. Default 60,000 (DEFAULT_TIMEOUT_MS). At the
   * deadline the call ends with a Failure of kind `failed` (`error: tool "NAME" timed out after N
   * ms`); another value fails start-up with ScopeToolModuleError `build_failed` (ERR_INVALID_TOOL).
   */
  readonly timeoutMs?: number;
}

/**
 * An options factory class for `ScopeToolModule.forRootAsync({ useClass })` or `({ useExisting })`,
 * Nest's usual pattern: an `@Injectable()` class that may inject providers (a ConfigService).
 */
export interface ScopeToolOptionsFactory {
  /** Builds the options; may be async. */
  createScopeToolOptions(): ScopeToolModuleOptions | Promise<ScopeToolModuleOptions>;
}

/**
 * Options of `ScopeToolModule.forRootAsync()`: exactly one of
 * - `useFactory` (with `inject`): a function of the injected providers;
 * - `useClass`: a ScopeToolOptionsFactory class, which ScopeToolModule provides and builds with its
 *   own dependencies (from `imports`, or global modules);
 * - `useExisting`: the token of a ScopeToolOptionsFactory some imported module exports.
 */
export interface ScopeToolModuleAsyncOptions {
  /** Modules whose exported providers the factory injects (a ConfigModule, ...). */
  readonly imports?: ModuleMetadata['imports'];
  /** Tokens injected into `useFactory`, in order (useFactory only). */
  readonly inject?: (InjectionToken | OptionalFactoryDependency)[];
  /** Builds the options; may be async. */
  readonly useFactory?: (...args: never[]) => ScopeToolModuleOptions | Promise<ScopeToolModuleOptions>;
  /** A ScopeToolOptionsFactory class, provided by ScopeToolModule itself. */
  readonly useClass?: Type<ScopeToolOptionsFactory>;
  /** The token of an existing ScopeToolOptionsFactory provider, exported by a module of `imports` (or global). */
  readonly useExisting?: InjectionToken<ScopeToolOptionsFactory>;
}

/** Options shared by forRoot and forRootAsync. */
export interface ScopeToolModuleScope {
  /** Whether ToolRegistry is injectable in every module without importing ScopeToolModule. Default true. */
  readonly global?: boolean;
}
