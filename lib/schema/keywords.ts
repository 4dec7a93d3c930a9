import { RFC3339_PATTERN } from '../protocol/formats';
import { argValue, isOptionsArgument, literalValue, objectArgument, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import { hasDecorator, typeTextOf, type Apply, type MemberContext, type Slot } from './member-context';
import { SCHEMA_MESSAGES as M } from './messages';
import { dropNull, jsonTypes, mapTypes } from './schema-types';
import { escapePattern } from '../dto/contract-rules';
import { addNot, addPattern } from './value-rules';

/**
 * The keyword mappings of the decorator catalogue (lib/schema/catalogue.ts): each export is the
 * `apply` of one or more catalogue rows, editing the member's fragment in place (bounds, sizes,
 * divisors, uniqueness, seeds, UUID versions, RFC 3339). Value lists and patterns are
 * lib/schema/value-rules.ts's; member shapes (dates, nested DTOs) lib/schema/member-checks.ts's.
 * @internal
 */

/** A finite number literal argument, or undefined after reporting. */
function numberArg(use: DecoratorUse, index: number, ctx: MemberContext): number | undefined {
  const value = argValue(use, index, ctx.checker);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  ctx.fail(M.numberLiteralNeeded(ctx.where, use.name, index), use.node);
  return undefined;
}

/** Length and size bounds (`minLength`, `maxItems`, ...) are whole numbers of at least 0 in JSON Schema. */
const COUNT_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * Sets a bound keyword; when one is already there (another decorator, a JSDoc tag), both hold, so
 * the tighter one is kept: the larger `min*`/`minimum`, the smaller `max*`/`maximum`. A length or
 * size bound must be a whole number of at least 0 (JSON Schema refuses the schema otherwise, and
 * validator.js would read a negative or fractional bound its own way).
 */
function setBound(
  use: DecoratorUse,
  target: SchemaObject,
  slot: Slot,
  keyword: string,
  n: number,
  ctx: MemberContext,
): void {
  if (COUNT_KEYWORDS.has(keyword) && !(Number.isSafeInteger(n) && n >= 0)) {
    ctx.fail(M.boundNotCount(ctx.where, use.name, n, keyword), use.node);
    return;
  }
  const old = target[keyword];
  target[keyword] = typeof old !== 'number' ? n : keyword.startsWith('min') ? Math.max(old, n) : Math.min(old, n);
  if (target[keyword] !== n) mergedBound(slot, keyword, ctx);
}

/** Notes that the schema states `keyword` otherwise than the decorator does (MemberContext `merged`). */
function mergedBound(slot: Slot, keyword: string, ctx: MemberContext): void {
  ctx.merged?.(`${ctx.where}${slot.each ? '[]' : ''}.${keyword}`);
}

/** `@Min(n)` gives `minimum: n`, and so on: the first argument is the keyword's value. @internal */
export const bound =
  (keyword: string): Apply =>
  (use, target, slot, ctx) => {
    const n = numberArg(use, 0, ctx);
    if (n !== undefined) setBound(use, target, slot, keyword, n, ctx);
  };

/** `@Length(min, max?)`: `minLength` and, when given, `maxLength`. @internal */
export const length: Apply = (use, target, slot, ctx) => {
  bound('minLength')(use, target, slot, ctx);
  const maxArg = use.args[1];
  if (maxArg === undefined || isOptionsArgument(maxArg, ctx.checker)) return;
  const max = numberArg(use, 1, ctx);
  if (max !== undefined) setBound(use, target, slot, 'maxLength', max, ctx);
};

/** Keywords with a fixed value (`@IsPositive()` is `exclusiveMinimum: 0`). @internal */
export const fixed =
  (keywords: Readonly<SchemaObject>): Apply =>
  (_use, target) => {
    Object.assign(target, keywords);
  };

/** `@IsInt()` says `integer` where the type says `number` (the type is already narrowed to numbers). @internal */
export const integer: Apply = (_use, target) => {
  mapTypes(target, (t) => (t === 'number' ? 'integer' : t));
};

/** `@IsDefined()` refuses null (and `@IsOptional()` skips it for null): the member no longer admits null. @internal */
export const defined: Apply = (_use, target, slot, ctx) => {
  // lib/dto/structure.ts agrees, whatever the type says (`unknown`, `T | null`).
  if (!slot.each && !hasDecorator(ctx, 'IsOptional')) dropNull(target);
};

/** `@IsNumber(options)`: NaN and Infinity cannot be met; `maxDecimalPlaces` is the decoder's. @internal */
export const numberOptions: Apply = (use, _target, _slot, ctx) => {
  const options = argValue(use, 0, ctx.checker);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return;
  for (const key of ['allowNaN', 'allowInfinity'])
    if (options[key] === true) ctx.fail(M.numberNotFinite(ctx.where, key), use.node);
  if (options['maxDecimalPlaces'] !== undefined) {
    const why = 'JSON Schema cannot count decimal places exactly';
    ctx.warn(M.decoderOnly(ctx.where, use.name, '@IsNumber({ maxDecimalPlaces })', why), use.node);
  }
};

function lcm(a: number, b: number): number {
  let [x, y] = [a, b];
  while (y !== 0) [x, y] = [y, x % y];
  return (a / x) * b;
}

/** `@IsDivisibleBy(n)`: `multipleOf`, for a positive integer divisor (validator.js reads parseInt(n)). @internal */
export const divisible: Apply = (use, target, slot, ctx) => {
  const n = numberArg(use, 0, ctx);
  if (n === undefined) return;
  if (!Number.isInteger(n) || n === 0) return ctx.fail(M.divisorNotInteger(ctx.where, n), use.node);
  if (n < 0 || !Number.isSafeInteger(n)) return ctx.fail(M.divisorNegative(ctx.where, n), use.node);
  // Two divisors (or a JSDoc @multipleOf) both hold: their least common multiple, for integers.
  const old = target['multipleOf'];
  target['multipleOf'] = typeof old === 'number' && Number.isInteger(old) ? lcm(Math.abs(old), Math.abs(n)) : n;
  if (target['multipleOf'] !== n) mergedBound(slot, 'multipleOf', ctx);
  if (typeof old === 'number' && !Number.isInteger(old))
    target['allOf'] = [...(Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : []), { multipleOf: old }];
};

/** `@ArrayNotEmpty()`: `minItems` of at least 1. @internal */
export const notEmptyArray: Apply = (_use, target) => {
  target['minItems'] = Math.max(1, typeof target['minItems'] === 'number' ? target['minItems'] : 0);
};

/** `@ArrayUnique()`: `uniqueItems`; a selector function is the decoder's. @internal */
export const unique: Apply = (use, target, _slot, ctx) => {
  target['uniqueItems'] = true;
  if (use.args.some((a) => !isOptionsArgument(a, ctx.checker)))
    ctx.warn(
      M.decoderOnly(ctx.where, use.name, '@ArrayUnique with a selector', 'the schema says uniqueItems'),
      use.node,
    );
};

/** `@IsNotEmptyObject()`: `minProperties: 1`; its `nullable` option is the decoder's. @internal */
export const notEmptyObject: Apply = (use, target, _slot, ctx) => {
  target['minProperties'] = 1;
  if (use.args.some((a) => objectArgument(a, ctx.checker)?.has('nullable') === true))
    ctx.warn(
      M.decoderOnly(ctx.where, use.name, '@IsNotEmptyObject({ nullable })', 'the schema says minProperties 1'),
      use.node,
    );
};

/** `@IsNotEmpty()`: `minLength` of at least 1 on strings (null is refused anyway). @internal */
export const notEmpty: Apply = (_use, target, _slot, ctx) => {
  if (jsonTypes(target, ctx.resolve).has('string')) target['minLength'] = Math.max(1, Number(target['minLength'] ?? 0));
};

/** `@IsEmpty()`: `maxLength: 0`; on a member that holds no string it accepts nothing, refused. @internal */
export const empty: Apply = (use, target, _slot, ctx) => {
  if (jsonTypes(target, ctx.resolve).has('string')) target['maxLength'] = 0;
  else ctx.fail(M.emptyOnNonString(ctx.where, typeTextOf(ctx)), use.node);
};

/** `@Contains(seed)` is a pattern of the escaped seed; `@NotContains(seed)` a `not` of one (RE2 has no lookahead). @internal */
export const seed =
  (contains: boolean): Apply =>
  (use, target, _slot, ctx) => {
    const value = argValue(use, 0, ctx.checker);
    if (typeof value !== 'string') return ctx.fail(M.seedLiteralNeeded(ctx.where, use.name), use.node);
    if (contains) addPattern(target, escapePattern(value));
    else addNot(target, { type: 'string', pattern: escapePattern(value) });
  };

/** `@ArrayContains(values)`: `contains: { const }` per value; `@ArrayNotContains(values)`: `items: { not: { enum } }`. @internal */
export const arrayValues =
  (contains: boolean): Apply =>
  (use, target, _slot, ctx) => {
    const values = argValue(use, 0, ctx.checker);
    if (!Array.isArray(values) || values.some((v) => v !== null && typeof v === 'object'))
      return ctx.fail(M.arrayLiteralNeeded(ctx.where, use.name), use.node);
    if (!contains) {
      const items = (target['items'] ?? {}) as SchemaObject;
      addNot(items, { enum: values });
      target['items'] = items;
      return;
    }
    const all = Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : [];
    for (const v of values) all.push({ contains: { const: v } });
    target['allOf'] = all;
  };

/** validator.js isUUID patterns per version (13.15), case-insensitivity spelled out for the u flag. */
const HEX = '[0-9A-Fa-f]';
const uuidOf = (v: string): string => `^${HEX}{8}-${HEX}{4}-${v}${HEX}{3}-[89ABab]${HEX}{3}-${HEX}{12}$`;
const UUID_PATTERNS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8'].map((v) => [v, uuidOf(v)])),
  nil: '^00000000-0000-0000-0000-000000000000$',
  max: '^[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12}$',
  loose: `^${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}$`,
  all: `^(?:${HEX}{8}-${HEX}{4}-[1-8]${HEX}{3}-[89ABab]${HEX}{3}-${HEX}{12}|00000000-0000-0000-0000-000000000000|[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12})$`,
});

/** `@IsUUID(version?)`: the pattern of validator.js isUUID for the version(s). @internal */
export const uuid: Apply = (use, target, _slot, ctx) => {
  const arg = use.args[0];
  let versions: unknown[] = ['all'];
  if (arg !== undefined && !isOptionsArgument(arg, ctx.checker)) {
    const v = literalValue(arg, ctx.checker);
    versions = Array.isArray(v) ? v : [v];
  }
  const patterns = versions.map((v) =>
    typeof v === 'string' || typeof v === 'number' ? UUID_PATTERNS[String(v)] : undefined,
  );
  if (patterns.some((p) => p === undefined) || patterns.length === 0)
    return ctx.fail(M.uuidVersion(ctx.where, Object.keys(UUID_PATTERNS)), use.node);
  const unique = [...new Set(patterns as string[])];
  if (unique.length === 1) addPattern(target, unique[0] as string);
  else addPattern(target, `^(?:${unique.map((p) => p.slice(1, -1)).join('|')})$`);
};

/**
 * `@IsRFC3339()`: format date-time and the shape isRFC3339 takes. ajv-formats' date-time also takes
 * any white space as separator and offsets without a colon (+01, +0100), which isRFC3339 refuses.
 * @internal
 */
export const rfc3339: Apply = (_use, target) => {
  target['format'] = 'date-time';
  addPattern(target, RFC3339_PATTERN);
};
