/**
 * The decorator catalogue: what the generator does with every decorator class-validator 0.15 exports
 * (and the class-transformer decorators a DTO uses), in one table. Each decorator is
 * - `schema`: mapped to JSON Schema keywords (constraints.ts applies it);
 * - `pattern` / `enum`: a string check with a JSON Schema pattern or value list of the same meaning as
 *   validator.js under the decorator's default options (options make it decoder-only);
 * - `decoder-only`: checked by the decoder only, reported by the generator as a warning naming the
 *   DTO and field (DESIGN.md section 4 rule 10);
 * - `refused`: generation fails with `fix`, what to write instead;
 * - `structural`: steers decoding or optionality, and checks nothing the type does not already say.
 *
 * spec/schema/catalogue.spec.ts checks that every decorator exported by class-validator's
 * `decorator/decorators.d.ts` has an entry, and the README's decorator table is this catalogue in prose.
 * @internal
 */
export type DecoratorRule =
  | { readonly kind: 'schema'; readonly says: string }
  | { readonly kind: 'pattern'; readonly pattern: string; readonly says: string }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly says: string }
  | { readonly kind: 'decoder-only'; readonly why: string }
  | { readonly kind: 'refused'; readonly fix: string }
  | { readonly kind: 'structural'; readonly says: string };

const schema = (says: string): DecoratorRule => ({ kind: 'schema', says });
const pattern = (p: string, says = `pattern ${p}`): DecoratorRule => ({ kind: 'pattern', pattern: p, says });
const only = (why: string): DecoratorRule => ({ kind: 'decoder-only', why });
const structural = (says: string): DecoratorRule => ({ kind: 'structural', says });

/** validator.js isUUID patterns per version (13.15), case-insensitivity spelled out for the u flag. */
const HEX = '[0-9A-Fa-f]';
const uuidOf = (v: string): string => `^${HEX}{8}-${HEX}{4}-${v}${HEX}{3}-[89ABab]${HEX}{3}-${HEX}{12}$`;
/** @internal */
export const UUID_PATTERNS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8'].map((v) => [v, uuidOf(v)])),
  nil: '^00000000-0000-0000-0000-000000000000$',
  max: '^[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12}$',
  loose: `^${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}$`,
  all: `^(?:${HEX}{8}-${HEX}{4}-[1-8]${HEX}{3}-[89ABab]${HEX}{3}-${HEX}{12}|00000000-0000-0000-0000-000000000000|[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12})$`,
});

const LOCALE = 'its locale- and option-dependent rule has no JSON Schema form';

/** Every decorator the generator knows, by its exported name. @internal */
export const DECORATOR_CATALOGUE: Readonly<Record<string, DecoratorRule>> = Object.freeze({
  // common
  Allow: structural(
    'nothing: the member is accepted as its TypeScript type says (no widening); a member with no class-validator decorator at all fails generation, since whitelist hides it from the decoder',
  ),
  IsDefined: structural('required (the default for a member without ? or @IsOptional)'),
  IsOptional: structural('not required; null still refused unless the type includes null'),
  Validate: only('a custom constraint class runs in the decoder only'),
  ValidateBy: only('a custom inline constraint runs in the decoder only'),
  ValidateIf: only(
    "the schema cannot express the condition: it accepts the member's absence and applies its checks whenever it is present, " +
      'while the decoder requires and checks the member only when the condition holds',
  ),
  ValidateNested: structural(
    'the nested DTO schema (needs a DTO class member, not an interface, object type or primitive, and ' +
      '@Type(() => Class); every member holding a DTO class needs it, since without it class-validator does not check the nested ' +
      'members; a union with a DTO class is refused: one DTO type per member; an array of arrays of DTOs is refused: wrap each ' +
      'row in a row DTO)',
  ),
  ValidatePromise: {
    kind: 'refused',
    fix: 'JSON arguments are never promises and admission is synchronous; remove @ValidatePromise',
  },
  IsLatLong: only('validator.js isLatLong ("lat,long" with range checks) has no exact pattern here'),
  IsLatitude: only(
    'validator.js isLatitude accepts numbers and numeric strings; declare a number with @Min(-90) @Max(90) instead',
  ),
  IsLongitude: only(
    'validator.js isLongitude accepts numbers and numeric strings; declare a number with @Min(-180) @Max(180) instead',
  ),
  Equals: schema(
    'const (a value the TypeScript type cannot hold, or one an earlier value list refuses, fails generation)',
  ),
  NotEquals: schema('not: { const }'),
  IsEmpty: schema('strings: maxLength 0'),
  IsNotEmpty: schema('strings: minLength 1 (null is refused anyway)'),
  IsIn: schema(
    "enum, added to the member's other checks (two lists keep the values both allow, a nullable member keeps null); the type stays the TypeScript type's; values the type cannot hold, or a list on an array member without each: true, fail generation",
  ),
  IsNotIn: schema('not: { enum }'),
  // number
  IsDivisibleBy: schema('multipleOf (positive integer divisors only; write @IsDivisibleBy(5) for -5)'),
  IsPositive: schema('exclusiveMinimum 0'),
  IsNegative: schema('exclusiveMaximum 0'),
  Max: schema('maximum'),
  Min: schema('minimum'),
  // date
  MinDate: only('a Date member is an ISO 8601 string in the schema, which has no date bound'),
  MaxDate: only('a Date member is an ISO 8601 string in the schema, which has no date bound'),
  // string
  Contains: schema('pattern (the escaped seed)'),
  NotContains: schema('not: { type: string, pattern: the escaped seed }'),
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
  ),
  IsUUID: schema('pattern of validator.js isUUID for the version (default: versions 1-8, nil and max)'),
  IsFirebasePushId: pattern('^[A-Za-z0-9_-]{20}$'),
  IsUppercase: only('case folding has no JSON Schema form'),
  Length: schema('minLength, maxLength (code points; whole numbers of at least 0)'),
  MaxLength: schema('maxLength (code points; a whole number of at least 0)'),
  MinLength: schema('minLength (code points; a whole number of at least 0)'),
  Matches: schema(
    'pattern (no flags, or u, which changes nothing: the schema and the decoder both run it on RE2 in linear ' +
      'time, with ECMA-262 u-flag meaning; lookaround and backreferences, which RE2 lacks, fail generation)',
  ),
  IsPhoneNumber: only(LOCALE),
  IsMilitaryTime: pattern('^([01]\\d|2[0-3]):?([0-5]\\d)$'),
  IsHash: only('the digest lengths per algorithm are checked by the decoder'),
  IsISSN: only('the ISSN checksum has no JSON Schema form'),
  IsDateString: only(
    'validator.js isISO8601 accepts more forms than format date-time; the schema says date-time, the decoder checks it too',
  ),
  IsBooleanString: { kind: 'enum', values: ['true', 'false', '1', '0'], says: 'enum ["true","false","1","0"]' },
  IsNumberString: only(LOCALE),
  IsBase32: only('validator.js isBase32 options have no exact pattern here'),
  IsBIC: only('the BIC country check has no JSON Schema form'),
  IsBtcAddress: only('address checksums have no JSON Schema form'),
  IsDataURI: only('data URI media types have no exact pattern here'),
  IsEAN: only('the EAN checksum has no JSON Schema form'),
  IsEthereumAddress: pattern('^0[xX][0-9A-Fa-f]{40}$'),
  IsHSL: only('validator.js isHSL has no exact pattern here'),
  IsIBAN: only('the IBAN checksum has no JSON Schema form'),
  IsIdentityCard: only(LOCALE),
  IsISRC: only('validator.js isISRC has no exact pattern here'),
  IsLocale: only('validator.js isLocale has no exact pattern here'),
  IsMagnetURI: only('validator.js isMagnetURI has no exact pattern here'),
  IsMimeType: only('validator.js isMimeType has no exact pattern here'),
  IsOctal: only('validator.js isOctal has no exact pattern here'),
  IsPassportNumber: only(LOCALE),
  IsPostalCode: only(LOCALE),
  IsRFC3339: schema(
    'format date-time and the shape isRFC3339 takes (T or space, offset Z or +hh:mm), which format date-time alone widens',
  ),
  IsRgbColor: only('validator.js isRgbColor has no exact pattern here'),
  IsSemVer: only('validator.js isSemVer has no exact pattern here'),
  IsStrongPassword: only('password scoring has no JSON Schema form'),
  IsTimeZone: only("the IANA time zone list is the decoder's (Intl)"),
  IsBase58: only('validator.js isBase58 has no exact pattern here'),
  IsTaxId: only(LOCALE),
  IsISO4217CurrencyCode: only("the ISO 4217 code list is the decoder's"),
  IsISO6391: only("the ISO 639-1 code list is the decoder's"),
  // type checkers
  IsBoolean: schema('type boolean'),
  IsDate: schema(
    'type string, format date-time and a pattern for what a Date can hold: no leap second, T or space, offset Z or +hh:mm (needs @Type(() => Date))',
  ),
  IsNumber: schema(
    'type number (maxDecimalPlaces is decoder-only: validators check a multipleOf like 0.01 in floating point, refusing 19.99; allowNaN/allowInfinity refused)',
  ),
  IsEnum: schema(
    "enum of the values, added to the member's other checks like @IsIn (numeric enums: type integer, numbers only; an array member needs each: true)",
  ),
  IsInt: schema('type integer'),
  IsString: schema('type string'),
  IsArray: schema('type array'),
  IsObject: structural(
    'nothing beyond the TypeScript type (an object, closed for a DTO; a Record or free-form value refuses the names __proto__, constructor and prototype at any depth, via propertyNames)',
  ),
  // arrays
  ArrayContains: schema('allOf of contains: { const } per value'),
  ArrayNotContains: schema('items: { not: { enum } }'),
  ArrayNotEmpty: schema('minItems 1'),
  ArrayMinSize: schema('minItems (a whole number of at least 0)'),
  ArrayMaxSize: schema('maxItems (a whole number of at least 0)'),
  ArrayUnique: schema('uniqueItems (a selector function is decoder-only)'),
  // objects
  IsNotEmptyObject: schema('minProperties 1 (the nullable option is decoder-only)'),
  IsInstance: structural(
    'the nested DTO schema (needs a DTO class member, @Type(() => Class) and @ValidateNested(), without ' +
      'which class-validator does not check the nested members)',
  ),
  // class-transformer
  Type: structural(
    "which class a nested member or array item is decoded to, which must be the declared type (or the items' type); never a coercion (an array of arrays under @Type, a discriminator, or a @Type naming another type is refused)",
  ),
  Expose: structural('the wire name (only with { name }; other options refused)'),
  Exclude: { kind: 'refused', fix: 'an excluded member cannot be sent; delete the member from the input DTO' },
  Transform: {
    kind: 'refused',
    fix: 'a transform changes what the schema promises; decode the raw value in the tool, or change the member type',
  },
});

/** The rule for a decorator name, or undefined for a decorator the catalogue does not know. @internal */
export function ruleOf(name: string): DecoratorRule | undefined {
  return Object.prototype.hasOwnProperty.call(DECORATOR_CATALOGUE, name) ? DECORATOR_CATALOGUE[name] : undefined;
}
