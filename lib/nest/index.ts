/**
 * scope-tool/nest: the NestJS integration. `ScopeToolModule.forRoot({ manifest })` finds the
 * application's `@Toolset()` providers and fills the injectable `ToolRegistry`. NestJS 11
 * (`@nestjs/common`, `@nestjs/core`) is an optional peer: only this entry loads it.
 */
export { ScopeToolModule } from './scope-tool.module';
export { ToolRegistry } from './tool-registry';
export { ScopeToolModuleError } from './messages';
export type { AsyncOptionsProblem, NestProblem, NotProvidedUse, ProviderShape, ProviderSite } from './messages';
export { SCOPE_TOOL_OPTIONS } from './options';
export type {
  ScopeToolModuleAsyncOptions,
  ScopeToolModuleOptions,
  ScopeToolModuleScope,
  ScopeToolOptionsFactory,
  ToolsetDiscovery,
} from './options';
