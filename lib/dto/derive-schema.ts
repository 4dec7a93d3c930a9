/**
 * The conservative input schema derived at run time from a DTO's metadata, used when no schema
 * from the build-time generator (the manifest) is given. It states what the decoder checks
 * structurally (types, required, no extra members) and the enum values; precise constraints
 * (lengths, patterns, formats, descriptions) are the generator's job.
 */
import type { JsonObject, JsonValue } from '../protocol';
import { IS_ENUM } from 'class-validator';
import type { ClassPlan, PropertyPlan, ValueKind } from './plan';
import { enumValues } from './overrides';
import { DATE_TIME_PATTERN } from './contract-rules';

/** The schema of a tool that takes no input: only `{}`. */
export const EMPTY_INPUT_SCHEMA: JsonObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({}) as JsonObject,
  additionalProperties: false,
}) as JsonObject;

/**
 * Derives `{"type":"object","properties":{...},"additionalProperties":false,"required":[...]}`
 * for `plan`; nested DTOs inline, a recursive DTO becomes `{"type":"object"}` where it recurs.
 * @internal
 */
export function deriveSchema(plan: ClassPlan, seen: ReadonlySet<ClassPlan> = new Set()): JsonObject {
  if (seen.has(plan)) return { type: 'object' };
  const inner = new Set(seen).add(plan);
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const p of plan.properties) {
    properties[p.wire] = propertySchema(p, inner);
    if (!p.optional && !p.hasDefault && !p.conditional) required.push(p.wire);
  }
  const schema: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return schema;
}

function propertySchema(p: PropertyPlan, seen: ReadonlySet<ClassPlan>): JsonObject {
  const schema = kindSchema(p.kind, p.nested, seen);
  if (p.kind === 'array' && p.items !== undefined && p.items !== 'any')
    schema.items = kindSchema(p.items, p.nested, seen);
  const enumRecord = p.records.find((r) => r.name === IS_ENUM);
  if (enumRecord !== undefined) {
    const values = enumValues(enumRecord.constraints?.[0]).filter(
      (v): v is string | number => typeof v === 'string' || typeof v === 'number',
    );
    const target =
      enumRecord.each && p.kind === 'array'
        ? ((schema.items as JsonObject | undefined) ?? (schema.items = {}))
        : schema;
    (target as JsonObject).enum = values as JsonValue[];
  }
  // @IsDefined() refuses null (structure.ts); a free value's {} would admit it.
  if (p.kind === 'any' && p.defined.member) schema.not = { type: 'null' };
  if (p.hasDefault && isJson(p.defaultValue)) schema.default = p.defaultValue as JsonValue;
  return schema;
}

function kindSchema(kind: ValueKind, nested: ClassPlan | undefined, seen: ReadonlySet<ClassPlan>): JsonObject {
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
      return { type: kind };
    case 'date':
      // What the decoder takes and the generator says for a Date member (lib/dto/contract-rules.ts).
      return { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN };
    case 'nested':
      return nested === undefined ? { type: 'object' } : deriveSchema(nested, seen);
    case 'any':
      return {};
  }
}

function isJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return false; // object defaults are left to the generator
}
