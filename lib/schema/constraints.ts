import ts from 'typescript';
import { ruleOf, UUID_PATTERNS } from './catalogue';
import { isOptionsArgument, literalValue, objectArgument, readOptions, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import {
  checkDate,
  checkMatrix,
  checkNested,
  checkOptions,
  checkShape,
  exposeName,
  numberArg,
  typeText,
} from './member-checks';
import { itemParts, kindsOf, nonNull, typeParts, type ValueKind } from './member-types';
import {
  addNot,
  applyEnum,
  applyEquals,
  applyMatches,
  addPattern,
  combineEnum,
  escapePattern,
  narrowTypes,
} from './value-rules';
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

/**
 * Where one decorator use applies: the member itself, or (with `each: true`) its array items. `parts`
 * are the TypeScript type's parts there (without `undefined`).
 * @internal
 */
export interface Slot {
  readonly parts: readonly ts.Type[];
  readonly each: boolean;
  /** The type as messages name it (`Size`, `string[]`; the item type with `each`). */
  readonly text: string;
}

/** What the merge learned about the member beyond its fragment. @internal */
export interface MemberFacts {
  /** `@IsOptional()` was present. */
  readonly optional: boolean;
  /** `@Expose({ name })` gave this wire name. */
  readonly wireName: string | undefined;
}

/** The type checks; which types they admit is APPLIES_TO's. */
const TYPE_CHECKS = new Set(['IsString', 'IsNumber', 'IsInt', 'IsBoolean', 'IsArray']);

/** Decoder-only string checks whose schema still says the nearest format. */
const NEAREST_FORMAT: Record<string, string> = {
  IsEmail: 'email',
  IsUrl: 'uri',
  IsISO8601: 'date-time',
  IsDateString: 'date-time',
};

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
  // A member refused for its shape still reports its @IsOptional(): without it the caller adds a
  // false "without @IsOptional() the decoder requires it" to the shape's errors.
  if (!checkMatrix(ctx, names) || !checkShape(ctx)) return { optional: names.has('IsOptional'), wireName };
  const memberParts = typeParts(ctx.type);
  const memberText = typeText(ctx);
  let nullItems = true;
  for (const use of ctx.decorators) {
    const options = readOptions(use, ctx.checker);
    if (!checkOptions(use, options, ctx)) continue;
    if (use.name === 'IsOptional') optional = true;
    if (use.name === 'Expose') wireName = exposeName(use, ctx) ?? wireName;
    let target = ctx.schema;
    let slot: Slot = { parts: memberParts, each: false, text: memberText };
    if (options.each) {
      const items = arrayItems(ctx.schema);
      const parts = itemParts(memberParts, ctx.checker);
      if (items === undefined || parts === undefined) {
        ctx.fail(
          `${ctx.where}: @${use.name}({ each: true }) needs an array member; remove each or make the member an array`,
          use.node,
        );
        continue;
      }
      target = items;
      slot = { parts, each: true, text: itemText(memberParts, ctx.checker) };
      if (refusesNull(use, ctx)) nullItems = false;
    }
    applyOne(use, target, slot, ctx, names);
  }
  // class-validator runs an each: true constraint on every item, null included, and almost every
  // constraint refuses null: the items' schema says so too (the decorator narrows the type).
  const items = nullItems ? undefined : arrayItems(ctx.schema);
  if (items !== undefined) dropNull(items);
  return { optional, wireName };
}

/** The item type of an array member as messages name it. */
function itemText(parts: readonly ts.Type[], checker: ts.TypeChecker): string {
  const arrays = parts.filter((t) => checker.isArrayType(t) || checker.isTupleType(t));
  return [
    ...new Set(
      arrays.flatMap((a) => checker.getTypeArguments(a as ts.TypeReference)).map((t) => checker.typeToString(t)),
    ),
  ].join(' | ');
}

/** Decorators whose `each: true` check passes a null item (or that check nothing). */
const NULL_PASSING = new Set([
  'Allow',
  'IsOptional',
  'ValidateIf',
  'IsEmpty',
  'Validate',
  'ValidateBy',
  'Type',
  'Expose',
]);

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

function applyOne(use: DecoratorUse, target: SchemaObject, slot: Slot, ctx: MemberContext, names: Set<string>): void {
  const { name } = use;
  const rule = ruleOf(name);
  if (rule === undefined) {
    if (
      use.declaredIn !== undefined &&
      /[\\/]node_modules[\\/]/.test(use.declaredIn) &&
      !/[\\/]class-validator[\\/]/.test(use.declaredIn)
    )
      return;
    ctx.warn(
      `${ctx.where}: @${name} is not a class-validator decorator the generator knows; if it validates, the decoder alone checks it`,
      use.node,
    );
    return;
  }
  if (rule.kind === 'refused') {
    ctx.fail(`${ctx.where}: @${name} is not allowed on a tool input: ${rule.fix}`, use.node);
    return;
  }
  if (!appliesToType(use, rule, target, slot, ctx)) return;
  switch (rule.kind) {
    case 'decoder-only': {
      const format = NEAREST_FORMAT[name];
      if (format !== undefined) target['format'] = format;
      ctx.warn(`${ctx.where}: @${name} is checked by the decoder only (${rule.why})`, use.node);
      return;
    }
    case 'pattern':
      if (hasOptionsArgument(use, ctx.checker)) {
        ctx.warn(
          `${ctx.where}: @${name} with options is checked by the decoder only (the schema states its default pattern)`,
          use.node,
        );
      }
      addPattern(target, rule.pattern);
      return;
    case 'enum':
      combineEnum(use, target, [...rule.values], slot, ctx);
      return;
    case 'structural':
    case 'schema':
      return applySchema(use, target, slot, ctx, names);
  }
}

/**
 * The kinds of value each type-specific class-validator decorator can pass: on any other value
 * (a number for `@MaxLength`, a string for `@Max`, a non-array for `@ArrayMaxSize`) class-validator
 * fails, while JSON Schema ignores a keyword meant for another type. Decorators not listed here
 * and not string checks by their catalogue kind apply to every value.
 */
const APPLIES_TO: Readonly<Record<string, readonly ValueKind[]>> = {
  IsString: ['string'],
  IsNumber: ['number'],
  IsInt: ['number'],
  IsBoolean: ['boolean'],
  IsArray: ['array'],
  Min: ['number'],
  Max: ['number'],
  IsPositive: ['number'],
  IsNegative: ['number'],
  IsDivisibleBy: ['number'],
  MinLength: ['string'],
  MaxLength: ['string'],
  Length: ['string'],
  Matches: ['string'],
  Contains: ['string'],
  NotContains: ['string'],
  IsUUID: ['string'],
  IsRFC3339: ['string'],
  ArrayMinSize: ['array'],
  ArrayMaxSize: ['array'],
  ArrayNotEmpty: ['array'],
  ArrayUnique: ['array'],
  ArrayContains: ['array'],
  ArrayNotContains: ['array'],
  IsNotEmptyObject: ['object'],
  MinDate: ['date'],
  MaxDate: ['date'],
  IsLatitude: ['number', 'string'],
  IsLongitude: ['number', 'string'],
};

/** Decoder-only decorators that check any value (custom and conditional ones). */
const ANY_VALUE = new Set(['Validate', 'ValidateBy', 'ValidateIf']);

/** The kinds of value a decorator can pass, or undefined when it takes any value. @internal */
export function appliesTo(name: string, kind: string): readonly ValueKind[] | undefined {
  const listed = APPLIES_TO[name];
  if (listed !== undefined) return listed;
  if (kind === 'pattern' || kind === 'enum' || (kind === 'decoder-only' && !ANY_VALUE.has(name))) return ['string'];
  return undefined;
}

const KIND_WORDS: Record<ValueKind, string> = {
  string: 'strings',
  number: 'numbers',
  boolean: 'booleans',
  array: 'arrays',
  object: 'objects',
  date: 'Date values',
  null: 'null',
  any: 'values',
};

/** The JSON Schema types of the values of a kind. */
const SCHEMA_TYPES: Record<ValueKind, readonly string[]> = {
  string: ['string'],
  number: ['number', 'integer'],
  boolean: ['boolean'],
  array: ['array'],
  object: ['object'],
  date: ['string'],
  null: ['null'],
  any: [],
};

/**
 * A decorator meant for one kind of value on a member whose TypeScript type has no value of that
 * kind fails generation: JSON Schema ignores the keyword on the other types, so the schema would
 * accept what the decoder refuses. Where the type has values of that kind and others (a union), the
 * schema is narrowed to that kind (the decorator narrows the type, as the decoder does); on an
 * `unknown` member the schema says that kind. Returns false after reporting.
 */
function appliesToType(
  use: DecoratorUse,
  rule: { readonly kind: string },
  target: SchemaObject,
  slot: Slot,
  ctx: MemberContext,
): boolean {
  const wanted = appliesTo(use.name, rule.kind);
  if (wanted === undefined) return true;
  const kinds = kindsOf(nonNull(slot.parts), ctx.checker);
  if (kinds.has('any')) {
    if (wanted.includes('date')) {
      ctx.fail(
        `${ctx.where}: @${use.name} checks Date values, but the member is ${slot.text}; declare it as Date with @IsDate() @Type(() => Date)`,
        use.node,
      );
      return false;
    }
    if (
      target['type'] === undefined &&
      target['$ref'] === undefined &&
      target['anyOf'] === undefined &&
      target['enum'] === undefined &&
      !('const' in target)
    ) {
      const types = [...new Set(wanted.flatMap((k) => SCHEMA_TYPES[k]).filter((t) => t !== 'integer'))];
      target['type'] = types.length === 1 ? types[0] : types;
    }
    return true;
  }
  const fitting = [...kinds].filter((k) => wanted.includes(k));
  if (fitting.length === 0) {
    ctx.fail(mismatchMessage(use, wanted, slot, ctx), use.node);
    return false;
  }
  if ([...kinds].some((k) => k !== 'null' && !wanted.includes(k))) {
    narrowTypes(target, new Set([...wanted.flatMap((k) => SCHEMA_TYPES[k]), 'null']), ctx.resolve);
  }
  return true;
}

function mismatchMessage(use: DecoratorUse, wanted: readonly ValueKind[], slot: Slot, ctx: MemberContext): string {
  const call = TYPE_CHECKS.has(use.name) ? `@${use.name}()` : `@${use.name}`;
  const typeText = slot.text;
  const items = slot.each ? undefined : itemParts(slot.parts, ctx.checker);
  const itemKinds = items === undefined ? undefined : kindsOf(nonNull(items), ctx.checker);
  if (itemKinds !== undefined && [...itemKinds].some((k) => wanted.includes(k) || k === 'any')) {
    return `${ctx.where}: ${call} checks ${KIND_WORDS[wanted[0] as ValueKind]}, but the member is an array (${typeText}); add { each: true } to check every item`;
  }
  if (TYPE_CHECKS.has(use.name)) {
    return use.name === 'IsArray'
      ? `${ctx.where}: @IsArray() contradicts the TypeScript type ${typeText}; declare the member as an array`
      : `${ctx.where}: ${call} contradicts the TypeScript type ${typeText}; change the type or the decorator`;
  }
  const kinds = kindsOf(nonNull(slot.parts), ctx.checker);
  let hint = `remove @${use.name} or declare the member as ${wanted.includes('date') ? 'Date' : `a ${wanted[0] === 'object' ? 'DTO class or Record' : wanted[0]}`}`;
  if (wanted[0] === 'string' && kinds.has('number'))
    hint = `for numbers use @Min / @Max instead, or declare the member as a string`;
  else if (wanted[0] === 'string' && kinds.has('date'))
    hint = `a Date member is decoded to a Date; use @MinDate / @MaxDate, or declare the member as a string`;
  else if ((wanted[0] === 'number' || wanted[0] === 'array') && kinds.has('string'))
    hint = `for string lengths use @MinLength / @MaxLength instead, or declare the member as ${wanted[0] === 'number' ? 'a number' : 'an array'}`;
  return (
    `${ctx.where}: @${use.name} checks ${wanted.map((k) => KIND_WORDS[k]).join(' and ')} only, but the member is ${typeText}: the decoder would refuse ` +
    `every value the schema accepts; ${hint}`
  );
}

function hasOptionsArgument(use: DecoratorUse, checker: ts.TypeChecker): boolean {
  return use.args.some((a) => {
    const object = objectArgument(a, checker);
    return object === undefined || [...object.keys()].some((k) => !VALIDATION_OPTION_KEYS.has(k));
  });
}

const VALIDATION_OPTION_KEYS = new Set(['each', 'message', 'groups', 'always', 'context']);

function applySchema(
  use: DecoratorUse,
  target: SchemaObject,
  slot: Slot,
  ctx: MemberContext,
  names: Set<string>,
): void {
  const { name } = use;
  if (TYPE_CHECKS.has(name)) {
    // appliesToType has narrowed the type to the decorator's; @IsInt also says integer.
    if (name === 'IsInt') mapTypes(target, (t) => (t === 'number' ? 'integer' : t));
    if (name === 'IsNumber') numberOptions(use, ctx);
    return;
  }
  const keyword = NUMBER_KEYWORDS[name];
  if (keyword !== undefined) {
    const n = numberArg(use, 0, ctx);
    if (n !== undefined && validBound(use, keyword, n, ctx)) tighten(target, keyword, n);
    return;
  }
  switch (name) {
    case 'IsDefined':
      // class-validator's isDefined refuses null (and @IsOptional() skips it for null): the member
      // no longer admits null, whatever its type says (`unknown`, `T | null`); lib/dto/structure.ts agrees.
      if (!slot.each && !names.has('IsOptional')) dropNull(target);
      return;
    case 'Length': {
      const min = numberArg(use, 0, ctx);
      if (min !== undefined && validBound(use, 'minLength', min, ctx)) tighten(target, 'minLength', min);
      const maxArg = use.args[1];
      if (maxArg !== undefined && !isOptionsArgument(maxArg, ctx.checker)) {
        const max = numberArg(use, 1, ctx);
        if (max !== undefined && validBound(use, 'maxLength', max, ctx)) tighten(target, 'maxLength', max);
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
        ctx.fail(
          `${ctx.where}: @IsDivisibleBy(${n}) divides by parseInt(${n}) in validator.js; use a non-zero integer divisor`,
          use.node,
        );
        return;
      }
      if (n < 0 || !Number.isSafeInteger(n)) {
        ctx.fail(
          `${ctx.where}: @IsDivisibleBy(${n}) cannot be said in JSON Schema (multipleOf must be a positive number); write @IsDivisibleBy(${Math.abs(n)}), which validator.js reads the same`,
          use.node,
        );
        return;
      }
      // Two divisors (or a JSDoc @multipleOf) both hold: their least common multiple, for integers.
      const old = target['multipleOf'];
      target['multipleOf'] = typeof old === 'number' && Number.isInteger(old) ? lcm(Math.abs(old), Math.abs(n)) : n;
      if (typeof old === 'number' && !Number.isInteger(old))
        target['allOf'] = [
          ...(Array.isArray(target['allOf']) ? (target['allOf'] as unknown[]) : []),
          { multipleOf: old },
        ];
      return;
    }
    case 'ArrayNotEmpty':
      target['minItems'] = Math.max(1, typeof target['minItems'] === 'number' ? target['minItems'] : 0);
      return;
    case 'ArrayUnique':
      target['uniqueItems'] = true;
      if (use.args.some((a) => !isOptionsArgument(a, ctx.checker))) {
        ctx.warn(
          `${ctx.where}: @ArrayUnique with a selector is checked by the decoder only (the schema says uniqueItems)`,
          use.node,
        );
      }
      return;
    case 'ArrayContains':
    case 'ArrayNotContains':
      return arrayValues(use, target, ctx);
    case 'IsNotEmpty':
      if (jsonTypes(target, ctx.resolve).has('string'))
        target['minLength'] = Math.max(1, Number(target['minLength'] ?? 0));
      return;
    case 'IsEmpty':
      if (!jsonTypes(target, ctx.resolve).has('string')) {
        ctx.fail(
          `${ctx.where}: @IsEmpty() on a ${typeText(ctx)} member accepts no value the type allows; remove the member or declare it as a string`,
          use.node,
        );
        return;
      }
      target['maxLength'] = 0;
      return;
    case 'IsNotEmptyObject':
      target['minProperties'] = 1;
      if (use.args.some((a) => objectArgument(a, ctx.checker)?.has('nullable') === true)) {
        ctx.warn(
          `${ctx.where}: @IsNotEmptyObject({ nullable }) is checked by the decoder only (the schema says minProperties 1)`,
          use.node,
        );
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
      if (name === 'Equals') applyEquals(use, target, value, slot, ctx);
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
      // NotContains: `not` a string holding the seed (RE2, which patterns run on, has no lookahead).
      if (name === 'Contains') addPattern(target, escapePattern(seed));
      else addNot(target, { type: 'string', pattern: escapePattern(seed) });
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
      return applyEnum(use, target, slot, ctx);
    case 'Matches':
      return applyMatches(use, target, ctx);
    case 'IsDate':
      return checkDate(use, ctx, names);
    case 'ValidateNested':
    case 'IsInstance':
      return checkNested(use, slot, ctx, names);
  }
}

/** Length and size bounds (`minLength`, `maxItems`, ...) are whole numbers of at least 0 in JSON Schema. */
const COUNT_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * A length or size bound must be a whole number of at least 0 (JSON Schema refuses the schema
 * otherwise, and validator.js would read a negative or fractional bound its own way). Returns false
 * after reporting.
 */
function validBound(use: DecoratorUse, keyword: string, n: number, ctx: MemberContext): boolean {
  if (!COUNT_KEYWORDS.has(keyword) || (Number.isSafeInteger(n) && n >= 0)) return true;
  const unit = keyword.endsWith('Items') ? 'items' : 'characters';
  ctx.fail(
    `${ctx.where}: @${use.name} bound ${n} is not a whole number of ${unit} (JSON Schema ${keyword} must be an integer of at least 0); write a whole number of at least 0`,
    use.node,
  );
  return false;
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

function numberOptions(use: DecoratorUse, ctx: MemberContext): void {
  const first = use.args[0];
  const options = first === undefined ? undefined : literalValue(first, ctx.checker);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return;
  for (const key of ['allowNaN', 'allowInfinity']) {
    if (options[key] === true) {
      ctx.fail(
        `${ctx.where}: @IsNumber({ ${key}: true }) cannot be met: JSON numbers are always finite; remove ${key}`,
        use.node,
      );
    }
  }
  if (options['maxDecimalPlaces'] !== undefined) {
    ctx.warn(
      `${ctx.where}: @IsNumber({ maxDecimalPlaces }) is checked by the decoder only (JSON Schema cannot count decimal places exactly)`,
      use.node,
    );
  }
}

function applyUuid(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  let versions: unknown[] = ['all'];
  if (arg !== undefined && !isOptionsArgument(arg, ctx.checker)) {
    const v = literalValue(arg, ctx.checker);
    versions = Array.isArray(v) ? v : [v];
  }
  const patterns = versions.map((v) =>
    typeof v === 'string' || typeof v === 'number' ? UUID_PATTERNS[String(v)] : undefined,
  );
  if (patterns.some((p) => p === undefined) || patterns.length === 0) {
    ctx.fail(
      `${ctx.where}: @IsUUID version must be a literal among ${Object.keys(UUID_PATTERNS).join(', ')}; write it inline`,
      use.node,
    );
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
    ctx.fail(
      `${ctx.where}: @${use.name} needs an array literal of strings, numbers or booleans; write it inline`,
      use.node,
    );
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
