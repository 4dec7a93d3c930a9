/**
 * fast-check arbitraries derived from an emitted input schema (the subset the generator writes):
 * type (and type lists), const, enum, string lengths in code points, pattern(s), formats date-time,
 * date, email and uri, number and integer bounds, multipleOf, arrays with item bounds, uniqueItems and
 * `contains`, objects with properties, required and `additionalProperties` schemas, anyOf, `not`,
 * `$ref` to `#` and `#/$defs/X`. Every value is finally checked with the compiled schema, so a
 * value the arbitrary gets wrong is dropped, never reported as the decoder's fault.
 */
import fc from 'fast-check';

type Schema = { [key: string]: unknown };

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 3;

function isSchema(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Resolves `#` and `#/$defs/X` against the root schema. */
export function resolveRef(schema: Schema, root: Schema): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const { $ref: _ref, ...rest } = schema;
  const target =
    ref === '#'
      ? root
      : (((root['$defs'] ?? {}) as Record<string, Schema>)[decodeURIComponent(ref.replace('#/$defs/', ''))] ?? {});
  return { ...target, ...rest };
}

/** Code points of a string. */
export function codePoints(s: string): number {
  return [...s].length;
}

function patternsOf(schema: Schema): RegExp[] {
  const out: RegExp[] = [];
  if (typeof schema['pattern'] === 'string') out.push(new RegExp(schema['pattern'], 'u'));
  for (const part of Array.isArray(schema['allOf']) ? schema['allOf'] : []) {
    if (isSchema(part) && typeof part['pattern'] === 'string') out.push(new RegExp(part['pattern'], 'u'));
  }
  return out;
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const patterns = patternsOf(schema);
  let base: fc.Arbitrary<string>;
  const format = schema['format'];
  if (format === 'date-time' || format === 'date') {
    const dates = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    base = dates.map((d) => (format === 'date' ? d.toISOString().slice(0, 10) : d.toISOString()));
  } else if (format === 'email') {
    base = fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8})?@[a-z]{2,10}\.(com|org|net)$/);
  } else if (format === 'uri') {
    base = fc.stringMatching(/^https:\/\/[a-z]{2,10}\.(com|org)(\/[a-z0-9]{1,8}){0,3}$/);
  } else if (patterns.length > 0 && tryMatching(patterns[0] as RegExp) !== undefined) {
    base = tryMatching(patterns[0] as RegExp) as fc.Arbitrary<string>;
  } else {
    base = fc.oneof(
      fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, min + 12) }),
      fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, min + 12) }),
    );
  }
  return base.filter((s) => {
    const n = codePoints(s);
    return (
      (s as unknown as { isWellFormed(): boolean }).isWellFormed() &&
      n >= min &&
      n <= max &&
      patterns.every((p) => p.test(s))
    );
  });
}

function tryMatching(re: RegExp): fc.Arbitrary<string> | undefined {
  try {
    const arb = fc.stringMatching(re);
    fc.sample(arb, 1);
    return arb;
  } catch {
    return undefined;
  }
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const num = (k: string): number | undefined => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const lo = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? (num('exclusiveMinimum') as number) : -1e6);
  const hi = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? (num('exclusiveMaximum') as number) : 1e6);
  const step = num('multipleOf');
  const loEx = num('minimum') === undefined && num('exclusiveMinimum') !== undefined;
  const hiEx = num('maximum') === undefined && num('exclusiveMaximum') !== undefined;
  if (step !== undefined) {
    return fc.integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) }).map((k) => k * step);
  }
  if (integer) {
    const a = loEx ? Math.floor(lo) + 1 : Math.ceil(lo);
    const b = hiEx ? Math.ceil(hi) - 1 : Math.floor(hi);
    return fc.oneof(fc.integer({ min: a, max: b }), fc.constantFrom(a, b));
  }
  return fc.oneof(
    fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true, minExcluded: loEx, maxExcluded: hiEx }),
    loEx || hiEx ? fc.constant((lo + hi) / 2) : fc.constantFrom(lo, hi),
  );
}

function freeValue(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 }).filter((v) => !JSON.stringify(v).match(/"(__proto__|constructor|prototype)":/));
}

/** An arbitrary of values `schema` accepts (before the final schema check). */
export function arbitraryOf(input: Schema, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveRef(input, root);
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if (Array.isArray(schema['anyOf']))
    return fc.oneof(
      ...(schema['anyOf'] as Schema[]).map((s) => arbitraryOf({ ...schema, anyOf: undefined, ...s }, root, depth)),
    );
  const type = schema['type'];
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, root, depth)));
  switch (type) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return numberArb(schema, true);
    case 'number':
      return numberArb(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArb(schema, root, depth);
    case 'object':
      return objectArb(schema, root, depth);
    default:
      return freeValue();
  }
}

function arrayArb(schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown[]> {
  const items = isSchema(schema['items']) ? schema['items'] : {};
  const contained = (Array.isArray(schema['allOf']) ? schema['allOf'] : [])
    .map((p) => (isSchema(p) && isSchema(p['contains']) ? p['contains']['const'] : undefined))
    .filter((v) => v !== undefined);
  const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
  const max0 = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : min + 4;
  const distinct = Array.isArray(items['enum']) ? (items['enum'] as unknown[]).length : 'const' in items ? 1 : Infinity;
  const cap = schema['uniqueItems'] === true ? distinct : Infinity;
  const max = Math.max(min, Math.min(max0, cap, depth >= MAX_DEPTH ? min : min + 4) - contained.length);
  if (max === 0 && contained.length === 0) return fc.constant([]); // also ends recursive DTOs
  const itemArb = arbitraryOf(items, root, depth + 1);
  const list =
    schema['uniqueItems'] === true
      ? fc.uniqueArray(itemArb, {
          minLength: Math.max(0, min - contained.length),
          maxLength: max,
          selector: (v) => JSON.stringify(v),
        })
      : fc.array(itemArb, { minLength: Math.max(0, min - contained.length), maxLength: max });
  return list.map((xs) => [
    ...contained.filter((c) => !xs.some((x) => JSON.stringify(x) === JSON.stringify(c))),
    ...xs,
  ]);
}

function objectArb(schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = isSchema(schema['properties']) ? (schema['properties'] as Record<string, Schema>) : {};
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const extra = schema['additionalProperties'];
  if (Object.keys(properties).length === 0 && isSchema(extra)) {
    const minKeys = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
    const key = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }).filter((k) => !FORBIDDEN.has(k));
    return fc
      .dictionary(key, arbitraryOf(extra, root, depth + 1), { minKeys, maxKeys: minKeys + 3 })
      .map((d) => ({ ...d }));
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(properties)) {
    if (depth >= MAX_DEPTH && !required.has(k)) continue;
    model[k] = arbitraryOf(v, root, depth + 1);
  }
  return fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
}
