/**
 * OpenAI strict mode (Structured Outputs for function calling, `strict: true`, Chat Completions
 * and Responses): the exported schema must list every property in `required` and close every
 * object with `additionalProperties: false`, within the keyword subset strict mode supports.
 *
 * The export keeps the contract, widening only:
 * - an optional property (not in `required`) is exported as required and nullable (`"type":
 *   ["string", "null"]` for primitive types, `null` added to an `enum`, else `anyOf: [..., {"type":
 *   "null"}]`, the form objects, arrays and references take); the
 *   model then sends `null` for "absent", which `restoreOptionalMembers` (strict-arguments.ts)
 *   maps back before admission. A property whose own schema already accepts null is left as is:
 *   its `null` stays `null`;
 * - keywords strict mode refuses but that only narrow the accepted values (`not`,
 *   `uniqueItems`, `minProperties`, `maxProperties`, `propertyNames`, `contains`, `minContains`,
 *   `maxContains`, `dependentRequired`, `unevaluatedItems`, `unevaluatedProperties: false`,
 *   `contentEncoding`, `contentMediaType`, and a `format` other than date-time, time, date,
 *   duration, email, hostname, ipv4, ipv6, uuid) are removed and reported (`removed` notes):
 *   admission still enforces them.
 *
 * Refused (ToolError at export, naming the tool, the JSON Pointer and the keyword): what strict
 * mode would read differently: an object open to other members (`additionalProperties` not
 * false, `patternProperties`, a nested object without `properties`), member-declaring or
 * alternative keywords (`allOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `dependencies`),
 * tuples (`prefixItems`, array `items`, `additionalItems`), an array without `items`, a schema
 * accepting any value (`{}`, `true`), `anyOf` at the root, dynamic references, and an optional
 * property inside an `anyOf` branch (its `null` could not be mapped back unambiguously).
 */
import type { Definition, JsonObject, JsonValue } from '../protocol';
import { acceptsNull, isJsonObject, resolveLocalRef } from './schema-keywords';
import { jsonPointer } from '../protocol/json';
import { misreadError } from './schema-review';

/** Formats strict mode supports (others are removed and reported). */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

const REMOVED = new Set([
  'not',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'unevaluatedItems',
  'contentEncoding',
  'contentMediaType',
]);

const MISREAD: Readonly<Record<string, string>> = {
  allOf:
    'strict mode does not support allOf, whose branches may declare members; merge the branches into one object schema',
  oneOf: 'strict mode does not support oneOf; use anyOf, with branches that cannot both match',
  if: 'strict mode does not support if/then/else; declare the members with properties and anyOf',
  then: 'strict mode does not support if/then/else; declare the members with properties and anyOf',
  else: 'strict mode does not support if/then/else; declare the members with properties and anyOf',
  dependentSchemas:
    'strict mode does not support dependentSchemas, which may declare members; declare them with properties',
  dependencies: 'strict mode does not support dependencies, which may declare members; declare them with properties',
  patternProperties:
    'strict mode closes every object (additionalProperties: false), so members matched by a pattern could never be sent; declare them with properties, or export without strict',
  prefixItems: 'strict mode does not support tuples; use one items schema, or an object with named members',
  additionalItems: 'strict mode does not support tuples; use one items schema, or an object with named members',
  contentSchema: 'strict mode does not support contentSchema; remove it or export without strict',
  $anchor: 'strict mode does not support anchors; use $defs and "#/$defs/Name" references',
  $dynamicRef: 'strict mode does not support dynamic references; use $defs and "#/$defs/Name" references',
  $dynamicAnchor: 'strict mode does not support dynamic references; use $defs and "#/$defs/Name" references',
  $recursiveRef: 'strict mode does not support recursive references; use $defs and "#/$defs/Name" references',
  $recursiveAnchor: 'strict mode does not support recursive references; use $defs and "#/$defs/Name" references',
};

/** A keyword the strict export removed: where (JSON Pointer into the original schema) and which. */
export interface RemovedKeyword {
  readonly pointer: string;
  readonly keyword: string;
}

/** The strict-mode schema of a definition, and the keywords left out of it. */
export interface StrictSchema {
  readonly schema: JsonObject;
  readonly removed: readonly RemovedKeyword[];
}

interface Context {
  readonly where: string;
  readonly tool: string;
  readonly root: JsonObject;
  readonly removed: RemovedKeyword[];
}

/**
 * Builds the strict-mode input schema of a definition (see the module notes). The definition is
 * not changed; the result is a new schema in the author's member order.
 * @param definition - a definition whose input schema has `"type": "object"`
 * @param where - the export function, for messages
 * @throws ToolError ERR_INVALID_DEFINITION `<where>: tool "x": <JSON Pointer>: keyword "k": <why>; <fix>`
 *   for the first construct strict mode would misread
 */
export function strictInputSchema(definition: Definition, where = 'strictInputSchema'): StrictSchema {
  const root = definition.inputSchema;
  const context: Context = { where, tool: definition.name, root, removed: [] };
  if ('anyOf' in root)
    throw misreadError(
      where,
      definition.name,
      '',
      'anyOf',
      'strict mode needs the root to be one object schema, not a union; split the tool or use one object with optional members',
    );
  const schema = strictNode(root, [], false, context);
  return { schema, removed: context.removed };
}

function strictNode(node: JsonValue, path: string[], inUnion: boolean, ctx: Context): JsonObject {
  const pointer = jsonPointer(path);
  if (isJsonObject(node)) {
    const misread = Object.keys(node).find((k) => k in MISREAD);
    if (misread !== undefined) throw misreadError(ctx.where, ctx.tool, pointer, misread, MISREAD[misread]);
  }
  if (!isJsonObject(node) || !describesValues(node)) {
    throw misreadError(
      ctx.where,
      ctx.tool,
      pointer,
      'type',
      node === false
        ? 'this schema accepts no value, which strict mode cannot express; remove the member'
        : 'this schema accepts any JSON value, which strict mode cannot express; give it a type (or export without strict)',
    );
  }
  const out: JsonObject = {};
  const isObject =
    node.type === 'object' ||
    (Array.isArray(node.type) && node.type.includes('object')) ||
    isJsonObject(node.properties);
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'items' && Array.isArray(value))
      throw misreadError(ctx.where, ctx.tool, pointer, keyword, MISREAD.prefixItems);
    if (REMOVED.has(keyword) || (keyword === 'format' && !STRICT_FORMATS.has(String(value)))) {
      ctx.removed.push({ pointer, keyword });
      continue;
    }
    if (keyword === 'unevaluatedProperties' || keyword === 'additionalProperties') {
      if (value !== false)
        throw misreadError(
          ctx.where,
          ctx.tool,
          pointer,
          keyword,
          MISREAD.patternProperties.replace('members matched by a pattern', 'other members'),
        );
      if (keyword === 'unevaluatedProperties') ctx.removed.push({ pointer, keyword });
      continue;
    }
    if (keyword === 'required') {
      // Next to a $ref (or anywhere without properties) nothing below re-states it: it is removed, and reported.
      if (!isJsonObject(node.properties)) ctx.removed.push({ pointer, keyword });
      continue;
    }
    if (keyword === 'properties' && isJsonObject(value)) {
      out.properties = strictProperties(node, value, path, inUnion, ctx);
    } else if (keyword === 'items' || keyword === '$defs' || keyword === 'definitions' || keyword === 'anyOf') {
      out[keyword] = strictChildren(keyword, value, path, inUnion, ctx);
    } else {
      out[keyword] = structuredClone(value);
    }
  }
  if (typeof node.$ref === 'string' && inUnion) checkNoOptionalBehindRef(node.$ref, pointer, ctx);
  if (isObject) {
    if (!isJsonObject(node.properties) && path.length > 0 && node.additionalProperties !== false) {
      throw misreadError(
        ctx.where,
        ctx.tool,
        pointer,
        'properties',
        'an object with no declared members is open to any member, which strict mode cannot express; declare its members (or export without strict)',
      );
    }
    out.required = Object.keys(isJsonObject(out.properties) ? out.properties : {});
    out.additionalProperties = false;
  }
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined) {
    throw misreadError(
      ctx.where,
      ctx.tool,
      pointer,
      'items',
      'strict mode needs an items schema for every array; add one',
    );
  }
  return out;
}

function strictProperties(
  node: JsonObject,
  properties: JsonObject,
  path: string[],
  inUnion: boolean,
  ctx: Context,
): JsonObject {
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : [],
  );
  const out: JsonObject = {};
  for (const [name, member] of Object.entries(properties)) {
    const memberPath = [...path, 'properties', name];
    const strict = strictNode(member, memberPath, inUnion, ctx);
    if (required.has(name) || acceptsNull(member, ctx.root)) {
      out[name] = strict;
      continue;
    }
    if (inUnion) {
      throw misreadError(
        ctx.where,
        ctx.tool,
        jsonPointer(memberPath),
        'required',
        'an optional member inside an anyOf branch cannot be exported as nullable and mapped back unambiguously; make it required (or nullable and required)',
      );
    }
    out[name] = nullable(strict);
  }
  return out;
}

function strictChildren(keyword: string, value: JsonValue, path: string[], inUnion: boolean, ctx: Context): JsonValue {
  if (keyword === 'items') return strictNode(value, [...path, 'items'], inUnion, ctx);
  if (keyword === 'anyOf' && Array.isArray(value))
    return value.map((b, i) => strictNode(b, [...path, 'anyOf', String(i)], true, ctx));
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [name, def] of Object.entries(value)) out[name] = strictNode(def, [...path, keyword, name], false, ctx);
    return out;
  }
  return structuredClone(value);
}

/** True when a schema says something about the values it accepts (a type, enum, const, ref or union). */
function describesValues(node: JsonObject): boolean {
  return (
    'type' in node || 'enum' in node || 'const' in node || '$ref' in node || 'anyOf' in node || 'properties' in node
  );
}

/** Makes a strict schema accept null as well (the model's way of saying "absent"). */
function nullable(schema: JsonObject): JsonObject {
  const { type } = schema;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  const primitive =
    types.length > 0 && types.every((t) => t === 'string' || t === 'number' || t === 'integer' || t === 'boolean');
  const withNull = (values: JsonValue[]): JsonValue[] => (values.includes(null) ? values : [...values, null]);
  if (primitive && !('const' in schema) && !('$ref' in schema)) {
    const out: JsonObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = withNull(schema.enum);
    return out;
  }
  if (Array.isArray(schema.enum) && type === undefined && !('const' in schema) && !('$ref' in schema))
    return { ...schema, enum: withNull(schema.enum) };
  if (Array.isArray(schema.anyOf) && type === undefined && !('$ref' in schema))
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, title, ...rest } = schema;
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: 'null' }],
  };
}

/** Refuses a union branch that reaches, through local references, an object with an optional member. */
function checkNoOptionalBehindRef(ref: string, pointer: string, ctx: Context): void {
  const seen = new Set<unknown>();
  const stack: Array<JsonValue | undefined> = [resolveLocalRef(ctx.root, ref)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isJsonObject(node) || seen.has(node)) continue;
    seen.add(node);
    if (isJsonObject(node.properties)) {
      const required = Array.isArray(node.required) ? node.required : [];
      for (const [name, member] of Object.entries(node.properties)) {
        if (!required.includes(name) && !acceptsNull(member, ctx.root)) {
          throw misreadError(
            ctx.where,
            ctx.tool,
            pointer,
            '$ref',
            `the referenced schema ${JSON.stringify(ref)} has the optional member ${JSON.stringify(name)}, which cannot be mapped back unambiguously inside an anyOf branch; make it required (or nullable and required)`,
          );
        }
        stack.push(member);
      }
    }
    if (typeof node.$ref === 'string') stack.push(resolveLocalRef(ctx.root, node.$ref));
    if (isJsonObject(node.items)) stack.push(node.items);
  }
}
