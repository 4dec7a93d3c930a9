import type { Authorization, CallOptions } from 'scope-tool';

/** Who is calling: the sample passes this as `CallOptions.context` on every call. */
export interface Caller {
  user: string;
  scopes: readonly string[];
  /** Where the policies write each decision they take (the sample prints it). */
  audit?: string[];
}

function callerOf(options: CallOptions): Caller | undefined {
  const context = options.context as Partial<Caller> | undefined;
  return context && typeof context.user === 'string' && Array.isArray(context.scopes) ? (context as Caller) : undefined;
}

/** A policy that permits a call only when the caller holds `scope`. */
export function requireScope(scope: string) {
  return function requireScopePolicy(_authorization: Authorization, options: CallOptions): boolean {
    const caller = callerOf(options);
    const permitted = caller?.scopes.includes(scope) ?? false;
    caller?.audit?.push(`requireScope(${scope}): ${permitted ? 'permit' : 'refuse'} for ${caller.user}`);
    return permitted;
  };
}

/**
 * A policy that reads the admitted arguments: a caller may repeat a diagnostic at most `max` times
 * per call. It sees only the frozen definition and the admitted arguments, never the tool.
 */
export function maxRepetitions(max: number) {
  return function maxRepetitionsPolicy(authorization: Authorization, options: CallOptions): boolean {
    const args = JSON.parse(authorization.arguments) as { count?: number };
    const permitted = (args.count ?? 1) <= max;
    callerOf(options)?.audit?.push(
      `maxRepetitions(${max}): ${permitted ? 'permit' : 'refuse'} count=${args.count ?? 1}`,
    );
    return permitted;
  };
}
