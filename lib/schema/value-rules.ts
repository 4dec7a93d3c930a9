import ts from 'typescript';
import { compilePattern, PatternSyntaxError } from '../protocol/regex';
import { argValue, literalValue, objectArgument, unaliased, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import type { Apply, MemberContext, Slot } from './member-context';
import { SCHEMA_MESSAGES as M } from './messages';
import { itemParts, typeHolds, type Literal } from './member-types';
import { isSchema, jsonTypes, setMembers, unions, type RefResolver } from './schema-types';

/**
 * Value-list and pattern rules of the generator: `@IsEnum`, `@IsIn`, `@IsNotIn`, `@Matches` and the
 * helpers that add a pattern without losing one already there.
 * @internal
 */

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
  const branches =
    old !== null &&
    typeof old === 'object' &&
    Object.keys(old).length === 1 &&
    Array.isArray((old as SchemaObject)['anyOf'])
      ? ((old as SchemaObject)['anyOf'] as unknown[])
      : [old];
  target['not'] = { anyOf: [...branches, not] };
}

/**
 * Narrows a fragment to the JSON types in `keep` (`null` stays only when listed): the `type`
 * keyword is filtered, `anyOf`/`oneOf` members with no kept type are dropped (one member left is
 * merged into the fragment), and `enum` values of dropped types go. A fragment whose types cannot
 * be read (a `$ref` alone) is left as it is.
 * @internal
 */
export function narrowTypes(schema: SchemaObject, keep: ReadonlySet<string>, resolve: RefResolver): void {
  const type = schema['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    const kept = [
      ...new Set(
        (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string' && keep.has(t)),
      ),
    ];
    if (kept.length > 0) schema['type'] = kept.length === 1 ? kept[0] : kept;
  }
  if (Array.isArray(schema['enum'])) {
    const kinds = (v: unknown): string[] =>
      v === null
        ? ['null']
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? ['integer', 'number']
            : ['number']
          : [Array.isArray(v) ? 'array' : typeof v];
    const kept = (schema['enum'] as unknown[]).filter((v) => kinds(v).some((k) => keep.has(k)));
    if (kept.length > 0) schema['enum'] = kept;
  }
  for (const [key, members] of unions(schema)) {
    const kept = members.filter((m) => {
      if (!isSchema(m)) return true;
      const types = jsonTypes(m, resolve);
      return types.size === 0 || [...types].some((t) => keep.has(t));
    });
    for (const m of kept) if (isSchema(m)) narrowTypes(m, keep, resolve);
    if (kept.length > 0) setMembers(schema, key, kept);
  }
}

/**
 * Refuses literal values the slot's TypeScript type cannot hold (`@IsIn([1, 2]) s!: string`), or that
 * only its items hold (each missing). Returns false after reporting.
 */
function valuesFitType(use: DecoratorUse, values: readonly Literal[], slot: Slot, ctx: MemberContext): boolean {
  const misfits = values.filter((v) => !typeHolds(slot.parts, v));
  if (misfits.length === 0) return true;
  const items = slot.each ? undefined : itemParts(slot.parts, ctx.checker);
  if (items !== undefined && values.every((v) => typeHolds(items, v))) {
    ctx.fail(M.eachMissing(ctx.where, use.name, `@${use.name}`, 'the whole value', slot.text), use.node);
    return false;
  }
  ctx.fail(M.valuesNotInType(ctx.where, use.name, values, misfits, slot.text), use.node);
  return false;
}

/** The `X` of an `Object.values(X)` argument (an identifier or a dotted name), or undefined. */
function objectValuesOf(arg: ts.Expression): string | undefined {
  if (!ts.isCallExpression(arg) || arg.arguments.length !== 1) return undefined;
  const callee = arg.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'values') return undefined;
  if (!ts.isIdentifier(callee.expression) || callee.expression.text !== 'Object') return undefined;
  const entity = arg.arguments[0] as ts.Expression;
  return ts.isIdentifier(entity) || ts.isPropertyAccessExpression(entity) ? entity.getText() : undefined;
}

/**
 * `@IsEnum(E)`, `@IsIn([...])` and `@IsNotIn([...])` as their catalogue rows say; the `type` keeps only
 * the types that have a value, and all-integer numbers give `integer` (docs/architecture.md section 4
 * rule 5). @internal
 */
export const applyEnum: Apply = (use, target, slot, ctx) => {
  const arg = use.args[0];
  const values = arg === undefined ? undefined : enumValues(arg, use.name, ctx);
  if (values === undefined || values.length === 0) {
    const entity = use.name === 'IsIn' && arg !== undefined ? objectValuesOf(arg) : undefined;
    const issue = entity !== undefined ? M.objectValuesList(ctx.where, entity) : M.valueListNeeded(ctx.where, use.name);
    ctx.fail(issue, use.node);
    return;
  }
  if (use.name === 'IsNotIn') {
    addNot(target, { enum: values });
    return;
  }
  if (!valuesFitType(use, values, slot, ctx)) return;
  combineEnum(use, target, values, slot, ctx);
};

/** Adds a value list to a fragment, keeping what is there (see applyEnum). @internal */
export function combineEnum(
  use: DecoratorUse,
  target: SchemaObject,
  values: readonly (string | number | null)[],
  slot: Slot,
  ctx: MemberContext,
): void {
  let list = [...new Set(values)];
  const prior = Array.isArray(target['enum']) ? (target['enum'] as unknown[]) : undefined;
  if (prior !== undefined) list = list.filter((v) => prior.includes(v));
  if ('const' in target) list = list.filter((v) => v === target['const']);
  if (list.length === 0) {
    const before = prior !== undefined ? M.valueText(prior.filter((v) => v !== null)) : JSON.stringify(target['const']);
    ctx.fail(M.listsDisjoint(ctx.where, use.name, before), use.node);
    return;
  }
  const nullable = slot.parts.some((t) => (t.flags & ts.TypeFlags.Null) !== 0) || list.includes(null);
  list = list.filter((v) => v !== null);
  target['enum'] = nullable ? [...list, null] : list;
  const numbers = list.filter((v): v is number => typeof v === 'number');
  const keep = new Set<string>(nullable ? ['null'] : []);
  if (list.some((v) => typeof v === 'string')) keep.add('string');
  if (numbers.length > 0)
    for (const t of numbers.every(Number.isInteger) ? ['integer'] : ['number', 'integer']) keep.add(t);
  const type = target['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    const kept = (Array.isArray(type) ? (type as string[]) : [type])
      .map((t) => (t === 'number' && numbers.length > 0 && numbers.every(Number.isInteger) ? 'integer' : t))
      .filter((t) => keep.has(t));
    const unique = [...new Set(kept)];
    if (unique.length > 0) target['type'] = unique.length === 1 ? unique[0] : unique;
  } else if (target['$ref'] === undefined && target['anyOf'] === undefined && target['oneOf'] === undefined) {
    const all = [...keep].filter((t) => !(t === 'integer' && keep.has('number')));
    const ordered = [...all.filter((t) => t !== 'null'), ...all.filter((t) => t === 'null')];
    target['type'] = ordered.length === 1 ? ordered[0] : ordered;
  }
}

/** The literal argument of `@Equals` / `@NotEquals`, or undefined after reporting. */
function equalsValue(use: DecoratorUse, ctx: MemberContext): Literal | undefined {
  const value = argValue(use, 0, ctx.checker);
  if (value !== undefined && (value === null || typeof value !== 'object')) return value;
  ctx.fail(M.literalNeeded(ctx.where, use.name), use.node);
  return undefined;
}

/** `@Equals(value)` is `const`, as its catalogue row says. @internal */
export const equals: Apply = (use, target, slot, ctx) => {
  const value = equalsValue(use, ctx);
  if (value === undefined || !valuesFitType(use, [value], slot, ctx)) return;
  const prior = target['enum'];
  if ((Array.isArray(prior) && !prior.includes(value)) || ('const' in target && target['const'] !== value)) {
    const before = Array.isArray(prior) ? M.valueText(prior) : JSON.stringify(target['const']);
    ctx.fail(M.equalsNotAllowed(ctx.where, value, before), use.node);
    return;
  }
  target['const'] = value;
};

/** `@NotEquals(value)` is `not: { const }`. @internal */
export const notEquals: Apply = (use, target, _slot, ctx) => {
  const value = equalsValue(use, ctx);
  if (value !== undefined) addNot(target, { const: value });
};

function enumValues(arg: ts.Expression, name: string, ctx: MemberContext): (string | number | null)[] | undefined {
  if (name !== 'IsEnum') {
    const value = literalValue(arg, ctx.checker);
    if (!Array.isArray(value)) return undefined;
    // @IsIn / @IsNotIn lists may hold null (class-validator compares with ===).
    return value.every((v): v is string | number | null => v === null || typeof v === 'string' || typeof v === 'number')
      ? value
      : undefined;
  }
  const decl = unaliased(ctx.checker.getSymbolAtLocation(arg), ctx.checker)?.declarations?.find(ts.isEnumDeclaration);
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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    // A const object (`const Color = { Red: 'red' } as const; @IsEnum(Color)`): class-validator takes its values.
    const object = objectArgument(arg, ctx.checker);
    if (object === undefined) return undefined;
    const values = [...object.values()];
    return values.every((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      ? values
      : undefined;
  }
  const out = Object.values(value);
  return out.every((v): v is string | number => typeof v === 'string' || typeof v === 'number') ? out : undefined;
}

/**
 * `@Matches(/re/)` or `@Matches('re', 'u')`: a pattern, as its catalogue row says (both sides run it
 * on RE2, lib/protocol/regex.ts). @internal
 */
export const applyMatches: Apply = (use, target, _slot, ctx) => {
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
    ctx.fail(M.patternLiteralNeeded(ctx.where), use.node);
    return;
  }
  if (flags !== '' && flags !== 'u') {
    ctx.fail(M.patternFlags(ctx.where, flags), use.node);
    return;
  }
  try {
    compilePattern(source);
  } catch (e) {
    if (!(e instanceof PatternSyntaxError)) throw e;
    ctx.fail(M.patternNotRe2(ctx.where, e.message), use.node);
    return;
  }
  addPattern(target, source);
};
