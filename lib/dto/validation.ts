/**
 * class-validator's verdict as admission issues: validateSync with the strict options, its error
 * tree flattened into one `dto` issue per failing constraint (property chain -> wire-name path,
 * constraint name -> `constraint`), minus the constraints lib/dto decides itself (overrides.ts).
 */
import { validateSync } from 'class-validator';
import type { ValidationError } from 'class-validator';
import type { ClassPlan } from './plan';
import { reachablePlans } from './plan';
import { MATCHES } from 'class-validator';
import { OVERRIDDEN, checkOverrides, countsDecimals } from './overrides';
import type { ValidationRecord } from './reflection';
import type { IssuePath, IssueSink } from './issues';

/** The options every DTO is validated with (docs/architecture.md section 4). @internal */
export const VALIDATOR_OPTIONS = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
});

/** Validates a transformed instance; adds its issues to `sink`. @internal */
export function validateInstance(instance: object, plan: ClassPlan, sink: IssueSink): void {
  // forbidUnknownValues refuses an instance with no metadata at all: an empty DTO has nothing to check.
  const errors =
    plan.properties.length === 0 ? [] : withoutDecimalCounts(plan, () => validateSync(instance, VALIDATOR_OPTIONS));
  for (const e of errors) flatten(e, plan, [], sink, instance);
  checkOverrides(instance, plan, [], sink);
}

const decimalRecordsOf = new WeakMap<ClassPlan, readonly ValidationRecord[]>();

/**
 * The records class-validator must not run as written, of `plan` and of every plan it nests:
 * `@IsNumber({ maxDecimalPlaces })` and `@Matches` (overrides.ts gives both verdicts).
 */
function decimalRecords(plan: ClassPlan): readonly ValidationRecord[] {
  const cached = decimalRecordsOf.get(plan);
  if (cached !== undefined) return cached;
  const found = new Set<ValidationRecord>();
  for (const p of reachablePlans(plan))
    for (const prop of p.properties)
      for (const r of prop.records) if (countsDecimals(r) || r.name === MATCHES) found.add(r);
  const list = [...found];
  decimalRecordsOf.set(plan, list);
  return list;
}

/**
 * Runs `validate` with `maxDecimalPlaces` hidden from class-validator's isNumber, which reads the
 * places off `String(value)` and throws on `1e-7` (overrides.ts counts them instead). The records
 * are class-validator's shared metadata: each gets an option object without the count for the
 * synchronous call only, and its own constraints back afterwards, whatever happens. A `@Matches`
 * record gets the empty pattern (matches every string; class-validator still refuses a non-string)
 * the same way, so class-validator never runs the backtracking RegExp on model-sent text: its
 * verdict is overrides.ts's, on RE2 in linear time.
 */
function withoutDecimalCounts<T>(plan: ClassPlan, validate: () => T): T {
  const records = decimalRecords(plan);
  if (records.length === 0) return validate();
  const saved = records.map((r) => r.constraints);
  try {
    for (const r of records) {
      const [options, ...rest] = r.constraints;
      r.constraints = r.name === MATCHES ? [''] : [{ ...(options as object), maxDecimalPlaces: undefined }, ...rest];
    }
    return validate();
  } finally {
    records.forEach((r, i) => (r.constraints = saved[i] as unknown[]));
  }
}

/**
 * A `null` that reaches class-validator was sanctioned by the input schema (the structural check
 * refuses every other null), so the member's checks do not apply to it: `x: string | null` with
 * `@IsString()` accepts null, as the schema says (docs/architecture.md section 4 rule 2).
 */
function isSanctionedNull(holder: unknown, property: string): boolean {
  return holder !== null && typeof holder === 'object' && (holder as Record<string, unknown>)[property] === null;
}

function flatten(
  error: ValidationError,
  plan: ClassPlan | undefined,
  path: IssuePath,
  sink: IssueSink,
  holder: unknown,
): void {
  const prop = plan?.properties.find((p) => p.property === error.property);
  const segment = prop?.wire ?? error.property;
  const at = segment === undefined || segment === '' ? [...path] : [...path, segment];
  if (isSanctionedNull(holder, error.property)) return;
  const value =
    holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[error.property] : undefined;
  for (const [name, text] of Object.entries(error.constraints ?? {})) {
    if (OVERRIDDEN.has(name)) continue;
    sink.add({ code: 'dto', path: at, constraint: name, message: stripProperty(text, error.property) });
  }
  for (const child of error.children ?? []) {
    if (prop?.kind === 'array' && /^\d+$/.test(child.property)) {
      // An array of nested DTOs: the child is the item, its children are the item's members.
      const itemPath = [...at, Number(child.property)];
      if (isSanctionedNull(value, child.property)) continue;
      const item = Array.isArray(value) ? value[Number(child.property)] : undefined;
      for (const [name, text] of Object.entries(child.constraints ?? {})) {
        sink.add({ code: 'dto', path: itemPath, constraint: name, message: text });
      }
      for (const grandchild of child.children ?? []) flatten(grandchild, prop.nested, itemPath, sink, item);
    } else {
      flatten(child, prop?.nested, at, sink, value);
    }
  }
}

/** class-validator messages start with the property name (`title must be ...`): the path says it. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
}
