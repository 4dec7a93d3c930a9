/**
 * The JSON Schema (draft 2020-12 and draft-07) keyword vocabulary the provider projections need:
 * which keywords hold subschemas, which are annotations, and a walk over every subschema of a
 * schema with its RFC 6901 JSON Pointer. Shared by the keyword review (`schema-review.ts`) and
 * the strict-mode export (`strict.ts`).
 * @internal
 */
import type { JsonObject, JsonValue } from '../protocol';
import { jsonPointer } from '../protocol/json';

/** Keywords whose value is one subschema. @internal */
export const SINGLE_SCHEMA_KEYWORDS: readonly string[] = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
];

/** Keywords whose value is an array of subschemas (`items` too, in its draft-07 tuple form). @internal */
export const ARRAY_SCHEMA_KEYWORDS: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/** Keywords whose value maps names to subschemas. @internal */
export const MAP_SCHEMA_KEYWORDS: readonly string[] = [
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'properties',
];

/**
 * Keywords that describe but never constrain: no provider needs them enforced, so the keyword
 * review never reports them. @internal
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$vocabulary',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** One subschema met by `walkSchema`: where it is (segments and pointer) and the schema itself. @internal */
export interface SchemaNode {
  readonly path: readonly string[];
  readonly pointer: string;
  readonly schema: JsonObject | boolean;
}

/** True for a JSON object (not null, not an array). @internal */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Visits every subschema of `root` (root first, then depth-first in member order). Iterative, so
 * deep schemas never exhaust the call stack. Values of `enum`, `const`, `default` and `examples`
 * are data, never visited. Draft-07 `dependencies` entries that are arrays of names are skipped.
 * @internal
 */
export function walkSchema(root: JsonValue, visit: (node: SchemaNode) => void): void {
  const stack: Array<{ schema: JsonValue; path: string[] }> = [{ schema: root, path: [] }];
  while (stack.length > 0) {
    const { schema, path } = stack.pop() as { schema: JsonValue; path: string[] };
    if (typeof schema !== 'boolean' && !isJsonObject(schema)) continue;
    visit({ path, pointer: jsonPointer(path), schema });
    if (typeof schema === 'boolean') continue;
    const children: Array<{ schema: JsonValue; path: string[] }> = [];
    for (const [keyword, value] of Object.entries(schema)) {
      if (SINGLE_SCHEMA_KEYWORDS.includes(keyword) || (keyword === 'items' && !Array.isArray(value))) {
        children.push({ schema: value, path: [...path, keyword] });
      } else if (ARRAY_SCHEMA_KEYWORDS.includes(keyword) && Array.isArray(value)) {
        value.forEach((child, i) => children.push({ schema: child, path: [...path, keyword, String(i)] }));
      } else if (MAP_SCHEMA_KEYWORDS.includes(keyword) && isJsonObject(value)) {
        for (const [name, child] of Object.entries(value)) {
          if (keyword === 'dependencies' && Array.isArray(child)) continue;
          children.push({ schema: child, path: [...path, keyword, name] });
        }
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`, any RFC 6901 pointer into
 * the root). Returns undefined for remote or unresolvable references. @internal
 */
export function resolveLocalRef(root: JsonObject, ref: string): JsonObject | boolean | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: JsonValue = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else return undefined;
  }
  return typeof node === 'boolean' || isJsonObject(node) ? node : undefined;
}

/**
 * Whether a schema accepts `null`, read from its keywords: every keyword that can refuse null must
 * let it through (`type` including `"null"`, `enum` or `const` holding null, an `anyOf`/`oneOf`
 * branch and every `allOf` branch that does, a local `$ref` to one, a `not` whose schema refuses
 * null); a schema with none of these accepts it. `{"type":"string","enum":["a",null]}` and
 * `{"not":{"type":"null"}}` refuse null. Cycle-safe. @internal
 */
export function acceptsNull(schema: JsonValue | undefined, root: JsonObject, seen = new Set<unknown>()): boolean {
  if (schema === true) return true;
  if (!isJsonObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    if (!acceptsNull(target, root, seen)) return false;
  }
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  const type = schema.type;
  if (typeof type === 'string' && type !== 'null') return false;
  if (Array.isArray(type) && !type.includes('null')) return false;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && !branches.some((b) => acceptsNull(b, root, seen))) return false;
  }
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && !allOf.every((b) => acceptsNull(b, root, seen))) return false;
  // `not` flips the verdict, so its schema is judged on its own (a cycle through it proves nothing).
  if (schema.not !== undefined && acceptsNull(schema.not, root, new Set(seen))) return false;
  return true;
}
