/**
 * What a string format or a known pattern asks for, in words a person and a model can act on: one
 * table shared by the schema's refusals (lib/protocol/schema.ts) and the DTO decoder's messages
 * (lib/dto/messages.ts), so a refused date says `must be an RFC 3339 date-time, e.g.
 * 2025-07-01T00:00:00Z`, not a 100-character regular expression. Sources: RFC 3339 section 5.6
 * (date-time, full-date, full-time), RFC 5321 (email), RFC 3986 (uri), RFC 4122 (uuid).
 * @internal
 */

/**
 * The RFC 3339 date-time a `Date` member takes: `T`, `t` or a space between date and time (RFC 3339
 * section 5.6 note), seconds 00-59, an offset `Z`/`z` or `+hh:mm`, as a u-flag JSON Schema pattern.
 * Format date-time alone also admits a leap second (`23:59:60Z`), any white space as separator and
 * offsets without a colon, none of which a JavaScript Date can hold or parse. The generator adds it
 * beside `format: date-time` (lib/schema/member-checks.ts), the run-time derived schema states it
 * (lib/dto/derive-schema.ts) and the decoder checks it (lib/dto/contract-rules.ts isDateTime).
 * @internal
 */
export const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:[0-5]\\d(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

/**
 * The shape validator.js isRFC3339 accepts (T, t or space; offset Z, z or +hh:mm); format date-time
 * checks the ranges. `@IsRFC3339()` states it (lib/schema/keywords.ts).
 * @internal
 */
export const RFC3339_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

/** What a `date-time` value is, with an example. @internal */
export const DATE_TIME_TEXT = 'an RFC 3339 date-time, e.g. 2025-07-01T00:00:00Z';

/** The JSON Schema formats (ajv-formats) a message describes in words, each with an example. */
const FORMATS: ReadonlyMap<string, string> = new Map([
  ['date-time', DATE_TIME_TEXT],
  ['date', 'an RFC 3339 full-date, e.g. 2025-07-01'],
  ['time', 'an RFC 3339 full-time, e.g. 13:45:00Z'],
  ['email', 'an email address, e.g. ada@example.com'],
  ['uri', 'an absolute URI, e.g. https://example.com/notes'],
  ['uuid', 'a UUID, e.g. 123e4567-e89b-42d3-a456-426614174000'],
  ['ipv4', 'an IPv4 address, e.g. 192.0.2.1'],
  ['ipv6', 'an IPv6 address, e.g. 2001:db8::1'],
  ['hostname', 'a host name, e.g. example.com'],
]);

/** The patterns scope-tool itself writes into schemas, by what they mean. */
const PATTERNS: ReadonlyMap<string, string> = new Map([
  [DATE_TIME_PATTERN, DATE_TIME_TEXT],
  [RFC3339_PATTERN, DATE_TIME_TEXT],
]);

/** What `format` asks for (`an RFC 3339 date-time, e.g. ...`), or undefined for a format not in the table. @internal */
export function describeFormat(format: unknown): string | undefined {
  return typeof format === 'string' ? FORMATS.get(format) : undefined;
}

/** What a known `pattern` asks for, or undefined for any other pattern (shown as written). @internal */
export function describePattern(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? PATTERNS.get(pattern) : undefined;
}
