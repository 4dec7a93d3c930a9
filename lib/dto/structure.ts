/**
 * The structural check of a raw value against a DTO plan, before any transformation: unknown
 * members refused at every depth, JSON kinds checked against `design:type` (no coercion), `null`
 * refused unless the input schema admitted it, Date members as RFC 3339 date-time strings, nested DTOs as
 * objects and arrays of them holding objects (docs/architecture.md section 4 rules 1, 2, 4 and 6).
 */
import type { ClassPlan, PropertyPlan, ValueKind } from './plan';
import { isDateTime } from './contract-rules';
import { jsonKind } from './issues';
import {
  DATE_OUT_OF_YEARS,
  REQUIRED,
  dtoTooDeep,
  kindMismatch,
  notDateTime,
  notNull,
  notObject,
  unknownMember,
} from './messages';
import type { IssuePath, IssueSink } from './issues';

/** How many accepted member names an unknown-member message lists. */
const LISTED_MEMBERS = 20;

/**
 * How deep DTO objects may nest in one argument value (the root DTO is level 1). Only a recursive
 * DTO (`children?: TreeNode[]`) can go deeper; class-transformer and class-validator recurse once
 * per level with large frames, so this bound is what keeps an admitted value (JSON nesting up to
 * 10,000, lib/protocol json.ts) from overflowing the stack: deeper is a `too_deep` issue. @internal
 */
export const MAX_DTO_DEPTH = 100;

/** Options of checkStructure. @internal */
export interface StructureOptions {
  /** The value already passed the given input schema, so every `null` in it is sanctioned there. */
  readonly nullSanctioned: boolean;
}

/**
 * Checks `value` against `plan`, adding issues to `sink`. Recursive along the DTO only, at most
 * MAX_DTO_DEPTH levels: a DTO object deeper than that is one `too_deep` issue, and its content is
 * not walked. Free-form values are not walked here (lib/dto/forbidden.ts scans them, iteratively).
 * @internal
 */
export function checkStructure(value: unknown, plan: ClassPlan, sink: IssueSink, options: StructureOptions): void {
  if (!isObject(value)) {
    sink.add({ code: 'dto', path: [], constraint: 'type', message: notObject(jsonKind(value)) });
    return;
  }
  checkObject(value, plan, [], sink, options, 1);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkObject(
  value: Record<string, unknown>,
  plan: ClassPlan,
  path: IssuePath,
  sink: IssueSink,
  options: StructureOptions,
  depth: number,
): void {
  if (depth > MAX_DTO_DEPTH) {
    sink.add({ code: 'too_deep', path, message: dtoTooDeep(plan.name, MAX_DTO_DEPTH) });
    return;
  }
  let unknown: string[] | undefined;
  for (const key of Object.keys(value)) if (!plan.byWire.has(key)) (unknown ??= []).push(key);
  if (unknown !== undefined) {
    const accepted = plan.properties.slice(0, LISTED_MEMBERS).map((p) => p.wire);
    const more = plan.properties.length > LISTED_MEMBERS;
    sink.add({
      code: 'unknown_member',
      path: [...path, unknown[0]],
      message: unknownMember(unknown[0], unknown.length, plan.name, accepted, more),
    });
  }
  for (const prop of plan.properties) {
    if (!Object.prototype.hasOwnProperty.call(value, prop.wire)) {
      if (!prop.optional && !prop.hasDefault && !prop.conditional) {
        sink.add({ code: 'dto', path: [...path, prop.wire], constraint: 'isDefined', message: REQUIRED });
      }
      continue;
    }
    const v = value[prop.wire];
    if (v === null && prop.defined.member) defined(sink, [...path, prop.wire]);
    // A member of a primitive kind that has it (nearly every member) needs no path.
    else if (typeof v !== prop.kind) checkValue(v, prop.kind, prop, [...path, prop.wire], sink, options, depth);
  }
}

/** `@IsDefined()` refuses null, whatever the type or the input schema admit. */
function defined(sink: IssueSink, at: IssuePath): void {
  sink.add({ code: 'dto', path: at, constraint: 'isDefined', message: notNull() });
}

function checkValue(
  v: unknown,
  kind: ValueKind,
  prop: PropertyPlan,
  at: IssuePath,
  sink: IssueSink,
  options: StructureOptions,
  depth: number,
): void {
  if (v === null) {
    if (options.nullSanctioned) return;
    sink.add({ code: 'dto', path: at, constraint: 'type', message: notNull(prop.optional) });
    return;
  }
  switch (kind) {
    case 'any':
      return;
    case 'string':
    case 'number':
    case 'boolean':
      if (typeof v !== kind) mismatch(sink, at, `a ${kind}`, v);
      return;
    case 'date':
      if (typeof v !== 'string' || !isDateTime(v)) {
        const received =
          typeof v !== 'string' ? jsonKind(v) : isDateTime(v, true) ? DATE_OUT_OF_YEARS : 'another string';
        sink.add({ code: 'dto', path: at, constraint: 'type', message: notDateTime(received) });
      }
      return;
    case 'nested':
      if (!isObject(v)) mismatch(sink, at, 'an object', v);
      else checkObject(v, prop.nested as ClassPlan, at, sink, options, depth + 1);
      return;
    case 'array':
      if (!Array.isArray(v)) {
        mismatch(sink, at, 'an array', v);
        return;
      }
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null && prop.defined.items) defined(sink, [...at, i]);
        else if (prop.items !== undefined && prop.items !== 'array') {
          checkValue(v[i], prop.items, prop, [...at, i], sink, options, depth);
        }
      }
      return;
  }
}

function mismatch(sink: IssueSink, at: IssuePath, expected: string, v: unknown): void {
  sink.add({ code: 'dto', path: at, constraint: 'type', message: kindMismatch(expected, jsonKind(v)) });
}
