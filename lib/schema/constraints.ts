import ts from 'typescript';
import { ruleOf, UUID_PATTERNS } from './catalogue';
import { hasEach, literalValue, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import { checkDate, checkMatrix, checkNested, checkOptions, exposeName, numberArg, typeText } from './member-checks';
import { addNot, applyEnum, applyMatches, addPattern, escapePattern } from './value-rules';
import { arrayItems, dropNull, jsonTypes, mapTypes, type RefResolver } from './schema-types';

/**
 * Merges the class-validator decorators of one DTO member into its JSON Schema fragment (DESIGN.md
 * section 4 rules 3, 8-10 and section 5), following the decorator catalogue (catalogue.ts). Each
 * decorator only narrows the TypeScript type. A check JSON Schema cannot express is a warning naming
 * the member; a contradiction fails, naming the member and the fix. Messages carry the decorator's
 * node, so their location is the decorator's line.
 * @internal
 */
export interface MemberContext {
  /** `Class.member`, the prefix of every message. */
  readonly where: string;
  /** The member's fragment inside `properties` (edited in place). */
  readonly schema: SchemaObject;
  /** The member's TypeScript type. */
  readonly type: ts.Type;
  readonly decorators: readonly DecoratorUse[];
  readonly checker: ts.TypeChecker;
  readonly resolve: RefResolver;
  readonly warn: (message: string, node?: ts.Node) => void;
  readonly fail: (message: string, node?: ts.Node) => void;
}

/** What the merge learned about the member beyond its fragment. @internal */
export interface MemberFacts {
  /** `@IsOptional()` was present. */
  readonly optional: boolean;
  /** `@Expose({ name })` gave this wire name. */
  readonly wireName: string | undefined;
}

const TYPE_CHECKS: Record<string, readonly string[]> = {
  IsString: ['string'],
  IsNumber: ['number', 'integer'],
  IsInt: ['number', 'integer'],
  IsBoolean: ['boolean'],
};

/** Decoder-only string checks whose schema still says the nearest format. */
const NEAREST_FORMAT: Record<string, string> = { IsEmail: 'email', IsUrl: 'uri', IsISO8601: 'date-time', IsDateString: 'date-time' };

/** The shape validator.js isRFC3339 accepts (T, t or space; offset Z, z or +hh:mm); format date-time checks the ranges. */
export const RFC3339_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

const NUMBER_KEYWORDS: Record<string, string> = {
  Min: 'minimum',
  Max: 'maximum',
  MinLength: 'minLength',
  MaxLength: 'maxLength',
  ArrayMinSize: 'minItems',
  ArrayMaxSize: 'maxItems',
};

/** Applies every decorator of one member. @internal */
export function mergeMember(ctx: MemberContext): MemberFacts {
  let optional = false;
  let wireName: string | undefined;
  const names = new Set(ctx.decorators.map((d) => d.name));
  if (!checkMatrix(ctx, names)) return { optional, wireName };
  let nullItems = true;
  for (const use of ctx.decorators) {
    if (!checkOptions(use, ctx)) continue;
    if (use.name === 'IsOptional') optional = true;
    if (use.name === 'Expose') wireName = exposeName(use, ctx) ?? wireName;
    let target = ctx.schema;
    if (hasEach(use, ctx.checker)) {
      const items = arrayItems(ctx.schema);
      if (items === undefined) {
        ctx.fail(`${ctx.where}: @${use.name}({ each: true }) needs an array member; remove each or make the member an array`, use.node);
        continue;
      }
      target = items;
      if (refusesNull(use, ctx)) nullItems = false;
    }
    applyOne(use, target, ctx, names);
  }
  // class-validator runs an each: true constraint on every item, null included, and almost every
  // constraint refuses null: the items' schema says so too (the decorator narrows the type).
  const items = nullItems ? undefined : arrayItems(ctx.schema);
  if (items !== undefined) dropNull(items);
  return { optional, wireName };
}

/** Decorators whose `each: true` check passes a null item (or that check nothing). */
const NULL_PASSING = new Set(['Allow', 'IsOptional', 'ValidateIf', 'IsEmpty', 'Validate', 'ValidateBy', 'Type', 'Expose']);

/**
 * Whether an `each: true` decorator refuses a null item: every class-validator check does, except
 * the ones that pass null (`@IsEmpty`, `@Equals(null)`, `@IsIn([... null])`, `@NotEquals(x)`,
 * `@IsNotIn([...])` without null) or check nothing; a custom or unknown one is left as the type says.
 */
function refusesNull(use: DecoratorUse, ctx: MemberContext): boolean {
  if (ruleOf(use.name) === undefined || NULL_PASSING.has(use.name)) return false;
  const arg = use.args[0];
  const value = arg === undefined ? undefined : literalValue(arg, ctx.checker);
  const holdsNull = value === null || (Array.isArray(value) && value.includes(null));
  switch (use.name) {
    case 'Equals':
    case 'IsIn':
      return !holdsNull;
    case 'NotEquals':
    case 'IsNotIn':
      return holdsNull;
    default:
      return true;
  }
}

function applyOne(use: DecoratorUse, target: SchemaObject, ctx: MemberContext, names: Set<string>): void {
  const { name } = use;
  const rule = ruleOf(name);
  if (rule === undefined) {
    if (use.declaredIn !== undefined && /[\\/]node_modules[\\/]/.test(use.declaredIn) && !/[\\/]class-validator[\\/]/.test(use.declaredIn)) return;
    ctx.warn(`${ctx.where}: @${name} is not a class-validator decorator the generator knows; if it validates, the decoder alone checks it`, use.node);
    return;
  }
  switch (rule.kind) {
    case 'refused':
      ctx.fail(`${ctx.where}: @${name} is not allowed on a tool input: ${rule.fix}`, use.node);
      return;
    case 'decoder-only': {
      const format = NEAREST_FORMAT[name];
      if (format !== undefined) target['format'] = format;
      ctx.warn(`${ctx.where}: @${name} is checked by the decoder only (${rule.why})`, use.node);
      return;
    }
    case 'pattern':
      if (hasOptionsArgument(use)) {
        ctx.warn(`${ctx.where}: @${name} with options is checked by the decoder only (the schema states its default pattern)`, use.node);
      }
      addPattern(target, rule.pattern);
      return;
    case 'enum':
      target['enum'] = [...rule.values];
      return;
    case 'structural':
    case 'schema':
      return applySchema(use, target, ctx, names);
  }
}

function hasOptionsArgument(use: DecoratorUse): boolean {
  return use.args.some((a) => !ts.isObjectLiteralExpression(a) || a.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && !VALIDATION_OPTION_KEYS.has(p.name.text)));
}

const VALIDATION_OPTION_KEYS = new Set(['each', 'message', 'groups', 'always', 'context']);

function applySchema(use: DecoratorUse, target: SchemaObject, ctx: MemberContext, names: Set<string>): void {
  const { name } = use;
  const allowed = TYPE_CHECKS[name];
  if (allowed !== undefined) {
    narrowType(use, target, allowed, ctx);
    if (name === 'IsNumber') numberOptions(use, ctx);
    return;
  }
  const keyword = NUMBER_KEYWORDS[name];
  if (keyword !== undefined) {
    const n = numberArg(use, 0, ctx);
    if (n !== undefined) tighten(target, keyword, n);
    return;
  }
  switch (name) {
    case 'Length': {
      const min = numberArg(use, 0, ctx);
      if (min !== undefined) tighten(target, 'minLength', min);
      const maxArg = use.args[1];
      if (maxArg !== undefined && !ts.isObjectLiteralExpression(maxArg)) {
        const max = numberArg(use, 1, ctx);
        if (max !== undefined) tighten(target, 'maxLength', max);
      }
      return;
    }
    case 'IsPositive':
      target['exclusiveMinimum'] = 0;
      return;
    case 'IsNegative':
      target['exclusiveMaximum'] = 0;
      return;
    case 'IsDivisibleBy': {
      const n = numberArg(use, 0, ctx);
      if (n === undefined) return;
      if (!Number.isInteger(n) || n === 0) {
        ctx.fail(`${ctx.where}: @IsDivisibleBy(${n}) divides by parseInt(${n}) in validator.js; use a non-zero integer divisor`, use.node);
        return;
      }
      // Two divisors (or a JSDoc @multipleOf) both hold: their least common multiple, for integers.
      const old = target['multipleOf'];
      target['multipleOf'] = typeof old === 'number' && Number.isInteger(old) ? lcm(Math.abs(old), Math.abs(n)) : n;
      if (typeof old === 'number' && !Number.isInteger(old)) target['allOf'] = [...(Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : []), { multipleOf: old }];
      return;
    }
    case 'ArrayNotEmpty':
      target['minItems'] = Math.max(1, typeof target['minItems'] === 'number' ? target['minItems'] : 0);
      return;
    case 'ArrayUnique':
      target['uniqueItems'] = true;
      if (use.args.some((a) => !ts.isObjectLiteralExpression(a))) {
        ctx.warn(`${ctx.where}: @ArrayUnique with a selector is checked by the decoder only (the schema says uniqueItems)`, use.node);
      }
      return;
    case 'ArrayContains':
    case 'ArrayNotContains':
      return arrayValues(use, target, ctx);
    case 'IsNotEmpty':
      if (jsonTypes(target, ctx.resolve).has('string')) target['minLength'] = Math.max(1, Number(target['minLength'] ?? 0));
      return;
    case 'IsEmpty':
      if (!jsonTypes(target, ctx.resolve).has('string')) {
        ctx.fail(`${ctx.where}: @IsEmpty() on a ${typeText(ctx)} member accepts no value the type allows; remove the member or declare it as a string`, use.node);
        return;
      }
      target['maxLength'] = 0;
      return;
    case 'IsNotEmptyObject':
      target['minProperties'] = 1;
      if (use.args.some((a) => ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name !== undefined && p.name.getText() === 'nullable'))) {
        ctx.warn(`${ctx.where}: @IsNotEmptyObject({ nullable }) is checked by the decoder only (the schema says minProperties 1)`, use.node);
      }
      return;
    case 'Equals':
    case 'NotEquals': {
      const arg = use.args[0];
      const value = arg === undefined ? undefined : literalValue(arg, ctx.checker);
      if (value === undefined || (value !== null && typeof value === 'object')) {
        ctx.fail(`${ctx.where}: @${name} needs a string, number, boolean or null literal; write it inline`, use.node);
        return;
      }
      if (name === 'Equals') target['const'] = value;
      else addNot(target, { const: value });
      return;
    }
    case 'Contains':
    case 'NotContains': {
      const arg = use.args[0];
      const seed = arg === undefined ? undefined : literalValue(arg, ctx.checker);
      if (typeof seed !== 'string') {
        ctx.fail(`${ctx.where}: @${name} needs a string literal; write the seed inline`, use.node);
        return;
      }
      addPattern(target, name === 'Contains' ? escapePattern(seed) : `^(?![\\s\\S]*${escapePattern(seed)})`);
      return;
    }
    case 'IsUUID':
      return applyUuid(use, target, ctx);
    case 'IsRFC3339':
      // ajv-formats' date-time also takes any white space as separator and offsets without a colon
      // (+01, +0100), which validator.js isRFC3339 refuses: the pattern says its shape.
      target['format'] = 'date-time';
      addPattern(target, RFC3339_PATTERN);
      return;
    case 'IsEnum':
    case 'IsIn':
    case 'IsNotIn':
      return applyEnum(use, target, ctx);
    case 'Matches':
      return applyMatches(use, target, ctx);
    case 'IsDate':
      return checkDate(use, ctx, names);
    case 'ValidateNested':
    case 'IsInstance':
      return checkNested(use, ctx, names);
    case 'IsArray':
      if (!jsonTypes(ctx.schema, ctx.resolve).has('array')) {
        ctx.fail(`${ctx.where}: @IsArray() contradicts the TypeScript type ${typeText(ctx)}; declare the member as an array`, use.node);
      }
      return;
  }
}

/**
 * Sets a bound keyword; when one is already there (another decorator, a JSDoc tag), both hold, so
 * the tighter one is kept: the larger `min*`/`minimum`, the smaller `max*`/`maximum`.
 */
function tighten(target: SchemaObject, keyword: string, n: number): void {
  const old = target[keyword];
  target[keyword] = typeof old !== 'number' ? n : keyword.startsWith('min') ? Math.max(old, n) : Math.min(old, n);
}

function lcm(a: number, b: number): number {
  let [x, y] = [a, b];
  while (y !== 0) [x, y] = [y, x % y];
  return (a / x) * b;
}

function narrowType(use: DecoratorUse, target: SchemaObject, allowed: readonly string[], ctx: MemberContext): void {
  const types = jsonTypes(target, ctx.resolve);
  const overlap = [...types].some((t) => allowed.includes(t));
  if (!overlap) {
    ctx.fail(`${ctx.where}: @${use.name}() contradicts the TypeScript type ${typeText(ctx)}; change the type or the decorator`, use.node);
    return;
  }
  const keep = (t: string): string | undefined => (t === 'null' || allowed.includes(t) ? t : undefined);
  mapTypes(target, use.name === 'IsInt' ? (t) => (t === 'number' ? 'integer' : keep(t)) : keep);
}

function numberOptions(use: DecoratorUse, ctx: MemberContext): void {
  const first = use.args[0];
  const options = first === undefined ? undefined : literalValue(first, ctx.checker);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return;
  for (const key of ['allowNaN', 'allowInfinity']) {
    if (options[key] === true) {
      ctx.fail(`${ctx.where}: @IsNumber({ ${key}: true }) cannot be met: JSON numbers are always finite; remove ${key}`, use.node);
    }
  }
  if (options['maxDecimalPlaces'] !== undefined) {
    ctx.warn(`${ctx.where}: @IsNumber({ maxDecimalPlaces }) is checked by the decoder only (JSON Schema cannot count decimal places exactly)`, use.node);
  }
}

function applyUuid(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  let versions: unknown[] = ['all'];
  if (arg !== undefined && !ts.isObjectLiteralExpression(arg)) {
    const v = literalValue(arg, ctx.checker);
    versions = Array.isArray(v) ? v : [v];
  }
  const patterns = versions.map((v) => (typeof v === 'string' || typeof v === 'number' ? UUID_PATTERNS[String(v)] : undefined));
  if (patterns.some((p) => p === undefined) || patterns.length === 0) {
    ctx.fail(`${ctx.where}: @IsUUID version must be a literal among ${Object.keys(UUID_PATTERNS).join(', ')}; write it inline`, use.node);
    return;
  }
  const unique = [...new Set(patterns as string[])];
  if (unique.length === 1) addPattern(target, unique[0] as string);
  else addPattern(target, `^(?:${unique.map((p) => p.slice(1, -1)).join('|')})$`);
}

function arrayValues(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  const values = arg === undefined ? undefined : literalValue(arg, ctx.checker);
  if (!Array.isArray(values) || values.some((v) => v !== null && typeof v === 'object')) {
    ctx.fail(`${ctx.where}: @${use.name} needs an array literal of strings, numbers or booleans; write it inline`, use.node);
    return;
  }
  if (use.name === 'ArrayNotContains') {
    const items = (target['items'] ?? {}) as SchemaObject;
    addNot(items, { enum: values });
    target['items'] = items;
    return;
  }
  const all = Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : [];
  for (const v of values) all.push({ contains: { const: v } });
  target['allOf'] = all;
}
