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

/** A toolset or policy provider that depends on the request (Scope.REQUEST, durable, or a request-scoped dependency). */
export function requestScoped(kind: 'toolset' | 'policy', place: string, via: string): ToolError {
  const fix =
    kind === 'toolset'
      ? 'make the toolset default-scoped (singleton) and read per-request data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call'
      : 'make the policy default-scoped (singleton) and read per-request data from CallOptions.context, which every call passes to authorize()';
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the ${kind} ${place} is request-scoped (${via}); tools are bound once at start-up, outside any request, so a request-scoped ${kind} has no instance to bind; ${fix}`,
  );
}

/** The same toolset class provided by two modules: its tools would be registered twice. */
export function providedTwice(kind: 'toolset' | 'policy', cls: Function, first: string, second: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${WHO}: the ${kind} ${cls.name} is provided by both ${first} and ${second}; provide it in one module and export that module to share it`,
  );
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
