import {
  arrayValues,
  bound,
  defined,
  divisible,
  empty,
  fixed,
  integer,
  length,
  notEmpty,
  notEmptyArray,
  notEmptyObject,
  numberOptions,
  rfc3339,
  seed,
  unique,
  uuid,
} from './keywords';
import type { Apply } from './member-context';
import { SCHEMA_MESSAGES as M } from './messages';
import { checkDate, checkNested } from './member-checks';
import type { ValueKind } from './member-types';
import { addPattern, applyEnum, applyMatches, combineEnum, equals, notEquals } from './value-rules';
import { hasOptionsArgument } from './decorator-reader';

/**
 * The decorator catalogue: what the generator does with every decorator class-validator 0.15 exports
 * (and the class-transformer decorators a DTO uses), one row per decorator, and the row is the
 * behavior (as class-validator-jsonschema's `defaultConverters` map a validation type to a converter,
 * and zod's JSON Schema processors map a schema type to a function that edits the output in place).
 * Each row says
 * - `kind`: `schema` (mapped to JSON Schema keywords), `pattern` / `enum` (a string check with a
 *   pattern or value list of the same meaning as validator.js under the decorator's default options;
 *   options make it decoder-only), `decoder-only` (checked by the decoder only, reported as a warning
 *   naming the DTO and field: docs/architecture.md section 4 rule 10), `refused` (generation fails with `fix`),
 *   or `structural` (steers decoding or optionality, and checks nothing the type does not already say);
 * - `says` / `why` / `fix`: the row in prose (the decorator table of docs/decorators.md);
 * - `appliesTo`: the kinds of value it can pass (class-validator fails on any other value, while JSON
 *   Schema ignores a keyword meant for another type); absent: any value;
 * - `refusesNullItem`: whether an `each: true` use refuses a null item, given whether its argument
 *   holds null (class-validator runs it on every item, null included);
 * - `apply`: how the schema states it, editing the member's fragment (or its items') in place.
 *
 * spec/schema/catalogue.spec.ts checks that every decorator exported by class-validator's
 * `decorator/decorators.d.ts` has a row, and that each row does what it says.
 * @internal
 */
export type DecoratorRule = RuleBehavior &
  (
    | { readonly kind: 'schema'; readonly says: string }
    | { readonly kind: 'pattern'; readonly pattern: string; readonly says: string }
    | { readonly kind: 'enum'; readonly values: readonly string[]; readonly says: string }
    | { readonly kind: 'decoder-only'; readonly why: string }
    | { readonly kind: 'refused'; readonly fix: string }
    | { readonly kind: 'structural'; readonly says: string }
  );

/** The behavior half of a catalogue row (see DecoratorRule). @internal */
export interface RuleBehavior {
  readonly appliesTo?: readonly ValueKind[];
  /** A type check (`@IsString()`): messages name it with its parentheses. */
  readonly typeCheck?: boolean;
  readonly refusesNullItem: (argumentHoldsNull: boolean) => boolean;
  readonly apply?: Apply;
}

const STRINGS: readonly ValueKind[] = ['string'];
const NUMBERS: readonly ValueKind[] = ['number'];
const ARRAYS: readonly ValueKind[] = ['array'];
const always = (): boolean => true;
const never = (): boolean => false;
/** Whether an `each: true` value check refuses a null item, by whether its argument lists null. */
const unlessListed = (holdsNull: boolean): boolean => !holdsNull;
const ifListed = (holdsNull: boolean): boolean => holdsNull;

const schema = (
  says: string,
  appliesTo: readonly ValueKind[] | undefined,
  apply?: Apply,
  refusesNullItem: (argumentHoldsNull: boolean) => boolean = always,
): DecoratorRule => ({
  kind: 'schema',
  says,
  refusesNullItem,
  ...(appliesTo === undefined ? {} : { appliesTo }),
  ...(apply === undefined ? {} : { apply }),
});
const typeCheck = (says: string, appliesTo: readonly ValueKind[], apply?: Apply): DecoratorRule => ({
  ...schema(says, appliesTo, apply),
  typeCheck: true,
});
const structural = (says: string, apply?: Apply, refusesNullItem = never): DecoratorRule => ({
  kind: 'structural',
  says,
  refusesNullItem,
  ...(apply === undefined ? {} : { apply }),
});
const refused = (fix: string): DecoratorRule => ({ kind: 'refused', fix, refusesNullItem: always });

/** A validator.js pattern; with options of its own the decorator is the decoder's (the schema keeps the default). */
const pattern = (p: string, says = `\`pattern\` ${p}`): DecoratorRule => ({
  kind: 'pattern',
  pattern: p,
  says,
  appliesTo: STRINGS,
  refusesNullItem: always,
  apply: (use, target, _slot, ctx) => {
    if (hasOptionsArgument(use, ctx.checker)) {
      const why = 'the schema states its default pattern';
      ctx.warn(M.decoderOnly(ctx.where, use.name, `@${use.name} with options`, why), use.node);
    }
    addPattern(target, p);
  },
});

/**
 * A check the decoder alone makes: a warning naming the member. `format` is the nearest JSON
 * Schema format the schema still says; `appliesTo` defaults to strings (null: any value).
 */
const only = (
  why: string,
  { format, appliesTo = STRINGS, refusesNullItem = always }: DecoderOnlyOptions = {},
): DecoratorRule => ({
  kind: 'decoder-only',
  why,
  refusesNullItem,
  ...(appliesTo === null ? {} : { appliesTo }),
  apply: (use, target, _slot, ctx) => {
    if (format !== undefined) target['format'] = format;
    ctx.warn(M.decoderOnly(ctx.where, use.name, `@${use.name}`, why), use.node);
  },
});

interface DecoderOnlyOptions {
  readonly format?: string;
  /** null: any value. */
  readonly appliesTo?: readonly ValueKind[] | null;
  readonly refusesNullItem?: (argumentHoldsNull: boolean) => boolean;
}

const LOCALE = 'its locale- and option-dependent rule has no JSON Schema form';
const NO_PATTERN = (check: string): string => `validator.js ${check} has no exact pattern here`;

/** Every decorator the generator knows, by its exported name: one row each, read-only. @internal */
export const DECORATOR_CATALOGUE: Readonly<Record<string, DecoratorRule>> = Object.freeze({
  // common
  Allow: structural(
    'nothing: the member is accepted as its TypeScript type says (no widening); a member with no class-validator decorator at all fails generation, since whitelist hides it from the decoder',
  ),
  IsDefined: structural(
    "required (the default for a member without ? or @IsOptional), and refuses null: the member's schema has no `null` even for `unknown` or `T | null` (unless `@IsOptional()`); with `each: true`, the items",
    defined,
    always,
  ),
  IsOptional: structural('not required; null still refused unless the type includes null'),
  Validate: only('a custom constraint class runs in the decoder only', { appliesTo: null, refusesNullItem: never }),
  ValidateBy: only('a custom inline constraint runs in the decoder only', { appliesTo: null, refusesNullItem: never }),
  ValidateIf: only(
    "the schema cannot express the condition: it accepts the member's absence (not in `required`, whatever its ? or !, unless `@IsDefined()`) and applies its checks whenever it is present, " +
      'while the decoder requires and checks the member only when the condition holds',
    { appliesTo: null, refusesNullItem: never },
  ),
  ValidateNested: structural(
    'the nested DTO schema (needs a DTO class member, not an interface, object type or primitive, and ' +
      '@Type(() => Class); every member holding a DTO class needs it, since without it class-validator does not check the nested ' +
      'members; a union with a DTO class is refused: one DTO type per member; an array of arrays of DTOs is refused: wrap each ' +
      'row in a row DTO)',
    checkNested,
    always,
  ),
  ValidatePromise: refused('JSON arguments are never promises and admission is synchronous; remove @ValidatePromise'),
  IsLatLong: only('validator.js isLatLong ("lat,long" with range checks) has no exact pattern here'),
  IsLatitude: only(
    'validator.js isLatitude accepts numbers and numeric strings; declare a number with @Min(-90) @Max(90) instead',
    { appliesTo: ['number', 'string'] },
  ),
  IsLongitude: only(
    'validator.js isLongitude accepts numbers and numeric strings; declare a number with @Min(-180) @Max(180) instead',
    { appliesTo: ['number', 'string'] },
  ),
  Equals: schema(
    'const (a value the TypeScript type cannot hold, or one an earlier value list refuses, fails generation)',
    undefined,
    equals,
    unlessListed,
  ),
  NotEquals: schema('not: { const }', undefined, notEquals, ifListed),
  IsEmpty: schema('strings: maxLength 0', undefined, empty, never),
  IsNotEmpty: schema('strings: minLength 1 (null is refused anyway)', undefined, notEmpty),
  IsIn: schema(
    "enum, added to the member's other checks (two lists keep the values both allow, a nullable member keeps null); the type stays the TypeScript type's; values the type cannot hold, or a list on an array member without each: true, fail generation; `@IsIn(Object.values(E))` is not evaluated and fails generation suggesting `@IsEnum(E)`",
    undefined,
    applyEnum,
    unlessListed,
  ),
  IsNotIn: schema('not: { enum }', undefined, applyEnum, ifListed),
  // number
  IsDivisibleBy: schema(
    'multipleOf (positive integer divisors only; write @IsDivisibleBy(5) for -5)',
    NUMBERS,
    divisible,
  ),
  IsPositive: schema('exclusiveMinimum 0', NUMBERS, fixed({ exclusiveMinimum: 0 })),
  IsNegative: schema('exclusiveMaximum 0', NUMBERS, fixed({ exclusiveMaximum: 0 })),
  Max: schema('maximum', NUMBERS, bound('maximum')),
  Min: schema('minimum', NUMBERS, bound('minimum')),
  // date
  MinDate: only('a Date member is an ISO 8601 string in the schema, which has no date bound', { appliesTo: ['date'] }),
  MaxDate: only('a Date member is an ISO 8601 string in the schema, which has no date bound', { appliesTo: ['date'] }),
  // string
  Contains: schema('pattern (the escaped seed)', STRINGS, seed(true)),
  NotContains: schema('not: { type: string, pattern: the escaped seed }', STRINGS, seed(false)),
  IsAlpha: only(LOCALE),
  IsAlphanumeric: only(LOCALE),
  IsDecimal: only(LOCALE),
  IsAscii: pattern('^[\\u0000-\\u007F]+$'),
  IsBase64: only('validator.js isBase64 options (url-safe, padding) have no exact pattern here'),
  IsByteLength: only('the bound counts UTF-8 bytes; JSON Schema lengths count code points'),
  IsCreditCard: only('the Luhn checksum has no JSON Schema form'),
  IsCurrency: only(LOCALE),
  IsEmail: only(
    'validator.js isEmail and the JSON Schema email format differ at the edges; the schema says format email, the decoder checks isEmail too',
    { format: 'email' },
  ),
  IsFQDN: only(LOCALE),
  IsFullWidth: only('character-width classes have no exact pattern here'),
  IsHalfWidth: only('character-width classes have no exact pattern here'),
  IsVariableWidth: only('character-width classes have no exact pattern here'),
  IsHexColor: pattern('^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$'),
  IsHexadecimal: pattern('^(0[xXhH])?[0-9A-Fa-f]+$'),
  IsMACAddress: only(LOCALE),
  IsIP: only('validator.js isIP (zones, versions) and the ipv4/ipv6 formats differ'),
  IsPort: only('the range check on a numeric string has no exact pattern here'),
  IsISBN: only('the ISBN checksum has no JSON Schema form'),
  IsISIN: only('the ISIN checksum has no JSON Schema form'),
  IsISO8601: only(
    'validator.js isISO8601 accepts more forms than format date-time; the schema says date-time, the decoder checks isISO8601 too',
    { format: 'date-time' },
  ),
  IsJSON: only('JSON text inside a string has no JSON Schema form'),
  IsJWT: only('validator.js isJWT checks three url-safe base64 parts; no exact pattern here'),
  IsLowercase: only('case folding has no JSON Schema form'),
  IsMobilePhone: only(LOCALE),
  IsISO31661Alpha2: only("the ISO 3166-1 code list is the decoder's"),
  IsISO31661Alpha3: only("the ISO 3166-1 code list is the decoder's"),
  IsISO31661Numeric: only("the ISO 3166-1 code list is the decoder's"),
  IsMongoId: pattern('^(?:[0-9A-Fa-f]{24}|0[xXhH][0-9A-Fa-f]{22})$'),
  IsMultibyte: only('multibyte detection has no exact pattern here'),
  IsSurrogatePair: only('surrogate pairs are not visible to a u-flag pattern'),
  IsUrl: only(
    'validator.js isURL and the JSON Schema uri format differ (scheme optional, TLD required); the schema says format uri, the decoder checks isURL too',
    { format: 'uri' },
  ),
  IsUUID: schema('pattern of validator.js isUUID for the version (default: versions 1-8, nil and max)', STRINGS, uuid),
  IsFirebasePushId: pattern('^[A-Za-z0-9_-]{20}$'),
  IsUppercase: only('case folding has no JSON Schema form'),
  Length: schema('minLength, maxLength (code points; whole numbers of at least 0)', STRINGS, length),
  MaxLength: schema('maxLength (code points; a whole number of at least 0)', STRINGS, bound('maxLength')),
  MinLength: schema('minLength (code points; a whole number of at least 0)', STRINGS, bound('minLength')),
  Matches: schema(
    'pattern (no flags, or u, which changes nothing: the schema and the decoder both run it on RE2 in linear ' +
      "time, with ECMA-262 u-flag meaning; other flags fail generation with the rewrite: drop g, [\\s\\S] for s's ., both " +
      "cases for i, (?:^|\\n) for m's ^; lookaround, backreferences, a lone surrogate escape, a bounded repeat above 1000 or " +
      'a \\p{...} name RE2 lacks fail generation naming the member)',
    STRINGS,
    applyMatches,
  ),
  IsPhoneNumber: only(LOCALE),
  IsMilitaryTime: pattern('^([01]\\d|2[0-3]):?([0-5]\\d)$'),
  IsHash: only('the digest lengths per algorithm are checked by the decoder'),
  IsISSN: only('the ISSN checksum has no JSON Schema form'),
  IsDateString: only(
    'validator.js isISO8601 accepts more forms than format date-time; the schema says date-time, the decoder checks it too',
    { format: 'date-time' },
  ),
  IsBooleanString: {
    kind: 'enum',
    values: ['true', 'false', '1', '0'],
    says: 'enum ["true","false","1","0"]',
    appliesTo: STRINGS,
    refusesNullItem: always,
    apply: (use, target, slot, ctx) => combineEnum(use, target, ['true', 'false', '1', '0'], slot, ctx),
  },
  IsNumberString: only(LOCALE),
  IsBase32: only('validator.js isBase32 options have no exact pattern here'),
  IsBIC: only('the BIC country check has no JSON Schema form'),
  IsBtcAddress: only('address checksums have no JSON Schema form'),
  IsDataURI: only('data URI media types have no exact pattern here'),
  IsEAN: only('the EAN checksum has no JSON Schema form'),
  IsEthereumAddress: pattern('^0[xX][0-9A-Fa-f]{40}$'),
  IsHSL: only(NO_PATTERN('isHSL')),
  IsIBAN: only('the IBAN checksum has no JSON Schema form'),
  IsIdentityCard: only(LOCALE),
  IsISRC: only(NO_PATTERN('isISRC')),
  IsLocale: only(NO_PATTERN('isLocale')),
  IsMagnetURI: only(NO_PATTERN('isMagnetURI')),
  IsMimeType: only(NO_PATTERN('isMimeType')),
  IsOctal: only(NO_PATTERN('isOctal')),
  IsPassportNumber: only(LOCALE),
  IsPostalCode: only(LOCALE),
  IsRFC3339: schema(
    'format date-time and the shape isRFC3339 takes (T or space, offset Z or +hh:mm), which format date-time alone widens',
    STRINGS,
    rfc3339,
  ),
  IsRgbColor: only(NO_PATTERN('isRgbColor')),
  IsSemVer: only(NO_PATTERN('isSemVer')),
  IsStrongPassword: only('password scoring has no JSON Schema form'),
  IsTimeZone: only("the IANA time zone list is the decoder's (Intl)"),
  IsBase58: only(NO_PATTERN('isBase58')),
  IsTaxId: only(LOCALE),
  IsISO4217CurrencyCode: only("the ISO 4217 code list is the decoder's"),
  IsISO6391: only("the ISO 639-1 code list is the decoder's"),
  // type checkers: the type is narrowed to the decorator's (lib/schema/constraints.ts appliesToType)
  IsBoolean: typeCheck('type boolean', ['boolean']),
  IsDate: schema(
    'type string, format date-time and a pattern for what a Date can hold: no leap second, T or space, offset Z or +hh:mm; the decoder also refuses an offset that moves the UTC instant out of the years 0000-9999 (needs @Type(() => Date))',
    undefined,
    checkDate,
  ),
  IsNumber: typeCheck(
    'type number (maxDecimalPlaces is decoder-only: validators check a multipleOf like 0.01 in floating point, refusing 19.99; allowNaN/allowInfinity refused)',
    NUMBERS,
    numberOptions,
  ),
  IsEnum: schema(
    "enum of the values of a TypeScript enum or a const object literal (`const Color = { Red: 'red' } as const`), added to the member's other checks like @IsIn (numeric enums: type integer, numbers only; an array member needs each: true)",
    undefined,
    applyEnum,
  ),
  IsInt: typeCheck('type integer', NUMBERS, integer),
  IsString: typeCheck('type string', STRINGS),
  IsArray: typeCheck('type array', ARRAYS),
  IsObject: structural(
    'nothing beyond the TypeScript type (an object, closed for a DTO; a Record or free-form value refuses the names __proto__, constructor and prototype at any depth, via propertyNames)',
    undefined,
    always,
  ),
  // arrays
  ArrayContains: schema('allOf of contains: { const } per value', ARRAYS, arrayValues(true)),
  ArrayNotContains: schema('items: { not: { enum } }', ARRAYS, arrayValues(false)),
  ArrayNotEmpty: schema('minItems 1', ARRAYS, notEmptyArray),
  ArrayMinSize: schema('minItems (a whole number of at least 0)', ARRAYS, bound('minItems')),
  ArrayMaxSize: schema('maxItems (a whole number of at least 0)', ARRAYS, bound('maxItems')),
  ArrayUnique: schema('uniqueItems (a selector function is decoder-only)', ARRAYS, unique),
  // objects
  IsNotEmptyObject: schema('minProperties 1 (the nullable option is decoder-only)', ['object'], notEmptyObject),
  IsInstance: structural(
    'the nested DTO schema (needs a DTO class member, @Type(() => Class) and @ValidateNested(), without ' +
      'which class-validator does not check the nested members)',
    checkNested,
    always,
  ),
  // class-transformer (lib/schema/member-checks.ts checkShape reads @Type; constraints.ts reads @Expose)
  Type: structural(
    "which class a nested member or array item is decoded to, which must be the declared type (or the items' type); never a coercion (an array of arrays under @Type, a discriminator, or a @Type naming another type is refused)",
  ),
  Expose: structural('the wire name (only with { name }; other options refused)'),
  Exclude: refused('an excluded member cannot be sent; delete the member from the input DTO'),
  Transform: refused(
    'a transform changes what the schema promises; decode the raw value in the tool, or change the member type',
  ),
});

/** The row of a decorator name, or undefined for a decorator the catalogue does not know. @internal */
export function ruleOf(name: string): DecoratorRule | undefined {
  return Object.prototype.hasOwnProperty.call(DECORATOR_CATALOGUE, name) ? DECORATOR_CATALOGUE[name] : undefined;
}
