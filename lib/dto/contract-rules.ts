/**
 * The rules the build-time generator's input schema (lib/schema) and the run-time DTO decoder
 * (lib/dto) must state alike (docs/architecture.md section 4, "One contract"): one definition each, which
 * both sides import. This module imports only lib/protocol/formats.ts, which imports nothing, so lib/schema may use it without loading the decoder.
 * @internal
 */
import { DATE_TIME_PATTERN } from '../protocol/formats';

/**
 * JSON Schema keywords whose values are data, not schemas: never searched for `$ref` by the generator
 * (lib/schema/input-schema.ts) nor for base URIs by the decoder's prover (lib/dto/fast.ts). @internal
 */
export const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples']);

/**
 * Member names refused at every depth, free-form values (`Record<string, T>`, `@IsObject()`)
 * included: they reach prototypes once a value is transformed or merged. The decoder refuses them
 * in its raw scan (lib/dto/forbidden.ts); the generator's schema says `propertyNames: { not: { enum } }`
 * with this list (lib/schema/input-schema.ts) and refuses them as wire names (lib/schema/dto-class.ts).
 * @internal
 */
export const FORBIDDEN_MEMBERS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * DTO property names a DTO may not declare: the members of Object.prototype (`valueOf`, `toString`,
 * `hasOwnProperty`, `constructor`, `__proto__`, `__defineGetter__`, ...). class-validator groups a
 * DTO's constraints by property name in a plain object, so such a name finds the inherited
 * function and every validation throws (`grouped[metadata.propertyName].push is not a function`).
 * The wire name may still be one (`@Expose({ name: 'valueOf' })` on another property). Refused at
 * bind (lib/dto/plan.ts) and by the generator (lib/schema/dto-class.ts).
 * @internal
 */
export const PROTOTYPE_MEMBER_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The date-time pattern of a `Date` member, defined beside its description (lib/protocol/formats.ts). @internal */
export { DATE_TIME_PATTERN };

const DATE_TIME = new RegExp(DATE_TIME_PATTERN, 'u');

/** Days per month of a common year; February gains one in a leap year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `s` is a date-time a `Date` member takes: DATE_TIME_PATTERN, with the month, day, hour,
 * minute and offset ranges the format date-time checks (a leap day only in a leap year). A date
 * alone (`2024-05-01`) is refused: the schema the model is shown takes date-times only. A leap
 * second is refused: RFC 3339 allows it, a JavaScript Date cannot hold it. So is an offset that moves
 * the instant out of the years 0000-9999 (`anyInstant` skips that check: see FIRST_INSTANT). Source:
 * RFC 3339 section 5.6.
 * @internal
 */
export function isDateTime(s: string, anyInstant = false): boolean {
  if (!DATE_TIME.test(s)) return false;
  // The pattern fixes the positions: yyyy-mm-ddThh:mm:ss, then an optional fraction and the offset.
  const num = (from: number): number => Number(s.slice(from, from + 2));
  const [year, month, day] = [Number(s.slice(0, 4)), num(5), num(8)];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = (DAYS[month - 1] as number) + (month === 2 && leap ? 1 : 0);
  if (day > days || num(11) > 23 || num(14) > 59) return false;
  const offset = /[+-](\d{2}):(\d{2})$/.exec(s);
  if (offset !== null && (Number(offset[1]) > 23 || Number(offset[2]) > 59)) return false;
  const t = new Date(s).getTime();
  return anyInstant ? !Number.isNaN(t) : t >= FIRST_INSTANT && t <= LAST_INSTANT;
}

/**
 * The instants a Date member holds: UTC years 0000 to 9999, the years RFC 3339 writes. Regression
 * (new-user review): `0000-01-01T00:30:00+01:00` is the UTC instant -000001-12-31T23:30Z, which
 * `toJSON()` writes as `-000001-12-31T23:30:00.000Z`: the normalized arguments were no RFC 3339
 * date-time, and a suspended call stored with them was refused on resume.
 */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Escapes a literal string for a u-flag pattern: the generator's `@Contains(seed)` pattern
 * (lib/schema/keywords.ts seed) and the drift check of that pattern (lib/dto/drift.ts) escape alike.
 * @internal
 */
export function escapePattern(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`);
}
