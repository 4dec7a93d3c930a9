/**
 * Undoes two silent losses of class-transformer's `plainToInstance` before validation (DESIGN.md
 * section 4: nothing is dropped or invented):
 * - free-form values (`Record<string, T>`, `unknown`, `@IsObject()` objects) lose the keys that
 *   name an Object.prototype method (`toString`, `isPrototypeOf`, ...): they are copied again from
 *   the admitted JSON value, which was already checked for `__proto__` / `constructor`;
 * - an absent member whose wire name is an Object.prototype method (`hasOwnProperty`, `valueOf`)
 *   receives that inherited function (or its text): it gets its default (or stays absent) instead.
 * @internal
 */
import type { JsonValue } from '../protocol';
import type { ClassPlan } from './plan';

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
      else if (target[prop.property] !== fresh[prop.property] && (typeof fresh[prop.property] !== 'object' || fresh[prop.property] === null)) target[prop.property] = fresh[prop.property];
      continue;
    }
    const value = raw[prop.wire];
    if (prop.kind === 'any') {
      target[prop.property] = copyJson(value);
    } else if (prop.kind === 'nested' && prop.nested !== undefined && target[prop.property] !== null && typeof target[prop.property] === 'object') {
      repairInstance(target[prop.property] as object, value, prop.nested);
    } else if (prop.kind === 'array' && Array.isArray(value) && Array.isArray(target[prop.property])) {
      const items = target[prop.property] as unknown[];
      if (prop.items === 'any') value.forEach((item, i) => (items[i] = copyJson(item)));
      else if (prop.items === 'nested' && prop.nested !== undefined) {
        value.forEach((item, i) => {
          if (items[i] !== null && typeof items[i] === 'object') repairInstance(items[i] as object, item, prop.nested!);
        });
      }
    }
  }
}

/** A plain copy of an admitted JSON value (own data properties only, any member name). */
function copyJson(value: JsonValue): JsonValue {
  return value === null || typeof value !== 'object' ? value : (JSON.parse(JSON.stringify(value)) as JsonValue);
}
