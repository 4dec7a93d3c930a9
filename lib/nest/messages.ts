/**
 * ScopeToolModule's start-up errors, worded in one place. Each names the class, its module and the
 * fix; all are ToolError ERR_INVALID_TOOL (`tool: invalid tool: ScopeToolModule: ...`) except the
 * duplicate tool name, which is ERR_DUPLICATE_TOOL, and a ToolRegistry read before start-up, which
 * is ERR_INVALID_REGISTRY.
 * @internal
 */
import { ToolError } from '../protocol';
import { ERROR_MESSAGES } from '../protocol/errors';

const WHO = 'ScopeToolModule';

/** `NotesTools (NotesModule)`. */
export function placeOf(cls: Function, moduleName: string | undefined): string {
  return moduleName === undefined ? cls.name : `${cls.name} (${moduleName})`;
}

/** How messages name an injection token: a class by its name, a string quoted, a symbol as `Symbol(name)`. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '(anonymous class)';
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}

/**
 * A toolset or policy provider that depends on the request (Scope.REQUEST, durable, or a
 * request-scoped dependency). `provider`: the token, when the provider is not the class itself
 * (a factory provider, a class under another token), so the fix can name it.
 */
export function requestScoped(kind: 'toolset' | 'policy', place: string, via: string, provider?: string): ToolError {
  const what = provider === undefined ? `the ${kind}` : `the provider ${provider}`;
  const how =
    provider === undefined ? '' : ': no scope option, and no request-scoped provider injected, directly or not';
  const fix =
    kind === 'toolset'
      ? `make ${what} default-scoped (singleton${how}) and read per-request data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call`
      : `make ${what} default-scoped (singleton${how}) and read per-request data from CallOptions.context, which every call passes to authorize()`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the ${kind} ${place} is request-scoped (${via}); tools are bound once at start-up, outside any request, so a request-scoped ${kind} has no instance to bind; ${fix}`,
  );
}

/** Where one of two providers of a class is: its token and declaring module (`host`: the module itself, to tell two modules of one name apart). */
export interface ProviderSite {
  readonly token: unknown;
  readonly moduleName: string | undefined;
  readonly host: unknown;
}

/**
 * One toolset or policy class provided twice (two instances): a toolset's tools would be registered
 * twice, and a policy would have two instances to ask. Names both tokens and modules.
 */
export function providedTwice(
  kind: 'toolset' | 'policy',
  cls: Function,
  first: ProviderSite,
  second: ProviderSite,
): ToolError {
  const name = cls.name || '(anonymous class)';
  const why = kind === 'toolset' ? 'its tools would be registered twice' : 'scope-tool would not know which one to ask';
  const [kept, other] = second.token === cls ? [second, first] : [first, second];
  const alias = `if you need both tokens, make one an alias of the other: { provide: ${tokenName(other.token)}, useExisting: ${tokenName(kept.token)} }`;
  const firstModule = first.moduleName ?? 'a module';
  const secondModule =
    second.moduleName === undefined
      ? 'another module'
      : second.moduleName === first.moduleName
        ? `another ${second.moduleName}`
        : second.moduleName;
  const detail =
    first.host !== undefined && first.host === second.host
      ? `is provided twice in module ${firstModule} (tokens ${tokenName(first.token)} and ${tokenName(second.token)}), as two instances, so ${why}; provide it once, and ${alias}`
      : `is provided by both ${firstModule} (token ${tokenName(first.token)}) and ${secondModule} (token ${tokenName(second.token)}), as two instances, so ${why}; provide it in one module and export that module to share it`;
  return new ToolError('ERR_INVALID_TOOL', `${WHO}: the ${kind} ${name} ${detail}`);
}

/** Two toolsets declare one tool name. */
export function duplicateTool(name: string, first: string, second: string): ToolError {
  return new ToolError(
    'ERR_DUPLICATE_TOOL',
    `${WHO}: tool "${name}" is declared by both ${first} and ${second}; tool names are unique per application, so rename one with @Tool({ name: '...' }) and run scope-tool generate`,
  );
}

/**
 * An `@Authorize()` class (or a `policies` class) that no module provides. `shared`: it is one of
 * `forRoot({ policies })`, which belongs to no toolset.
 */
export function policyNotProvided(policy: Function, where: string, shared = false): ToolError {
  const name = policy.name || '(anonymous class)';
  const fix = shared
    ? 'add it (an @Injectable() class) to the providers of any module of the application: policies are resolved from every module'
    : "add it (an @Injectable() class) to the providers of the toolset's module, or of a module it imports";
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the policy ${name} of ${where} is not a provider of any module; ${fix} (a factory provider counts when its token is the class: { provide: ${name}, useFactory })`,
  );
}

/** How messages describe a provider's value that is not what its token promises. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const cls = (value as { constructor?: unknown }).constructor;
  return typeof cls === 'function' && cls !== Object
    ? `an instance of ${cls.name || '(anonymous class)'}`
    : 'a plain object';
}

/**
 * A provider whose token is a `@Toolset()` class but whose value is not a toolset instance (a test
 * override with a mock value, `useClass` of an undecorated subclass, a factory returning something
 * else). `place`: the token and module (`Clock (ClockModule)`). `valueClass`: the value's class, when it has one.
 */
export function notAToolsetValue(
  token: Function,
  place: string,
  value: string,
  valueClass: Function | undefined,
): ToolError {
  const name = token.name || '(anonymous class)';
  const detail =
    valueClass === undefined
      ? `its value is ${value}, not an instance of a @Toolset() class, so it has no tools to register; provide an instance of ${name}`
      : `its value is ${value}, and ${valueClass.name || '(anonymous class)'} is not a toolset; decorate ${valueClass.name || 'that class'} with @Toolset() (a subclass does not inherit it), or provide an instance of ${name}`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the provider ${place} has the toolset ${name} as its token, but ${detail}. In a test, replace what the toolset depends on, or spy on the methods of the real instance, rather than the toolset itself`,
  );
}

/**
 * With discover 'features': a provider whose token is a listed `@Toolset()` class but whose value's
 * class is another toolset, neither listed nor a subclass of a listed class (its tools would become
 * tools unlisted). `place`: the token and module (`Other (FeatureModule)`).
 */
export function notListedValue(token: Function, place: string, valueClass: Function): ToolError {
  const name = token.name || '(anonymous class)';
  const value = valueClass.name || '(anonymous class)';
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the provider ${place} has the toolset ${name}, which ScopeToolModule.forFeature() lists, as its token, but its value is an instance of ${value}, which is neither listed nor a subclass of a listed class; with discover: 'features' only the listed toolsets (or a decorated subclass of one, as an override) become tools, so list ${value} in forFeature() too, or provide an instance of ${name}`,
  );
}

/**
 * A policy class provided under its own token whose value is not an instance of it (a test
 * override with a mock value): the registry binds instances of the policy class.
 */
export function notAPolicyValue(policy: Function, where: string, place: string, value: string): ToolError {
  const name = policy.name || '(anonymous class)';
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the policy ${name} of ${where} is provided by ${place}, whose value is ${value}, not an instance of ${name}, and scope-tool asks instances of the policy class; provide an instance of ${name} or of a subclass (in a test: overrideProvider(${name}).useClass(Fake${name}) with class Fake${name} extends ${name})`,
  );
}

/** A `@Toolset()` class declared in a module's `controllers`: toolsets are providers. */
export function toolsetController(cls: Function, moduleName: string | undefined): ToolError {
  const name = cls.name || '(anonymous class)';
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the toolset ${placeOf(cls, moduleName)} is declared in the module's controllers, and ScopeToolModule registers toolsets from providers only; move it to the providers of ${moduleName ?? 'its module'} (a controller may inject it from there)`,
  );
}

/**
 * A transient toolset or policy provider (Scope.TRANSIENT, class or factory). `provider`: the token,
 * when the provider is not the class itself, so the fix can name it.
 */
export function transientRefused(kind: 'toolset' | 'policy', place: string, provider?: string): ToolError {
  const what = provider === undefined ? `the ${kind}` : `the provider ${provider}`;
  const verb = kind === 'toolset' ? 'call' : 'ask';
  const fix =
    kind === 'toolset'
      ? `make ${what} default-scoped (singleton: no scope option) and read per-call data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call`
      : `make ${what} default-scoped (singleton: no scope option) and read per-call data from CallOptions.context, which every call passes to authorize()`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the ${kind} ${place} is transient (Scope.TRANSIENT); ${kind === 'toolset' ? 'its tools are' : 'a policy is'} bound once, to one instance, for the registry's life, and a transient provider gives every consumer an instance of its own, so there is no one instance for the registry to ${verb}; ${fix}`,
  );
}

/** How messages name the decorators that make a class an enhancer of each subtype. */
const ENHANCER_KINDS: Readonly<Record<string, string>> = {
  guard: 'a guard',
  interceptor: 'an interceptor',
  pipe: 'a pipe',
  filter: 'an exception filter',
};

/**
 * A `@Toolset()` class that Nest builds only as an enhancer (named in `@UseGuards()` and the like,
 * in no module's providers): the enhancer instance is Nest's own, not a provider, so it would
 * silently not be a tool. `subtype`: Nest's enhancer subtype (guard, interceptor, pipe, filter).
 */
export function toolsetEnhancer(cls: Function, moduleName: string | undefined, subtype: string | undefined): ToolError {
  const name = cls.name || '(anonymous class)';
  const as = (subtype !== undefined && ENHANCER_KINDS[subtype]) || 'an enhancer';
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the toolset ${placeOf(cls, moduleName)} is used as ${as} (@UseGuards(), @UseInterceptors(), @UsePipes(), @UseFilters() or a parameter pipe) and is a provider of no module; Nest builds an enhancer of its own for it, which is not a provider, and ScopeToolModule registers toolsets from providers only; add ${name} to the providers of ${moduleName ?? 'its module'} (the enhancer stays a separate instance, Nest's own), or make the ${subtype ?? 'enhancer'} a class that is no @Toolset()`,
  );
}

/** `discover` (or the options object) is not one ScopeToolModule knows. */
export function badOptions(detail: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `${WHO}: ${detail}`);
}

/**
 * The options of forRootAsync() depend on the request: the module's start-up would never run, so
 * nothing would be registered. `source`: how forRootAsync builds them (`useFactory`, or the options
 * factory class of useClass / useExisting). `injected`: the request-scoped tokens it injects.
 */
export function optionsRequestScoped(
  source: { useFactory: true } | { how: 'useClass' | 'useExisting'; factory: string },
  injected: readonly string[],
): ToolError {
  const which =
    injected.length === 0
      ? 'directly or not, a request-scoped provider'
      : `a request-scoped provider (${injected.join(', ')})`;
  const because =
    'useFactory' in source
      ? `its useFactory injects ${which}`
      : `its options factory ${source.factory} (${source.how}) is request-scoped, or depends, directly or not, on a request-scoped provider`;
  const fix =
    'useFactory' in source
      ? 'inject only default-scoped providers into useFactory'
      : `make ${source.factory} default-scoped, injecting only default-scoped providers`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the options of ScopeToolModule.forRootAsync() are request-scoped, because ${because}; toolsets are registered once at start-up, outside any request, so the options must be resolvable at start-up: ${fix}, and read per-request data from CallOptions.context`,
  );
}

/** forRootAsync() called with arguments it cannot use: thrown by the call itself, when the module is declared. */
export function badAsyncOptions(detail: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `${WHO}.forRootAsync(): ${detail}`);
}

/** The options factory of forRootAsync({ useClass }) / ({ useExisting }) has no createScopeToolOptions() method. */
export function notAnOptionsFactory(how: 'useClass' | 'useExisting', token: string, value: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the options factory ${token} of forRootAsync({ ${how}: ${token} }) is ${value}, which has no createScopeToolOptions() method; implement ScopeToolOptionsFactory: createScopeToolOptions() returns the options ({ manifest, discover?, policies? }) or a promise of them`,
  );
}

/** ScopeToolModule.forRoot()/forRootAsync() imported more than once: two registries. `importers`: the importing modules, when known. */
export function rootImportedTwice(importers: readonly string[]): ToolError {
  const distinct = [...new Set(importers)];
  const by =
    importers.length < 2
      ? ''
      : distinct.length === 1
        ? `, ${importers.length} times by ${distinct[0]}`
        : `, by ${importers.slice(0, -1).join(', ')} and by ${importers[importers.length - 1]}`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: ScopeToolModule.forRoot() (or forRootAsync()) is imported more than once${by}, which would make one ToolRegistry per import, each with its own tools (app.get(ToolRegistry) returns only one of them); import it once, in the root module, and list a feature module's toolsets with ScopeToolModule.forFeature() (ToolRegistry is global by default)`,
  );
}

/**
 * ToolRegistry read before ScopeToolModule filled it: a TestingModule compiled but not init()ed, a
 * constructor, a failed start-up, or the onModuleInit of a provider of a global module that Nest
 * starts before ScopeToolModule (Nest runs the hooks of all global modules first, in the order it
 * found them, depth-first through the imports).
 */
export function registryNotReady(method: string): ToolError {
  return new ToolError(
    'ERR_INVALID_REGISTRY',
    `${WHO}: ToolRegistry.${method}() was called before ScopeToolModule filled the registry; it is filled when the application initializes (app.init(), NestFactory.create*(), or await moduleRef.init() after Test.createTestingModule(...).compile()), in ScopeToolModule's onModuleInit, and stays unusable if that start-up failed. A constructor runs before it, and so does the onModuleInit of a provider of a @Global() module that Nest reaches before ScopeToolModule (global modules start before all others, in the order Nest finds them, depth-first through the imports): import ScopeToolModule.forRoot() (or forRootAsync()) first in the root module's imports, or read the registry in onApplicationBootstrap`,
  );
}

/** ToolRegistry.register() called by anyone but ScopeToolModule's start-up. */
export function registrySealed(): ToolError {
  return new ToolError(
    'ERR_INVALID_REGISTRY',
    `${WHO}: ToolRegistry is sealed: it holds the tools of the discovered @Toolset() providers, checked against the manifest and guarded by the module's policies and their @Authorize() policies, and a tool registered by hand would skip all three; declare the tool in a @Toolset() provider and regenerate the manifest (scope-tool generate), or keep other tools in a Registry of their own (new Registry(...))`,
  );
}

/** A class listed in forFeature() that is not a toolset or not provided. */
export function badFeature(cls: unknown, problem: 'not-a-toolset' | 'not-provided'): ToolError {
  const name = typeof cls === 'function' ? cls.name || '(anonymous class)' : String(cls);
  const detail =
    problem === 'not-a-toolset'
      ? `${name} is listed in ScopeToolModule.forFeature() but is not a toolset; decorate it with @Toolset() or remove it from the list`
      : `${name} is listed in ScopeToolModule.forFeature() but no module provides it; add it to the providers of the feature module (a factory provider counts when its token is the class: { provide: ${name}, useFactory }, and must be default-scoped, as every toolset)`;
  return new ToolError('ERR_INVALID_TOOL', `${WHO}: ${detail}`);
}

/**
 * What fails ScopeToolModule's start-up: its own errors as they are (a ToolError whose message,
 * after the code's text, starts `ScopeToolModule:`), anything else (not expected) wrapped into one,
 * with the error as its cause.
 */
export function startUpFailed(error: unknown): ToolError {
  if (error instanceof ToolError && error.message.startsWith(`${ERROR_MESSAGES[error.code]}: ${WHO}: `)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ToolError('ERR_INVALID_TOOL', `${WHO}: start-up failed: ${detail}`, { cause: error });
}

/** The registry could not be built (manifest, DTO, binding): the container's error, with the module named. */
export function buildFailed(cause: unknown): ToolError {
  const code = cause instanceof ToolError ? cause.code : 'ERR_INVALID_TOOL';
  const base = `${ERROR_MESSAGES[code]}: `;
  const detail =
    cause instanceof Error
      ? cause instanceof ToolError && cause.message.startsWith(base)
        ? cause.message.slice(base.length)
        : cause.message
      : String(cause);
  return new ToolError(code, `${WHO}: ${detail}`, { cause });
}
