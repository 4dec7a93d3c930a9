/**
 * dtoInput's encoder: a decoded DTO instance stated as JSON through its plan, so that a policy sees
 * the value the tool runs with (lib/protocol/func.ts, FuncConfig.encode). Only the plan's members
 * appear, under their wire names (`@Expose({ name })`), in the plan's order (the DTO's declared
 * order, base class members first); what the decoder dropped cannot reappear.
 * @internal
 */
import type { JsonObject, JsonValue } from '../protocol';
import type { ClassPlan, PropertyPlan } from './plan';

/**
 * The JSON object of `instance`, decoded by the plan `plan`: each own member the instance holds (a
 * default of an absent member included; `undefined` is left out) under its wire name; nested DTOs
 * (members and array items) encoded through their own plans; Dates (members and array items of
 * kind `date`) as RFC 3339 strings through `toJSON()`. Any other value (free-form members, a
 * `@Transform` result) is returned as the instance holds it: the caller (FuncTool) converts it
 * strictly and refuses what JSON cannot carry.
 * @internal
 */
export function encodeInstance(plan: ClassPlan, instance: object): JsonObject {
  const out: JsonObject = {};
  const source = instance as Record<string, unknown>;
  for (const p of plan.properties) {
    // Own members only: an absent member named after an Object.prototype method (valueOf) would
    // read the inherited function (lib/dto/repair.ts leaves such a member absent).
    const value = Object.prototype.hasOwnProperty.call(source, p.property) ? source[p.property] : undefined;
    if (value === undefined) continue;
    const member = encodeMember(p, value);
    // A wire name "__proto__" would set the prototype and vanish from the text. No tool has one
    // today (lib/protocol/schema.ts refuses it in a schema), so this only keeps it that way.
    if (p.wire === '__proto__')
      Object.defineProperty(out, p.wire, { value: member, enumerable: true, writable: true, configurable: true });
    else out[p.wire] = member;
  }
  return out;
}

function encodeMember(p: PropertyPlan, value: unknown): JsonValue {
  if (p.kind === 'nested' && p.nested !== undefined && isObject(value)) return encodeInstance(p.nested, value);
  if (p.kind === 'date') return encodeDate(value);
  if (p.kind === 'array' && Array.isArray(value)) {
    const nested = p.items === 'nested' ? p.nested : undefined;
    if (nested !== undefined)
      return value.map((item: unknown) => (isObject(item) ? encodeInstance(nested, item) : item)) as JsonValue;
    if (p.items === 'date') return value.map(encodeDate);
  }
  return value as JsonValue;
}

function encodeDate(value: unknown): JsonValue {
  return value instanceof Date ? (value.toJSON() as JsonValue) : (value as JsonValue);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
