/**
 * Drift between a DTO's class-validator records (what the decoder enforces at run time) and the
 * manifest's input schema (what `scope-tool generate` wrote from the same decorators): `@Max(50)`
 * changed to `@Max(100)` without regenerating leaves `maximum: 50` in the schema, which keeps refusing
 * 80 with no warning. createRegistry checks it at start-up (lib/container/method-tool.ts checkEntry).
 * @internal
 */
import { validationRecords, wireName } from './reflection';

/**
 * The class-validator constraints whose arguments the schema states as a keyword, by record name:
 * the decorator, and the keyword of each constraint argument, in order (the catalogue rows `Max` → `maximum`, `Length`
 * → `minLength`, `maxLength`, ... of lib/schema/catalogue.ts, which write them).
 * @internal
 */
export const BOUND_KEYWORDS: Readonly<
  Record<string, { readonly decorator: string; readonly keywords: readonly string[] }>
> = Object.freeze({
  max: { decorator: 'Max', keywords: ['maximum'] },
  min: { decorator: 'Min', keywords: ['minimum'] },
  minLength: { decorator: 'MinLength', keywords: ['minLength'] },
  maxLength: { decorator: 'MaxLength', keywords: ['maxLength'] },
  isLength: { decorator: 'Length', keywords: ['minLength', 'maxLength'] },
  arrayMinSize: { decorator: 'ArrayMinSize', keywords: ['minItems'] },
  arrayMaxSize: { decorator: 'ArrayMaxSize', keywords: ['maxItems'] },
  isDivisibleBy: { decorator: 'IsDivisibleBy', keywords: ['multipleOf'] },
});

/**
 * Records that also set one of those keywords with a fixed value (`@IsNotEmpty()` is `minLength: 1`):
 * with one of them on the member the keyword is a merge, and it is not compared.
 */
const ALSO_SETS: Readonly<Record<string, string>> = Object.freeze({
  isNotEmpty: 'minLength',
  isEmpty: 'maxLength',
  arrayNotEmpty: 'minItems',
});

/** One bound that differs: the wire member, the decorator (`Max`), the keyword and both values. */
export interface ConstraintDrift {
  readonly member: string;
  readonly decorator: string;
  readonly keyword: string;
  readonly inSource: number;
  /** The manifest's value, or undefined when its schema states no such keyword for the member. */
  readonly inManifest: unknown;
}

/**
 * The bounds of `dto`'s top-level members that its manifest schema (`properties`, by wire name) states
 * differently. Compared: a record of BOUND_KEYWORDS without `each`, the only one that sets its keyword on
 * the member (two `@Min`, or a `@MinLength` beside `@IsNotEmpty`, merge into one keyword and are left
 * alone), against the keyword on the member's schema or one of its `anyOf` / `oneOf` branches.
 * @internal
 */
export function constraintDrift(dto: Function, properties: Readonly<Record<string, unknown>>): ConstraintDrift[] {
  const setters = new Map<string, number>();
  const bounds: { member: string; decorator: string; keyword: string; inSource: number }[] = [];
  for (const record of validationRecords(dto)) {
    if (typeof record.propertyName !== 'string' || record.each === true) continue;
    const member = wireName(dto, record.propertyName);
    const name = record.name ?? '';
    const bound = Object.hasOwn(BOUND_KEYWORDS, name) ? BOUND_KEYWORDS[name] : undefined;
    const also = Object.hasOwn(ALSO_SETS, name) ? ALSO_SETS[name] : undefined;
    const keywords = bound?.keywords ?? (also === undefined ? [] : [also]);
    keywords.forEach((keyword, i) => {
      const value: unknown = bound === undefined ? undefined : record.constraints?.[i];
      // A keyword an argument does not set (Length without a max) is no setter.
      if (bound !== undefined && value === undefined) return;
      const key = `${member}\u0000${keyword}`;
      setters.set(key, (setters.get(key) ?? 0) + 1);
      if (bound !== undefined && typeof value === 'number')
        bounds.push({ member, decorator: bound.decorator, keyword, inSource: value });
    });
  }
  const drift: ConstraintDrift[] = [];
  for (const b of bounds) {
    if (setters.get(`${b.member}\u0000${b.keyword}`) !== 1) continue;
    const schema = properties[b.member];
    if (schema === null || typeof schema !== 'object') continue;
    const inManifest = keywordOf(schema as Record<string, unknown>, b.keyword);
    if (inManifest !== b.inSource) drift.push({ ...b, inManifest });
  }
  return drift;
}

/** The value of `keyword` on a member schema, or on the first of its `anyOf` / `oneOf` branches that has it. */
function keywordOf(schema: Record<string, unknown>, keyword: string): unknown {
  if (Object.hasOwn(schema, keyword)) return schema[keyword];
  for (const alt of ['anyOf', 'oneOf']) {
    const branches = schema[alt];
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      if (b !== null && typeof b === 'object' && Object.hasOwn(b, keyword))
        return (b as Record<string, unknown>)[keyword];
    }
  }
  return undefined;
}
