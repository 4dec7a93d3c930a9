/**
 * A property initializer becomes the member's `default`; a default that breaks the member's own
 * constraints (`@Min(5) low = 1`) would make the decoder refuse a call that left the member out,
 * blaming the model for a value it never sent. Generation refuses it instead.
 * @internal
 */
import { compileSchemaValue } from '../protocol';
import type { JsonValue } from '../protocol';
import type { SchemaObject } from './manifest';
import { SCHEMA_MESSAGES as M, type SchemaIssue } from './messages';
import { tupleItems } from './schema-types';

/**
 * Checks the defaults of one DTO class's own members, wherever the class appears (the input, an
 * array of it, a nullable nested member, a recursive definition): `schema` is the class's merged
 * object schema, `defs` the definitions its members' `$ref`s name (`#/definitions/X`).
 * @internal
 */
export function checkClassDefaults(
  schema: SchemaObject,
  className: string,
  defs: ReadonlyMap<string, SchemaObject>,
  fail: (issue: SchemaIssue) => void,
): void {
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object') return;
  let definitions: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !('default' in value)) continue;
    definitions ??= relinked(Object.fromEntries(defs)) as Record<string, unknown>;
    const member = relinked(value) as SchemaObject;
    const message = refusal(member, definitions);
    if (message !== undefined) {
      fail(M.defaultBreaksConstraints(`${className}.${name}`, member['default'], message));
    }
  }
}

/** A copy with draft-07 `#/definitions/X` refs as `#/$defs/X` and draft-07 tuples as `prefixItems`. */
function relinked(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relinked);
  if (node === null || typeof node !== 'object') return node;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(node as SchemaObject)) {
    const value = k === '$ref' && typeof v === 'string' ? v.replace(/^#\/definitions\//, '#/$defs/') : relinked(v);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return tupleItems(out);
}

/** The first issue the member's schema (without its default) reports for the default, if any. */
function refusal(member: SchemaObject, definitions?: Record<string, unknown>): string | undefined {
  const { default: value, ...rest } = member;
  let compiled;
  try {
    compiled = compileSchemaValue(
      definitions === undefined || Object.keys(definitions).length === 0 ? rest : { ...rest, $defs: definitions },
    );
  } catch {
    return undefined; // a $ref into the root's $defs: checked by the decoder at run time instead
  }
  const issues = compiled.validate(value as JsonValue);
  return issues.length === 0 ? undefined : issues[0].message.replace(/^\(root\): /, '');
}
