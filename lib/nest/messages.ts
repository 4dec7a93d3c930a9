/**
 * ScopeToolModule's errors: one record per problem (`NestProblem`, a union on `rule`), and the
 * message derived from it, worded here only. Each names the place (class, token, module) and the fix.
 */
import { ToolError } from '../protocol';
import type { ToolErrorCode } from '../protocol';

/** Where a provider is: its token (as `tokenName` shows it) and its module's class name. */
export interface ProviderSite {
  readonly token: string;
  readonly module: string | undefined;
}

/**
 * Why a provider cannot be bound: only a default-scoped class provider can (see lib/nest/providers.ts).
 * `useValue`, `useFactory`, `useExisting` (an alias) by its form; `transient` and `request_scoped`
 * (Scope.REQUEST, durable, or through a request-scoped dependency) by its scope.
 */
export type ProviderShape = 'useValue' | 'useFactory' | 'useExisting' | 'transient' | 'request_scoped';

/** How Nest uses a `@Toolset()` class that is not one of its providers. */
export type NotProvidedUse = 'controller' | 'guard' | 'interceptor' | 'pipe' | 'filter' | 'enhancer';

/** What is wrong with the arguments of `ScopeToolModule.forRootAsync()`. */
export type AsyncOptionsProblem =
  | { readonly issue: 'not_an_object'; readonly value: string }
  | { readonly issue: 'not_exactly_one'; readonly given: readonly string[] }
  | { readonly issue: 'not_a_function'; readonly key: 'useFactory' | 'useClass'; readonly value: string }
  | { readonly issue: 'null_token' }
  | { readonly issue: 'inject_without_factory'; readonly key: 'useClass' | 'useExisting' };

/**
 * One problem ScopeToolModule found: `rule` says which; the other fields say where (class and
 * token names as messages show them, module class names). Tests and callers match on these, never
 * on the message.
 */
export type NestProblem =
  | {
      readonly rule: 'not_static_class_provider';
      readonly kind: 'toolset' | 'policy';
      readonly cls: string;
      readonly site: ProviderSite;
      readonly shape: ProviderShape;
    }
  | {
      readonly rule: 'wrong_class';
      readonly kind: 'toolset' | 'policy';
      readonly token: string;
      readonly module: string | undefined;
      readonly cls: string;
    }
  | {
      readonly rule: 'provided_twice';
      readonly kind: 'toolset' | 'policy';
      readonly cls: string;
      readonly first: ProviderSite;
      readonly second: ProviderSite;
      readonly sameModule: boolean;
    }
  | { readonly rule: 'duplicate_tool'; readonly tool: string; readonly first: string; readonly second: string }
  | { readonly rule: 'policy_not_provided'; readonly policy: string; readonly of: string; readonly shared: boolean }
  | {
      readonly rule: 'not_a_provider';
      readonly cls: string;
      readonly module: string | undefined;
      readonly use: NotProvidedUse;
    }
  | { readonly rule: 'feature_not_toolset'; readonly cls: string }
  | { readonly rule: 'feature_not_provided'; readonly cls: string }
  | { readonly rule: 'bad_feature_list'; readonly item: number | undefined }
  | { readonly rule: 'bad_options'; readonly option: 'options' | 'discover'; readonly value: string }
  | ({ readonly rule: 'bad_async_options' } & AsyncOptionsProblem)
  | {
      readonly rule: 'not_an_options_factory';
      readonly how: 'useClass' | 'useExisting';
      readonly token: string;
      readonly value: string;
    }
  | {
      readonly rule: 'options_request_scoped';
      readonly how: 'useFactory' | 'useClass' | 'useExisting';
      readonly factory: string | undefined;
    }
  | { readonly rule: 'root_imported_twice'; readonly importers: readonly string[] }
  | { readonly rule: 'registry_not_ready'; readonly method: string }
  | { readonly rule: 'registry_sealed' }
  | { readonly rule: 'build_failed'; readonly detail: string }
  | { readonly rule: 'start_up_failed'; readonly detail: string };

type Rule = NestProblem['rule'];
type Of<R extends Rule> = Extract<NestProblem, { rule: R }>;

const DEFAULT_SCOPED = 'default-scoped (singleton: no scope option, no request-scoped dependency)';

const SHAPES: Readonly<Record<ProviderShape, string>> = {
  useValue: 'a value provider (useValue)',
  useFactory: 'a factory provider (useFactory)',
  useExisting: 'an alias (useExisting)',
  transient: 'transient (Scope.TRANSIENT): every consumer gets an instance of its own',
  request_scoped:
    'request-scoped (Scope.REQUEST, or through a request-scoped dependency): there is no request at start-up',
};

const USES: Readonly<Record<NotProvidedUse, string>> = {
  controller: "declared in the module's controllers",
  guard: 'used as a guard and provided by no module',
  interceptor: 'used as an interceptor and provided by no module',
  pipe: 'used as a pipe and provided by no module',
  filter: 'used as an exception filter and provided by no module',
  enhancer: 'used as an enhancer and provided by no module',
};

const ASYNC_FORMS = '{ useFactory, inject?, imports? }, { useClass, imports? } or { useExisting, imports? }';

/** `Clock (ClockModule)`, or `Clock` when the module is unknown. */
export function withModule(name: string, module: string | undefined): string {
  return module === undefined ? name : `${name} (${module})`;
}

/** `Clock (ClockModule)`, or `Clock (provider 'CLOCK' of ClockModule)` when the token is not the class. */
function siteOf(cls: string, site: ProviderSite): string {
  if (site.token === cls) return withModule(cls, site.module);
  return `${cls} (provider ${site.token}${site.module === undefined ? '' : ` of ${site.module}`})`;
}

function asyncDetail(p: AsyncOptionsProblem): string {
  switch (p.issue) {
    case 'not_an_object':
      return `the options are ${p.value}; pass ${ASYNC_FORMS}`;
    case 'not_exactly_one':
      return `pass exactly one of useFactory, useClass and useExisting (${p.given.length === 0 ? 'none was given' : `${p.given.join(' and ')} were given`})`;
    case 'not_a_function':
      return p.key === 'useFactory'
        ? `useFactory is ${p.value}; pass a function that returns the options`
        : `useClass is ${p.value}; pass a class with createScopeToolOptions() (see ScopeToolOptionsFactory)`;
    case 'null_token':
      return 'useExisting is null; pass the token of an options factory provider';
    case 'inject_without_factory':
      return `inject is for useFactory; an options factory (${p.key}) gets its dependencies through its own constructor`;
  }
}

/** The message of each rule, after `ScopeToolModule: ` (or the method that checks its arguments). */
const RENDER: { readonly [R in Rule]: (p: Of<R>) => string } = {
  not_static_class_provider: (p) =>
    `the ${p.kind} ${siteOf(p.cls, p.site)} is ${SHAPES[p.shape]}; ScopeToolModule binds ${p.kind}s once, at start-up, to the application's instance of a default-scoped class provider, so provide the class itself, ${DEFAULT_SCOPED}: providers: [${p.cls}]${p.site.token === p.cls ? '' : ` or { provide: ${p.site.token}, useClass: ${p.cls} }`} (in a test: overrideProvider(${p.cls}).useClass(Fake${p.cls}) with class Fake${p.cls} extends ${p.cls}${p.kind === 'toolset' ? ', decorated with @Toolset()' : ''}), and read per-call data from CallOptions.context`,
  wrong_class: (p) =>
    `the provider ${withModule(p.token, p.module)} has the ${p.kind} ${p.token} as its token but builds ${p.cls}, which is not ` +
    (p.kind === 'toolset'
      ? `a @Toolset() class; decorate ${p.cls} with @Toolset() (a subclass does not inherit it), or provide ${p.token} itself`
      : `${p.token} nor a subclass of it; provide ${p.token} or a subclass`),
  provided_twice: (p) => {
    const why =
      p.kind === 'toolset' ? 'its tools would be registered twice' : 'scope-tool would not know which one to ask';
    if (p.sameModule) {
      return `the ${p.kind} ${p.cls} is provided twice in module ${p.first.module ?? '(unnamed)'} (tokens ${p.first.token} and ${p.second.token}), as two instances, so ${why}; provide it once, and make the other token an alias: { provide: ${p.second.token === p.cls ? p.first.token : p.second.token}, useExisting: ${p.cls} }`;
    }
    const second = p.second.module === p.first.module ? `another ${p.second.module ?? 'module'}` : p.second.module;
    return `the ${p.kind} ${p.cls} is provided by both ${p.first.module ?? 'a module'} (token ${p.first.token}) and ${second ?? 'another module'} (token ${p.second.token}), as two instances, so ${why}; provide it in one module and export that module to share it`;
  },
  duplicate_tool: (p) =>
    `tool "${p.tool}" is declared by both ${p.first} and ${p.second}; tool names are unique per application, so rename one with @Tool({ name: '...' }) and run scope-tool generate`,
  policy_not_provided: (p) =>
    `the policy ${p.policy} of ${p.of} is not a provider of any module; add it (an @Injectable() class) to the providers of ${p.shared ? 'any module of the application' : "the toolset's module, or of any other module"}: policies are resolved from every module`,
  not_a_provider: (p) =>
    `the toolset ${withModule(p.cls, p.module)} is ${USES[p.use]}, and ScopeToolModule registers toolsets from providers only; add ${p.cls} to the providers of ${p.module ?? 'its module'}${p.use === 'controller' ? ' instead (a controller may inject it from there)' : ' (the enhancer stays an instance of its own, built by Nest)'}`,
  feature_not_toolset: (p) =>
    `${p.cls} is listed in ScopeToolModule.forFeature() but is not a toolset; decorate it with @Toolset() or remove it from the list`,
  feature_not_provided: (p) =>
    `${p.cls} is listed in ScopeToolModule.forFeature() but no module provides it; add it to the providers of the feature module`,
  bad_feature_list: (p) =>
    p.item === undefined
      ? 'pass an array of @Toolset() classes, for example forFeature([NotesTools])'
      : `item ${p.item} is not a class; pass @Toolset() classes`,
  bad_options: (p) =>
    p.option === 'options'
      ? `the options are ${p.value}; pass an object: { manifest, discover?, policies?, timeoutMs? }`
      : `options.discover is ${p.value}; use 'all' (every @Toolset() provider, the default) or 'features' (only the classes listed by ScopeToolModule.forFeature())`,
  bad_async_options: (p) => asyncDetail(p),
  not_an_options_factory: (p) =>
    `the options factory ${p.token} of forRootAsync({ ${p.how}: ${p.token} }) is ${p.value}, which has no createScopeToolOptions() method; implement ScopeToolOptionsFactory`,
  options_request_scoped: (p) =>
    `the options of ScopeToolModule.forRootAsync() are request-scoped (${p.how === 'useFactory' ? 'its useFactory injects' : `its options factory ${p.factory ?? ''} (${p.how}) is or depends on`} a request-scoped provider), and toolsets are registered once, at start-up, outside any request; make ${p.how === 'useFactory' ? 'what useFactory injects' : (p.factory ?? 'the options factory')} ${DEFAULT_SCOPED}, and read per-request data from CallOptions.context`,
  root_imported_twice: (p) => {
    const distinct = [...new Set(p.importers)];
    const by =
      p.importers.length < 2
        ? ''
        : distinct.length === 1
          ? `, ${p.importers.length} times by ${distinct[0]}`
          : `, by ${p.importers.slice(0, -1).join(', ')} and by ${p.importers[p.importers.length - 1]}`;
    return `ScopeToolModule.forRoot() (or forRootAsync()) is imported more than once${by}, which would make one ToolRegistry per import; import it once, in the root module, and list a feature module's toolsets with ScopeToolModule.forFeature()`;
  },
  registry_not_ready: (p) =>
    `ToolRegistry.${p.method}() was called before ScopeToolModule filled the registry, in its onModuleInit (app.init(), NestFactory.create*(), or moduleRef.init() after compile()); a constructor runs before it, and so does the onModuleInit of a @Global() module that Nest reaches before ScopeToolModule: import ScopeToolModule.forRoot() first in the root module's imports, or read the registry in onApplicationBootstrap`,
  registry_sealed: () =>
    'ToolRegistry is sealed: it holds the tools of the discovered @Toolset() providers, checked against the manifest and guarded by their policies; declare the tool in a @Toolset() provider and run scope-tool generate, or keep other tools in a Registry of their own (new Registry(...))',
  build_failed: (p) => p.detail,
  start_up_failed: (p) => `start-up failed: ${p.detail}`,
};

/** The method whose arguments a rule checks, when the problem is found at the call, not at start-up. */
const CALLER: Partial<Record<Rule, string>> = {
  bad_feature_list: 'ScopeToolModule.forFeature()',
  bad_async_options: 'ScopeToolModule.forRootAsync()',
};

/**
 * A problem ScopeToolModule found: at start-up (`onModuleInit`), when Nest builds its options, or
 * when forFeature() / forRootAsync() are called. `code` is ERR_DUPLICATE_TOOL for `duplicate_tool`,
 * ERR_INVALID_REGISTRY for `registry_not_ready` and `registry_sealed`, the container error's own
 * code for `build_failed`, and ERR_INVALID_TOOL otherwise. The message (after the code's text) starts
 * `ScopeToolModule: ` (`ScopeToolModule.forFeature(): `, `ScopeToolModule.forRootAsync(): ` for
 * argument checks).
 */
export class ScopeToolModuleError extends ToolError {
  /** What was wrong, and where: match on `problem.rule`, never on the message. */
  readonly problem: NestProblem;

  constructor(problem: NestProblem, options: { code?: ToolErrorCode; cause?: unknown } = {}) {
    const render = RENDER[problem.rule] as (p: NestProblem) => string;
    super(options.code ?? codeOf(problem.rule), `${CALLER[problem.rule] ?? 'ScopeToolModule'}: ${render(problem)}`, {
      cause: options.cause,
    });
    this.name = 'ScopeToolModuleError';
    this.problem = Object.freeze(problem);
  }
}

function codeOf(rule: Rule): ToolErrorCode {
  if (rule === 'duplicate_tool') return 'ERR_DUPLICATE_TOOL';
  if (rule === 'registry_not_ready' || rule === 'registry_sealed') return 'ERR_INVALID_REGISTRY';
  return 'ERR_INVALID_TOOL';
}

/** How messages name an injection token: a class by its name, a string quoted, a symbol as `Symbol(name)`. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '(anonymous class)';
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}

/** How messages describe a value: `undefined`, `a string`, `a plain object`, `an instance of Clock`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const cls = (value as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object
    ? `an instance of ${cls.name || '(anonymous class)'}`
    : 'a plain object';
}

/**
 * What fails start-up: a ScopeToolModuleError as it is; a container error (manifest, DTO, binding)
 * as `build_failed`, with its own code and as the cause; anything else as `start_up_failed`.
 */
export function startUpFailed(error: unknown, building: boolean): ScopeToolModuleError {
  if (error instanceof ScopeToolModuleError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (building && error instanceof ToolError) {
    const base = `${new ToolError(error.code).message}: `;
    return new ScopeToolModuleError(
      { rule: 'build_failed', detail: detail.startsWith(base) ? detail.slice(base.length) : detail },
      { code: error.code, cause: error },
    );
  }
  return new ScopeToolModuleError({ rule: 'start_up_failed', detail }, { cause: error });
}
