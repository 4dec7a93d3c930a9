/**
 * Undoes two silent losses of class-transformer's `plainToInstance` before validation (docs/architecture.md
 * section 4: nothing is dropped or invented):
 * - free-form values (`Record<string, T>`, `unknown`, `@IsObject()` objects) lose the keys that
 *   name an Object.prototype method (`toString`, `isPrototypeOf`, ...): they are copied again from
 *   the admitted JSON value, which was already checked for `__proto__` / `constructor`;
 * - an absent member whose wire name is an Object.prototype method (`hasOwnProperty`, `valueOf`)
 *   receives that inherited function (or its text): it gets its default (or stays absent) instead.
 * @internal
 */
import type { JsonValue } from '../protocol';
import type { ClassPlan, PropertyPlan } from './plan';
import { hasTransform, plainTransforms } from './reflection';

const own = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Repairs `instance` (built by plainToInstance from `raw`) in place, following `plan`. @internal */
export function repairInstance(instance: object, raw: JsonValue, plan: ClassPlan): void {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return;
  const target = instance as Record<string, unknown>;
  let fresh: Record<string, unknown> | undefined;
  for (const prop of plan.properties) {
    if (!own(raw, prop.wire)) {
      // Absent from the input: keep exactly what a fresh instance has (its default, or nothing),
      // whatever class-transformer read through the prototype (it may even have stringified it).
      fresh ??= new (plan.dto as new () => Record<string, unknown>)();
      if (fresh[prop.property] === undefined) delete target[prop.property];
      else if (
        target[prop.property] !== fresh[prop.property] &&
        (typeof fresh[prop.property] !== 'object' || fresh[prop.property] === null)
      )
        target[prop.property] = fresh[prop.property];
      continue;
    }
    const value = raw[prop.wire];
    if (isFree(prop)) {
      // class-transformer never saw this member (transformable): its @Transform, if any, runs
      // here, on the lossless copy, as class-transformer runs it (its own executor, same options).
      const copy = copyJson(value);
      target[prop.property] = hasTransform(plan.dto, prop.property)
        ? plainTransforms(copy, plan.dto, prop.property, raw)
        : copy;
    } else if (
      prop.kind === 'nested' &&
      prop.nested !== undefined &&
      target[prop.property] !== null &&
      typeof target[prop.property] === 'object'
    ) {
      repairInstance(target[prop.property] as object, value, prop.nested);
    } else if (prop.kind === 'array' && Array.isArray(value) && Array.isArray(target[prop.property])) {
      const items = target[prop.property] as unknown[];
      if (prop.items === 'nested' && prop.nested !== undefined) {
        value.forEach((item, i) => {
          if (items[i] !== null && typeof items[i] === 'object') repairInstance(items[i] as object, item, prop.nested!);
        });
      }
    }
  }
}

/**
 * Whether class-transformer is kept away from a member's value: a free-form value (`unknown`, a
 * Record) or an array whose items are not DTOs or Dates. class-transformer recurses along such a
 * value (and so does JSON.stringify), so an admitted value 10,000 levels deep would overflow the
 * stack; repairInstance copies it instead, iteratively, then applies the member's `@Transform`
 * (a transform is never skipped). Its kinds were checked before (structure.ts). @internal
 */
export function isFree(prop: PropertyPlan): boolean {
  return prop.kind === 'any' || (prop.kind === 'array' && prop.items !== 'nested' && prop.items !== 'date');
}

/**
 * What class-transformer is given of an admitted value: the value along the DTO plan, without the
 * members it must not walk (isFree), which repairInstance copies afterwards. Its depth is the DTO
 * nesting depth, which checkStructure bounds (MAX_DTO_DEPTH). @internal
 */
export function transformable(raw: JsonValue, plan: ClassPlan): JsonValue {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Record<string, JsonValue> = {};
  for (const prop of plan.properties) {
    if (!own(raw, prop.wire) || isFree(prop)) continue;
    const value = raw[prop.wire] as JsonValue;
    const nested = prop.nested;
    if (prop.kind === 'nested' && nested !== undefined) out[prop.wire] = transformable(value, nested);
    else if (prop.kind === 'array' && nested !== undefined && Array.isArray(value))
      out[prop.wire] = value.map((v) => transformable(v, nested));
    else out[prop.wire] = value;
  }
  return out;
}

/**
 * A plain copy of an admitted JSON value (own data properties only, any member name: the forbidden
 * ones were refused before, lib/dto/forbidden.ts). Iterative, so no admitted depth overflows it.
 * @internal
 */
export function copyJson(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  const root: JsonValue = Array.isArray(value) ? [] : {};
  const stack: Array<readonly [JsonValue, JsonValue]> = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as readonly [JsonValue, JsonValue];
    for (const key of Object.keys(from as object)) {
      const v = (from as Record<string, JsonValue>)[key] as JsonValue;
      const copy: JsonValue = v === null || typeof v !== 'object' ? v : Array.isArray(v) ? [] : {};
      (to as Record<string, JsonValue>)[key] = copy;
      if (copy !== v) stack.push([v, copy]);
    }
  }
  return root;
}
