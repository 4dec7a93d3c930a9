/**
 * Constraints whose class-validator verdict scope-tool replaces, so the decoder agrees with the
 * JSON Schema the model is shown (docs/architecture.md section 4):
 * - `@Length`, `@MinLength`, `@MaxLength` count code points, as JSON Schema does (rule 8);
 *   validator.js also discounts U+FE0E/U+FE0F presentation selectors.
 * - `@IsEnum` accepts enum values only (rule 5); class-validator also accepts the member names of
 *   a numeric enum (its reverse mapping).
 * - `@IsNumber({ maxDecimalPlaces })` counts the decimal places of the number's shortest decimal
 *   form; class-validator reads them off `String(value)`, so it throws on `1e-7` and miscounts
 *   `1.5e-7`. validation.ts hides the option from class-validator while it runs (the type check
 *   stays class-validator's); the count is ours.
 * - `@Matches` runs on RE2 in linear time (lib/protocol/regex.ts), the engine the schema's `pattern`
 *   runs on, so both give one verdict; class-validator's RegExp backtracks (`^([a-z0-9]+-?)+$` takes
 *   seconds on 42 bytes). The pattern is read in ECMA-262 syntax with the u flag, whatever its flags.
 */
import { IS_ENUM, IS_LENGTH, IS_NUMBER, MATCHES, MAX_LENGTH, MIN_LENGTH } from 'class-validator';
import { compilePattern, PatternSyntaxError } from '../protocol/regex';
import type { LinearPattern } from '../protocol/regex';
import type { ClassPlan, PropertyPlan } from './plan';
import type { ValidationRecord } from './reflection';
import { VALIDATION_TYPES } from './reflection';
import type { IssuePath, IssueSink } from './issues';
import { CONSTRAINT_TEXT, matchesNotLinear } from './messages';

/** The constraint names whose verdict is ours, not class-validator's. @internal */
export const OVERRIDDEN: ReadonlySet<string> = new Set([IS_LENGTH, MIN_LENGTH, MAX_LENGTH, IS_ENUM, MATCHES]);

/**
 * The linear-time pattern of a `@Matches` record (`@Matches(/re/flags)` or `@Matches('re', 'flags')`),
 * compiled once; planOf calls it for every such record, so a pattern RE2 cannot run fails at bind.
 * @throws ToolError ERR_INVALID_TOOL `Class.property: @Matches pattern "..." uses lookaround ...`
 *   when the pattern is not ECMA-262 syntax (u flag) or RE2 cannot express it (lib/protocol/regex.ts)
 * @internal
 */
export function matchesPattern(r: ValidationRecord, className: string): LinearPattern {
  const cached = patternOf.get(r);
  if (cached !== undefined) return cached;
  const [pattern, modifiers] = r.constraints ?? [];
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags = pattern instanceof RegExp ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  try {
    const compiled = compilePattern(source, flags);
    patternOf.set(r, compiled);
    return compiled;
  } catch (e) {
    if (!(e instanceof PatternSyntaxError)) throw e;
    throw matchesNotLinear(className, r.propertyName, e.message);
  }
}

const patternOf = new WeakMap<ValidationRecord, LinearPattern>();

/** Whether a record is `@IsNumber({ maxDecimalPlaces })`, whose decimal count is ours. @internal */
export function countsDecimals(r: ValidationRecord): boolean {
  const options: unknown = r.constraints?.[0];
  return (
    r.name === IS_NUMBER &&
    options !== null &&
    typeof options === 'object' &&
    (options as { maxDecimalPlaces?: unknown }).maxDecimalPlaces !== undefined
  );
}

/**
 * Decimal places of a finite number in its shortest round-trip decimal form: 0.125 has 3, 1e-7
 * has 7, 1.5e-7 has 8, integers (1e21 included) have none. @internal
 */
export function decimalPlaces(n: number): number {
  if (!Number.isFinite(n) || Number.isInteger(n)) return 0;
  const [mantissa = '', exponent] = String(Math.abs(n)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - (exponent === undefined ? 0 : Number(exponent)));
}

/** Length of `s` in Unicode code points (a surrogate pair counts once). @internal */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The values of a TypeScript enum object, without a numeric enum's reverse-mapping names. @internal */
export function enumValues(entity: unknown): unknown[] {
  if (entity === null || typeof entity !== 'object') return [];
  const e = entity as Record<string, unknown>;
  return Object.keys(e)
    .filter(
      (k) => !(typeof e[k] === 'string' && typeof e[e[k] as string] === 'number' && String(e[e[k] as string]) === k),
    )
    .map((k) => e[k]);
}

/**
 * Runs the overridden constraints over a transformed (and otherwise valid) instance, walking the
 * plan so that paths use wire names. Skips a property exactly when class-validator would: its
 * conditional records (`@IsOptional` on null/undefined, `@ValidateIf`) say so.
 * @internal
 */
export function checkOverrides(instance: object, plan: ClassPlan, path: IssuePath, sink: IssueSink): void {
  for (const prop of plan.properties) {
    const records = overriddenRecords(prop);
    // Nothing of ours to check here, nor below: class-validator's verdict stands.
    if (records.length === 0 && prop.nested === undefined) continue;
    const value = (instance as Record<string, unknown>)[prop.property];
    // null got here only because the input schema admitted it: the member's checks do not apply.
    if (value === null || skipped(instance, prop, value)) continue;
    const at = [...path, prop.wire];
    for (const r of records) {
      if (r.each && Array.isArray(value)) {
        // class-validator runs an each: true check on a null item too (and refuses it): so do we.
        value.forEach((item, i) => check(r, item, [...at, i], prop, sink, CONSTRAINT_TEXT.eachPrefix));
      } else {
        check(r, value, at, prop, sink, '');
      }
    }
    if (prop.nested !== undefined && value !== null && typeof value === 'object') {
      const children = prop.kind === 'array' && Array.isArray(value) ? value : [value];
      children.forEach((child, i) => {
        if (child !== null && typeof child === 'object') {
          checkOverrides(child as object, prop.nested as ClassPlan, prop.kind === 'array' ? [...at, i] : at, sink);
        }
      });
    }
  }
}

const overriddenOf = new WeakMap<PropertyPlan, readonly ValidationRecord[]>();

/** The records of `prop` whose verdict is ours (OVERRIDDEN constraints, decimal counts), cached per plan. */
function overriddenRecords(prop: PropertyPlan): readonly ValidationRecord[] {
  let records = overriddenOf.get(prop);
  if (records === undefined) {
    records = prop.records.filter(
      (r) =>
        r.type === VALIDATION_TYPES.CUSTOM_VALIDATION &&
        r.name !== undefined &&
        (OVERRIDDEN.has(r.name) || countsDecimals(r)),
    );
    overriddenOf.set(prop, records);
  }
  return records;
}

function skipped(instance: object, prop: PropertyPlan, value: unknown): boolean {
  for (const r of prop.records) {
    if (r.type !== VALIDATION_TYPES.CONDITIONAL_VALIDATION) continue;
    const condition = r.constraints?.[0] as ((o: object, v: unknown) => boolean) | undefined;
    if (typeof condition === 'function' && !condition(instance, value)) return true;
  }
  return false;
}

function check(
  r: ValidationRecord,
  value: unknown,
  at: IssuePath,
  prop: PropertyPlan,
  sink: IssueSink,
  prefix: string,
): void {
  const failure = verdict(r, value);
  if (failure === undefined) return;
  const message =
    typeof r.message === 'string' && r.message !== ''
      ? r.message.replace(/\$property/g, prop.property)
      : prefix + failure;
  sink.add({ code: 'dto', path: at, constraint: r.name, message });
}

/** The failure message of one overridden record, or undefined when the value passes. */
function verdict(r: ValidationRecord, value: unknown): string | undefined {
  const c = r.constraints ?? [];
  if (r.name === IS_NUMBER) {
    // Only the decimal count: class-validator checked the type (with the option hidden).
    const max = (c[0] as { maxDecimalPlaces?: unknown }).maxDecimalPlaces;
    if (typeof value !== 'number' || typeof max !== 'number' || decimalPlaces(value) <= max) return undefined;
    return CONSTRAINT_TEXT.maxDecimalPlaces;
  }
  if (r.name === MATCHES) {
    const pattern = matchesPattern(r, r.target instanceof Function ? r.target.name : String(r.target));
    return typeof value === 'string' && pattern.test(value) ? undefined : CONSTRAINT_TEXT.matches(String(c[0]));
  }
  if (r.name === IS_ENUM) {
    const values = enumValues(c[0]);
    return values.includes(value) ? undefined : CONSTRAINT_TEXT.isEnum(values);
  }
  const [min, max] =
    r.name === IS_LENGTH ? [c[0], c[1]] : r.name === MIN_LENGTH ? [c[0], undefined] : [undefined, c[0]];
  if (typeof value !== 'string') return CONSTRAINT_TEXT.notString;
  const n = codePointLength(value);
  if (typeof min === 'number' && n < min) return CONSTRAINT_TEXT.tooShort(min);
  if (typeof max === 'number' && n > max) return CONSTRAINT_TEXT.tooLong(max);
  return undefined;
}
