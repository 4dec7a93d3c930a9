/**
 * ScopeToolModule's start-up errors, worded in one place. Each names the class, its module and the
 * fix; all are ToolError ERR_INVALID_TOOL (`tool: invalid tool: ScopeToolModule: ...`) except the
 * duplicate tool name, which is ERR_DUPLICATE_TOOL.
 * @internal
 */
import { ToolError } from '../protocol';

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
  const how = provider === undefined ? '' : ': no scope option, and no request-scoped provider injected, directly or not';
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
export function providedTwice(kind: 'toolset' | 'policy', cls: Function, first: ProviderSite, second: ProviderSite): ToolError {
  const name = cls.name || '(anonymous class)';
  const why = kind === 'toolset' ? 'its tools would be registered twice' : 'scope-tool would not know which one to ask';
  const [kept, other] = second.token === cls ? [second, first] : [first, second];
  const alias = `if you need both tokens, make one an alias of the other: { provide: ${tokenName(other.token)}, useExisting: ${tokenName(kept.token)} }`;
  const firstModule = first.moduleName ?? 'a module';
  const secondModule = second.moduleName === undefined ? 'another module' : second.moduleName === first.moduleName ? `another ${second.moduleName}` : second.moduleName;
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

/** An `@Authorize()` class (or a `policies` class) that no module provides. */
export function policyNotProvided(policy: Function, where: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the policy ${policy.name || '(anonymous class)'} of ${where} is not a provider of any module; add it (an @Injectable() class) to the providers of the toolset's module, or of a module it imports`,
  );
}

/** A class listed in forFeature() that is not a toolset or not provided. */
export function badFeature(cls: unknown, problem: 'not-a-toolset' | 'not-provided'): ToolError {
  const name = typeof cls === 'function' ? cls.name || '(anonymous class)' : String(cls);
  const detail =
    problem === 'not-a-toolset'
      ? `${name} is listed in ScopeToolModule.forFeature() but is not a toolset; decorate it with @Toolset() or remove it from the list`
      : `${name} is listed in ScopeToolModule.forFeature() but no module provides it; add it to the providers of the feature module`;
  return new ToolError('ERR_INVALID_TOOL', `${WHO}: ${detail}`);
}

/** The registry could not be built (manifest, DTO, binding): the container's error, with the module named. */
export function buildFailed(cause: unknown): ToolError {
  const detail = cause instanceof Error ? cause.message.replace(/^tool: [a-z ]+: /, '') : String(cause);
  const code = cause instanceof ToolError ? cause.code : 'ERR_INVALID_TOOL';
  return new ToolError(code, `${WHO}: ${detail}`, { cause });
}
