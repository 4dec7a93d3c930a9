/**
 * The decode plan of a DTO class: its wire members, the JSON kind each takes (from `design:type`
 * and `@Type`), optionality, defaults and nested plans. Built once per class and cached, so that
 * decoding never re-reads metadata; building it is where DTO defects (asynchronous constraints, no
 * class-validator metadata) are refused.
 */
import { ToolError } from '../protocol';
import { messageOf } from '../protocol/errors';
import {
  constraintName,
  designType,
  isAsyncConstraint,
  transformerProperties,
  transformerType,
  validationRecords,
  VALIDATION_TYPES,
  wireName,
} from './reflection';
import type { DtoClass, ValidationRecord } from './reflection';
import { MATCHES } from 'class-validator';
import { matchesPattern } from './overrides';
import { prototypePropertyProblem } from './forbidden';
import { asyncConstraint, constructorThrows, nestedWithoutValidation, noMetadata, wireNameTaken } from './messages';

/** The JSON kind a member (or an array item) must have before any transformation. @internal */
export type ValueKind = 'string' | 'number' | 'boolean' | 'date' | 'array' | 'nested' | 'any';

/** One DTO member. @internal */
export interface PropertyPlan {
  /** The class property name (what class-validator reports). */
  readonly property: string;
  /** The member name on the wire (`@Expose({ name })`, else the property name). */
  readonly wire: string;
  readonly kind: ValueKind;
  /** For `nested`: the member's class plan; for `array`: the items' plan when items are nested. */
  readonly nested?: ClassPlan;
  /** For `array`: the kind of each item. */
  readonly items?: ValueKind;
  /** `@IsOptional()` present: the member may be absent. */
  readonly optional: boolean;
  /** A property initializer gave the member a default (it may be absent). */
  readonly hasDefault: boolean;
  /**
   * `@ValidateIf` without `@IsDefined`: the member may be absent here, and class-validator requires
   * and checks it only when the condition holds.
   */
  readonly conditional: boolean;
  readonly defaultValue?: unknown;
  /**
   * `@IsDefined()` refuses `null` for the member (without `@IsOptional()` or `@ValidateIf`, which
   * make class-validator skip a null), and `@IsDefined({ each: true })` for its items, whatever
   * the type or the input schema admits (the generator drops null there too).
   */
  readonly defined: { readonly member: boolean; readonly items: boolean };
  /** The class-validator records of this property. */
  readonly records: readonly ValidationRecord[];
}

/** The plan of one DTO class. @internal */
export interface ClassPlan {
  readonly dto: DtoClass;
  readonly name: string;
  readonly properties: PropertyPlan[];
  readonly byWire: Map<string, PropertyPlan>;
}

const PRIMITIVES = new Map<unknown, ValueKind>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Date, 'date'],
  [Array, 'array'],
]);
/** Constructors that say nothing about the JSON shape (interfaces, unions, Records emit Object). */
const FREE_FORM = new Set<unknown>([undefined, Object, Function, Map, Set, Promise, Symbol, BigInt]);

const plans = new WeakMap<Function, ClassPlan>();

/** `plan` and every plan it nests (members and array items), each once, `plan` first. @internal */
export function reachablePlans(plan: ClassPlan): ClassPlan[] {
  const seen = new Set<ClassPlan>();
  const stack = [plan];
  while (stack.length > 0) {
    const p = stack.pop() as ClassPlan;
    if (seen.has(p)) continue;
    seen.add(p);
    for (const prop of p.properties) if (prop.nested !== undefined) stack.push(prop.nested);
  }
  return [...seen];
}

/**
 * The cached plan of `dto`, built (and checked) on first use.
 * @throws ToolError ERR_INVALID_TOOL for an asynchronous constraint, a DTO whose properties carry
 *   no class-validator metadata, or a property named after an Object.prototype member (`valueOf`)
 * @internal
 */
export function planOf(dto: DtoClass): ClassPlan {
  const cached = plans.get(dto);
  if (cached !== undefined) return cached;
  const plan: ClassPlan = { dto, name: dto.name || '(anonymous class)', properties: [], byWire: new Map() };
  plans.set(dto, plan); // before filling in, so recursive DTOs find themselves
  try {
    fill(plan);
  } catch (e) {
    plans.delete(dto);
    throw e;
  }
  return plan;
}

function fill(plan: ClassPlan): void {
  const dto = plan.dto;
  const records = layoutOrder(
    dto,
    validationRecords(dto).filter((r) => typeof r.target !== 'string'),
  );
  const defaults = instantiate(dto, plan.name);
  if (records.length === 0) refuseWithoutMetadata(plan.name, dto, defaults);
  const byProperty = new Map<string, ValidationRecord[]>();
  for (const r of records) {
    if (isAsyncConstraint(r)) throw asyncConstraintError(plan.name, r);
    if (r.name === MATCHES) matchesPattern(r, plan.name); // a pattern RE2 cannot run fails here, at bind
    const list = byProperty.get(r.propertyName) ?? [];
    list.push(r);
    byProperty.set(r.propertyName, list);
  }
  for (const [property, recs] of byProperty) {
    const problem = prototypePropertyProblem(plan.name, property);
    if (problem !== undefined) throw new ToolError('ERR_INVALID_TOOL', problem);
    const p = propertyPlan(dto, property, recs, defaults);
    if (plan.byWire.has(p.wire)) {
      throw wireNameTaken(plan.name, property, p.wire);
    }
    plan.properties.push(p);
    plan.byWire.set(p.wire, p);
  }
}

/**
 * Records in class layout order: base class records first (class-validator lists the class's own
 * first), each class's in declaration order, so members are ordered as the generator orders them.
 */
function layoutOrder(dto: DtoClass, records: ValidationRecord[]): ValidationRecord[] {
  const chain: unknown[] = [];
  for (let c: unknown = dto; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c))
    chain.push(c);
  const depth = (r: ValidationRecord): number => {
    const i = chain.indexOf(r.target);
    return i < 0 ? -1 : i;
  };
  return records
    .map((r, i) => ({ r, i, d: depth(r) }))
    .sort((a, b) => b.d - a.d || a.i - b.i)
    .map((x) => x.r);
}

function propertyPlan(
  dto: DtoClass,
  property: string,
  records: ValidationRecord[],
  defaults: object | undefined,
): PropertyPlan {
  const declared = designType(dto, property);
  const typed = transformerType(dto, property);
  const optional = records.some((r) => r.type === VALIDATION_TYPES.CONDITIONAL_VALIDATION && r.name === 'isOptional');
  const defaultValue = defaults === undefined ? undefined : (defaults as Record<string, unknown>)[property];
  const conditional =
    records.some((r) => r.type === VALIDATION_TYPES.CONDITIONAL_VALIDATION && r.name !== 'isOptional') &&
    !records.some((r) => r.type === VALIDATION_TYPES.IS_DEFINED);
  const isDefined = records.filter((r) => r.type === VALIDATION_TYPES.IS_DEFINED);
  const skipsNull = records.some((r) => r.type === VALIDATION_TYPES.CONDITIONAL_VALIDATION);
  const defined = {
    member: !skipsNull && isDefined.some((r) => !r.each),
    items: isDefined.some((r) => r.each === true),
  };
  const hasDefault = defaultValue !== undefined;
  const base = {
    property,
    wire: wireName(dto, property),
    optional,
    hasDefault,
    conditional,
    defaultValue,
    defined,
    records,
  };
  if (declared === Array) {
    const items = kindOf(typed);
    if (items === 'nested') requireNestedValidation(dto, property, records, typed as DtoClass, true);
    return { ...base, kind: 'array', items, nested: items === 'nested' ? planOf(typed as DtoClass) : undefined };
  }
  // design:type first (the TypeScript type is the contract); @Type only where the type says nothing.
  const source = FREE_FORM.has(declared) ? typed : declared;
  const kind = kindOf(source);
  if (kind === 'nested') requireNestedValidation(dto, property, records, (typed ?? source) as DtoClass, false);
  return { ...base, kind, nested: kind === 'nested' ? planOf((typed ?? source) as DtoClass) : undefined };
}

/**
 * A member holding a DTO (or an array of them) needs `@ValidateNested()`: without it class-validator
 * checks none of the nested members, so the decoder would skip checks the schema shows for them
 * (the generator refuses the same member, lib/schema/member-checks.ts).
 * @throws ToolError ERR_INVALID_TOOL naming `Dto.member` and the fix
 */
function requireNestedValidation(
  dto: DtoClass,
  property: string,
  records: readonly ValidationRecord[],
  nested: DtoClass,
  array: boolean,
): void {
  if (records.some((r) => r.type === VALIDATION_TYPES.NESTED_VALIDATION)) return;
  throw nestedWithoutValidation(dto.name || '(anonymous class)', property, nested.name || 'the nested class', array);
}

function kindOf(type: unknown): ValueKind {
  const primitive = PRIMITIVES.get(type);
  if (primitive !== undefined) return primitive;
  if (FREE_FORM.has(type) || typeof type !== 'function') return 'any';
  return 'nested';
}

/**
 * A default instance, to read property initializers. class-transformer builds every DTO with
 * `new Dto()`, so a constructor that throws without arguments would fail every call: it is refused
 * here, at bind time.
 */
function instantiate(dto: DtoClass, name: string): object {
  try {
    return new (dto as unknown as new () => object)();
  } catch (e) {
    throw constructorThrows(name, messageOf(e));
  }
}

function refuseWithoutMetadata(name: string, dto: DtoClass, defaults: object | undefined): void {
  const props = new Set([...transformerProperties(dto), ...(defaults === undefined ? [] : Object.keys(defaults))]);
  if (props.size === 0) return; // an empty DTO: `{}` input
  throw noMetadata(name, [...props]);
}

function asyncConstraintError(className: string, record: ValidationRecord): ToolError {
  return asyncConstraint(className, record.propertyName, constraintName(record));
}
