import ts from 'typescript';
import { literalValue, type DecoratorUse, type LiteralValue } from './decorator-reader';
import type { MemberContext } from './constraints';
import type { SchemaObject } from './manifest';

/**
 * Value-list and pattern rules of the generator: `@IsEnum`, `@IsIn`, `@IsNotIn`, `@Matches` and the
 * helpers that add a pattern without losing one already there.
 * @internal
 */

/** Escapes a literal string for a u-flag pattern. @internal */
export function escapePattern(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`);
}

/** Sets `pattern`, or adds `allOf: [{ pattern }]` when one is already there (both must hold). @internal */
export function addPattern(target: SchemaObject, pattern: string): void {
  if (typeof target['pattern'] !== 'string') {
    target['pattern'] = pattern;
    return;
  }
  if (target['pattern'] === pattern) return;
  const all = Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : [];
  all.push({ pattern });
  target['allOf'] = all;
}

/**
 * Sets `not`, or widens the one already there to `not: { anyOf: [old, new] }` (neither may match):
 * one `not` keyword, which providers that drop `not` report once, where `allOf` would be refused.
 * @internal
 */
export function addNot(target: SchemaObject, not: SchemaObject): void {
  const old = target['not'];
  if (old === undefined) {
    target['not'] = not;
    return;
  }
  const branches = old !== null && typeof old === 'object' && Object.keys(old).length === 1 && Array.isArray((old as SchemaObject)['anyOf'])
    ? ((old as SchemaObject)['anyOf'] as unknown[])
    : [old];
  target['not'] = { anyOf: [...branches, not] };
}

/**
 * `@IsEnum(E)` and `@IsIn([...])` replace the fragment's type by the value list (numbers that are all
 * integers give `integer`: a numeric enum takes its numbers only, DESIGN.md section 4 rule 5);
 * `@IsNotIn([...])` adds `not: { enum }`.
 * @internal
 */
export function applyEnum(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  const values = arg === undefined ? undefined : enumValues(arg, use.name, ctx);
  if (values === undefined || values.length === 0) {
    const what = use.name === 'IsEnum' ? 'an enum' : 'an array literal of strings or numbers';
    ctx.fail(`${ctx.where}: @${use.name} needs ${what} as argument 1; write it inline`, use.node);
    return;
  }
  if (use.name === 'IsNotIn') {
    addNot(target, { enum: values });
    return;
  }
  const nullable = Array.isArray(target['type']) && (target['type'] as unknown[]).includes('null');
  const types = [...new Set(values.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : 'string')))];
  const merged = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
  const description = target['description'];
  const fallback = target['default'];
  for (const key of Object.keys(target)) delete target[key];
  if (description !== undefined) target['description'] = description;
  const all = nullable ? [...merged, 'null'] : merged;
  target['type'] = all.length === 1 ? all[0] : all;
  target['enum'] = nullable ? [...values, null] : values;
  if (fallback !== undefined) target['default'] = fallback;
}

function enumValues(arg: ts.Expression, name: string, ctx: MemberContext): (string | number)[] | undefined {
  if (name !== 'IsEnum') {
    const value = literalValue(arg, ctx.checker);
    if (!Array.isArray(value)) return undefined;
    return value.every((v): v is string | number => typeof v === 'string' || typeof v === 'number') ? value : undefined;
  }
  const symbol = ctx.checker.getSymbolAtLocation(arg);
  const target = symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? ctx.checker.getAliasedSymbol(symbol) : symbol;
  const decl = target?.declarations?.find(ts.isEnumDeclaration);
  if (decl !== undefined) {
    const out: (string | number)[] = [];
    for (const member of decl.members) {
      const v = ctx.checker.getConstantValue(member);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  const value = literalValue(arg, ctx.checker);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out = Object.values(value as Record<string, LiteralValue>);
  return out.every((v): v is string | number => typeof v === 'string' || typeof v === 'number') ? out : undefined;
}

/** `@Matches(/re/)` or `@Matches('re', 'u')`: a pattern, refusing flags JSON Schema lacks. @internal */
export function applyMatches(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  let source: string | undefined;
  let flags = '';
  if (arg !== undefined && ts.isRegularExpressionLiteral(arg)) {
    const text = arg.text;
    const slash = text.lastIndexOf('/');
    source = text.slice(1, slash);
    flags = text.slice(slash + 1);
  } else if (arg !== undefined) {
    const value = literalValue(arg, ctx.checker);
    if (typeof value === 'string') source = value;
    const second = use.args[1];
    if (second !== undefined && !ts.isObjectLiteralExpression(second)) {
      const modifiers = literalValue(second, ctx.checker);
      flags = typeof modifiers === 'string' ? modifiers : '?';
    }
  }
  if (source === undefined) {
    ctx.fail(`${ctx.where}: @Matches needs a regular expression or string literal; write the pattern inline`, use.node);
    return;
  }
  if (flags !== '' && flags !== 'u') {
    ctx.fail(
      `${ctx.where}: @Matches flags "${flags}" cannot be expressed in JSON Schema (patterns always use the u flag); ` +
        'remove the flags and spell the pattern out (for example [Aa] instead of the i flag)',
      use.node,
    );
    return;
  }
  try {
    new RegExp(source, 'u');
  } catch {
    ctx.fail(`${ctx.where}: @Matches pattern /${source}/ is not valid with the u flag; rewrite it as a Unicode pattern`, use.node);
    return;
  }
  addPattern(target, source);
}
