import type { SchemaObject } from './manifest';

/**
 * Small helpers over the JSON Schema fragments typescript-json-schema emits: which JSON types a
 * fragment admits, and where the items of an array member live.
 * @internal
 */

/** Resolves a local `$ref` (`#/definitions/X` or `#/$defs/X`) against the definitions being built. */
export type RefResolver = (ref: string) => SchemaObject | undefined;

/**
 * The `anyOf` and `oneOf` member lists of a fragment, with their keyword, each read when reached (a
 * caller may rewrite the fragment in between). @internal
 */
export function* unions(schema: SchemaObject): Generator<[key: string, members: unknown[]]> {
  for (const key of ['anyOf', 'oneOf']) {
    const members = schema[key];
    if (Array.isArray(members)) yield [key, members];
  }
}

/** Whether a value is a schema object (not null, not an array). @internal */
export function isSchema(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The JSON types (`string`, `number`, `integer`, `boolean`, `null`, `object`, `array`) a fragment
 * admits, read from `type`, `enum`, `const`, `anyOf`/`oneOf` members and local refs.
 * @internal
 */
export function jsonTypes(schema: SchemaObject, resolve: RefResolver, seen = new Set<SchemaObject>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(schema)) return out;
  seen.add(schema);
  const type = schema['type'];
  if (typeof type === 'string') {
    out.add(type);
  } else if (Array.isArray(type)) {
    for (const t of type) if (typeof t === 'string') out.add(t);
  } else if (Array.isArray(schema['enum'])) {
    for (const v of schema['enum'] as unknown[]) out.add(typeOfValue(v));
  } else if ('const' in schema) {
    out.add(typeOfValue(schema['const']));
  }
  for (const [, members] of unions(schema))
    for (const m of members) if (isSchema(m)) for (const t of jsonTypes(m, resolve, seen)) out.add(t);
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = resolve(ref);
    if (target !== undefined) for (const t of jsonTypes(target, resolve, seen)) out.add(t);
  }
  return out;
}

function typeOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/**
 * The schema of the items of an array member: `items` of the fragment itself, or of its array member
 * when the fragment is a nullable union (`anyOf: [{ type: "array" }, { type: "null" }]`).
 * @internal
 */
export function arrayItems(schema: SchemaObject): SchemaObject | undefined {
  const items = schema['items'];
  if (isSchema(items)) return items;
  for (const [, members] of unions(schema))
    for (const m of members) if (isSchema(m) && isSchema(m['items'])) return m['items'] as SchemaObject;
  return undefined;
}

/**
 * Rewrites the `type` keyword of a fragment (and of its `anyOf`/`oneOf` members) with `map`, which
 * receives one type name and returns its replacement, or `undefined` to drop it. Returns whether
 * any type keyword was found.
 * @internal
 */
export function mapTypes(schema: SchemaObject, map: (type: string) => string | undefined): boolean {
  let found = false;
  const type = schema['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    found = true;
    const list = (Array.isArray(type) ? type : [type]).map((t) => (typeof t === 'string' ? map(t) : undefined));
    const kept = [...new Set(list.filter((t): t is string => t !== undefined))];
    schema['type'] = kept.length === 1 ? kept[0] : kept;
  }
  for (const [, members] of unions(schema)) for (const m of members) if (isSchema(m) && mapTypes(m, map)) found = true;
  return found;
}

/**
 * Narrows a fragment so that it no longer admits `null`: `"null"` leaves `type` lists and `enum`,
 * and `anyOf`/`oneOf` members that admit only null are dropped (a single member left is merged
 * into the fragment); a fragment that admits any value (`unknown`: no type, enum, const, anyOf,
 * oneOf, allOf or $ref) gets `not: {"type": "null"}`. Used for the items of an array whose
 * `each: true` constraints refuse null, and for a member with `@IsDefined()`.
 * @internal
 */
export function dropNull(schema: SchemaObject): void {
  if (!['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'not'].some((k) => k in schema)) {
    schema['not'] = { type: 'null' };
    return;
  }
  const type = schema['type'];
  if (Array.isArray(type) && type.includes('null')) {
    const kept = type.filter((t) => t !== 'null');
    schema['type'] = kept.length === 1 ? kept[0] : kept;
  }
  if (Array.isArray(schema['enum'])) schema['enum'] = (schema['enum'] as unknown[]).filter((v) => v !== null);
  for (const [key, members] of unions(schema)) {
    const kept = members.filter((m) => !(isSchema(m) && onlyNull(m)));
    for (const m of kept) if (isSchema(m)) dropNull(m);
    setMembers(schema, key, kept);
  }
}

/**
 * Sets the `anyOf`/`oneOf` members `key` of a fragment to `kept`; a single schema left is merged
 * into the fragment instead (its keywords the fragment does not have). @internal
 */
export function setMembers(schema: SchemaObject, key: string, kept: unknown[]): void {
  const single = kept.length === 1 ? kept[0] : undefined;
  if (isSchema(single)) {
    delete schema[key];
    for (const [k, v] of Object.entries(single)) if (!(k in schema)) schema[k] = v;
  } else {
    schema[key] = kept;
  }
}

/**
 * typescript-json-schema writes tuples in draft-07 form (`items: [a, b]`, `additionalItems`), which
 * draft 2020-12 refuses: they become `prefixItems` (and `items` for the rest, when it was said).
 * @internal
 */
export function tupleItems(schema: SchemaObject): SchemaObject {
  if (schema['type'] !== 'array' || !Array.isArray(schema['items'])) return schema;
  const { items, additionalItems, ...rest } = schema;
  const out: SchemaObject = { ...rest, prefixItems: items };
  if (additionalItems !== undefined) out['items'] = additionalItems;
  return out;
}

function onlyNull(schema: SchemaObject): boolean {
  if (schema['type'] === 'null') return true;
  if ('const' in schema && schema['const'] === null) return true;
  return Array.isArray(schema['enum']) && (schema['enum'] as unknown[]).every((v) => v === null);
}
