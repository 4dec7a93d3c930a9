/**
 * The decoder compiled from a DTO plan (issue 16). When class-transformer would do nothing to a DTO
 * (and to every DTO it nests) but build it with `new` and assign its members (isPlain), the instance
 * is built here, from the plan, without class-transformer. When, besides, the input schema a DTO is
 * given (the manifest's) says everything its class-validator decorators say, a value the schema
 * admitted passes every decorator, so class-validator need not run either: the fast path of a proven
 * DTO. The proof is made here, at bind, member by member, against the very schema the contract
 * compiled (never the manifest's `warnings`, which a stale or hand-written manifest may get wrong):
 * each class-validator record must be entailed by the schema fragment of its member (ENTAILED, one row
 * per constraint). A plain DTO the schema does not prove (a decoder-only decorator such as `@IsEmail`)
 * is built here and validated by class-validator; any other DTO keeps the class-transformer path
 * (lib/dto/dto-input.ts). Every path gives the same verdict and the same instance as that one
 * (spec/dto/fast-path.spec.ts and spec/schema/fast-path-zoo.spec.ts prove it on generated arguments).
 * @internal
 */
import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_LENGTH,
  IS_NEGATIVE,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_POSITIVE,
  IS_STRING,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  MATCHES,
  MAX,
  MAX_LENGTH,
  Matches,
  Max,
  MaxLength,
  MIN,
  MIN_LENGTH,
  Min,
  MinLength,
} from 'class-validator';
import type { ValidationOptions } from 'class-validator';
import type { AdmissionIssue, JsonObject, JsonValue } from '../protocol';
import type { ClassPlan, PropertyPlan } from './plan';
import { reachablePlans } from './plan';
import type { ValidationRecord } from './reflection';
import {
  defaultMessageOf,
  designType,
  isExposed,
  transformsPlainly,
  VALIDATION_TYPES,
  validationRecords,
} from './reflection';
import { IssueSink } from './issues';
import { validateInstance } from './validation';
import { copyJson, isFree } from './repair';
import { enumValues } from './overrides';
import { isSchemaNode, localRef } from './schema-ref';
import { VALUE_KEYWORDS } from './contract-rules';

/** What a compiled decoder returns for a value it leaves to the class-validator path (an invalid Date). */
export const NOT_FAST: unique symbol = Symbol('not fast');

/** Builds the instance of an admitted, structurally checked value, or answers NOT_FAST. @internal */
export type FastDecoder = (value: JsonValue) => object | typeof NOT_FAST;

type SchemaNode = Readonly<Record<string, unknown>>;

/** What a record is checked against: the schema fragments that all apply to the checked value. */
interface Fragment {
  /** Every schema object that applies (the node, its `$ref` targets, its `allOf` members). */
  readonly nodes: readonly SchemaNode[];
  /** The JSON types the fragment admits (`type`), or undefined when it does not say. */
  readonly types: ReadonlySet<string> | undefined;
  /** The record applies to each item (`each: true`): a null item is checked too. */
  readonly each: boolean;
}

/** One row of ENTAILED: class-validator's decorator of that name, and when the schema entails it. */
interface Entailment {
  /** The decorator, applied with placeholder constraints to a probe class (see isClassValidators). */
  readonly decorator: (options: ValidationOptions) => PropertyDecorator;
  readonly entails: (c: readonly unknown[], f: Fragment, prop: PropertyPlan) => boolean;
}

/**
 * One row per class-validator constraint the schema can entail: given the fragment of the value the
 * record checks, whether every non-null value the fragment admits passes it (a null a schema admits
 * is never judged by class-validator, lib/dto/validation.ts isSanctionedNull, unless it is an item).
 * A constraint without a row is never entailed: its member keeps the class-validator path.
 */
const ENTAILED = new Map<string, Entailment>([
  [IS_STRING, { decorator: (o) => IsString(o), entails: (_c, f) => only(f, 'string') }],
  [IS_BOOLEAN, { decorator: (o) => IsBoolean(o), entails: (_c, f) => only(f, 'boolean') }],
  [IS_ARRAY, { decorator: (o) => IsArray(o), entails: (_c, f) => only(f, 'array') }],
  [IS_OBJECT, { decorator: (o) => IsObject(o), entails: (_c, f) => only(f, 'object') }],
  [IS_INT, { decorator: (o) => IsInt(o), entails: (_c, f) => only(f, 'integer') }],
  [
    IS_NUMBER,
    { decorator: (o) => IsNumber({}, o), entails: (c, f) => plainNumberOptions(c[0]) && only(f, 'number', 'integer') },
  ],
  // A date-time string the structural check admitted; the decoder leaves an invalid Date to class-validator.
  [
    IS_DATE,
    {
      decorator: (o) => IsDate(o),
      entails: (_c, f, prop) =>
        f.each ? prop.items === 'date' && f.types?.has('null') === false : prop.kind === 'date',
    },
  ],
  [MIN, { decorator: (o) => Min(0, o), entails: (c, f) => only(f, 'number', 'integer') && atLeast(f, c[0], false) }],
  [MAX, { decorator: (o) => Max(0, o), entails: (c, f) => only(f, 'number', 'integer') && atMost(f, c[0], false) }],
  [
    IS_POSITIVE,
    { decorator: (o) => IsPositive(o), entails: (_c, f) => only(f, 'number', 'integer') && atLeast(f, 0, true) },
  ],
  [
    IS_NEGATIVE,
    { decorator: (o) => IsNegative(o), entails: (_c, f) => only(f, 'number', 'integer') && atMost(f, 0, true) },
  ],
  [IS_LENGTH, { decorator: (o) => Length(0, 1, o), entails: (c, f) => only(f, 'string') && lengths(f, c[0], c[1]) }],
  [
    MIN_LENGTH,
    { decorator: (o) => MinLength(0, o), entails: (c, f) => only(f, 'string') && lengths(f, c[0], undefined) },
  ],
  [
    MAX_LENGTH,
    { decorator: (o) => MaxLength(0, o), entails: (c, f) => only(f, 'string') && lengths(f, undefined, c[0]) },
  ],
  [
    IS_NOT_EMPTY,
    {
      decorator: (o) => IsNotEmpty(o),
      entails: (_c, f) => (only(f, 'string') ? lengths(f, 1, undefined) : typesWithout(f, 'string')),
    },
  ],
  [
    ARRAY_MIN_SIZE,
    {
      decorator: (o) => ArrayMinSize(0, o),
      entails: (c, f) => only(f, 'array') && keyword(f, 'minItems', (n) => n >= (c[0] as number)),
    },
  ],
  [
    ARRAY_MAX_SIZE,
    {
      decorator: (o) => ArrayMaxSize(0, o),
      entails: (c, f) => only(f, 'array') && keyword(f, 'maxItems', (n) => n <= (c[0] as number)),
    },
  ],
  [
    ARRAY_NOT_EMPTY,
    {
      decorator: (o) => ArrayNotEmpty(o),
      entails: (_c, f) => only(f, 'array') && keyword(f, 'minItems', (n) => n >= 1),
    },
  ],
  [IS_ENUM, { decorator: (o) => IsEnum({}, o), entails: (c, f) => listedIn(f, enumValues(c[0])) }],
  [IS_IN, { decorator: (o) => IsIn([], o), entails: (c, f) => Array.isArray(c[0]) && listedIn(f, c[0] as unknown[]) }],
  [MATCHES, { decorator: (o) => Matches(/x/, o), entails: (c, f) => only(f, 'string') && samePattern(f, c[0], c[1]) }],
]);

/** Records of class-validator's own decorators, by name and `each`, applied to probe classes on first use. */
const OWN_RECORDS = new Map<string, ValidationRecord | undefined>();

/** The record class-validator's decorator `decorator` (named `name`) makes, with `each` or not. */
function ownRecord(name: string, each: boolean, decorator: Entailment['decorator']): ValidationRecord | undefined {
  const key = `${name}:${each}`;
  if (!OWN_RECORDS.has(key)) {
    class Probe {}
    decorator({ each })(Probe.prototype, 'p');
    OWN_RECORDS.set(
      key,
      validationRecords(Probe).find((m) => m.propertyName === 'p'),
    );
  }
  return OWN_RECORDS.get(key);
}

/**
 * Whether a conditional record named `isOptional` is class-validator's @IsOptional: its condition (what
 * class-validator calls to decide whether the member's checks run) has the built-in's source text.
 */
function isOwnOptional(r: ValidationRecord): boolean {
  const own = ownRecord('isOptional', false, (o) => IsOptional(o))?.constraints?.[0];
  const condition: unknown = r.constraints?.[0];
  return typeof condition === 'function' && typeof own === 'function' && String(condition) === String(own);
}

/** class-validator's @IsDefined, whose record has a system type and a constraint class. */
const IS_DEFINED_DECORATOR: Entailment['decorator'] = (o) => IsDefined(o);

/**
 * Whether record `r` is class-validator's own decorator of its name, not a custom one given the same
 * name (`ValidateBy({ name: 'isString' })`): for the record's constraints, its default message is the
 * one class-validator's decorator of that name gives. class-validator's metadata does not say where a
 * decorator comes from: one that copies both the name and the message is taken for the built-in.
 */
function isClassValidators(r: ValidationRecord, decorator: Entailment['decorator']): boolean {
  const own = ownRecord(String(r.name), r.each === true, decorator);
  const constraints = r.constraints ?? [];
  const message = own === undefined ? undefined : defaultMessageOf(own, constraints);
  return message !== undefined && defaultMessageOf(r, constraints) === message;
}

/**
 * The decoder compiled from a plan: `build` makes the instance of an admitted, structurally checked
 * value as plainToInstance and lib/dto/repair.ts make it; `proven` says whether the input schema
 * entails every class-validator record (then class-validator need not run). @internal
 */
export interface CompiledDecoder {
  readonly build: FastDecoder;
  readonly proven: boolean;
}

/**
 * The decoder of `plan`, proven or not against `schema` (the input schema the value passed), or
 * undefined when class-transformer would do more than assign members to the DTO or to a DTO it nests
 * (then class-transformer builds the instance, as before).
 * @internal
 */
export function compileDecoder(plan: ClassPlan, schema: JsonObject): CompiledDecoder | undefined {
  if (!everyPlain(plan)) return undefined;
  const builders = new Map<ClassPlan, (value: Record<string, unknown>) => object | typeof NOT_FAST>();
  const builder = builderOf(plan, builders);
  return {
    build: (value) => builder(value as Record<string, unknown>),
    proven: new Prover(schema as SchemaNode).proves(plan, schema as SchemaNode),
  };
}

/** Whether `plan` and every plan it nests are plain (isPlain), and every nested member has its plan. */
function everyPlain(root: ClassPlan): boolean {
  return reachablePlans(root).every(
    (plan) =>
      isPlain(plan) &&
      plan.properties.every(
        (p) => p.nested !== undefined || !(p.kind === 'nested' || (p.kind === 'array' && p.items === 'nested')),
      ),
  );
}

/**
 * Proves plans against schema fragments (their plainness is everyPlain's); recursive DTOs are proven
 * coinductively (a pair in progress holds).
 */
class Prover {
  readonly #root: SchemaNode;
  readonly #proven = new Map<ClassPlan, Set<SchemaNode>>();
  /** Whether the `$ref`s of the schema resolve as `localRef` resolves them (see resolvesFromRoot). */
  readonly #resolvable: boolean;

  constructor(root: SchemaNode) {
    this.#root = root;
    this.#resolvable = resolvesFromRoot(root);
  }

  /** `nested`: the plan is a member's (class-validator refuses an instance of a class with no records). */
  proves(plan: ClassPlan, node: SchemaNode, nested = false): boolean {
    const seen = this.#proven.get(plan) ?? new Set<SchemaNode>();
    if (seen.has(node)) return true;
    seen.add(node);
    this.#proven.set(plan, seen);
    if (!this.#resolvable) return false;
    if (nested && plan.properties.length === 0) return false;
    const nodes = this.#applicable(node);
    for (const prop of plan.properties) {
      const member = this.#member(nodes, prop.wire);
      if (member === undefined || !this.#provesMember(prop, member)) return false;
    }
    // Last: every record is class-validator's own by now, so judging the defaults runs no user code
    // but the constructor.
    return defaultsHold(plan);
  }

  #provesMember(prop: PropertyPlan, node: SchemaNode): boolean {
    const whole = this.#fragment(node, false);
    const itemsNode = this.#items(whole.nodes);
    const items = itemsNode === undefined ? undefined : this.#fragment(itemsNode, true);
    if (prop.kind === 'nested' && (prop.nested === undefined || !this.proves(prop.nested, node, true))) return false;
    if (prop.kind === 'array' && prop.items === 'nested') {
      if (prop.nested === undefined || itemsNode === undefined || !this.proves(prop.nested, itemsNode, true))
        return false;
    }
    return prop.records.every((r) => entailed(r, r.each === true ? items : whole, prop));
  }

  #fragment(node: SchemaNode, each: boolean): Fragment {
    const nodes = this.#applicable(node);
    let types: Set<string> | undefined;
    for (const n of nodes) {
      if (n.type === undefined) continue;
      const listed = new Set((Array.isArray(n.type) ? n.type : [n.type]).filter((t) => typeof t === 'string'));
      types = types === undefined ? listed : new Set([...types].filter((t) => listed.has(t)));
    }
    return { nodes, types, each };
  }

  /** The fragment of member `wire`: `properties[wire]` of any applicable node. */
  #member(nodes: readonly SchemaNode[], wire: string): SchemaNode | undefined {
    for (const n of nodes) {
      const props = n.properties;
      if (isNode(props) && Object.prototype.hasOwnProperty.call(props, wire) && isNode(props[wire]))
        return props[wire] as SchemaNode;
    }
    return undefined;
  }

  /** The schema every item passes, or undefined (none, or `prefixItems`: then `items` covers only the rest). */
  #items(nodes: readonly SchemaNode[]): SchemaNode | undefined {
    if (nodes.some((n) => n.prefixItems !== undefined)) return undefined;
    for (const n of nodes) if (isNode(n.items)) return n.items;
    return undefined;
  }

  /** The node, its local `$ref` targets and its `allOf` members, transitively (each applies to the value). */
  #applicable(node: SchemaNode): SchemaNode[] {
    const out: SchemaNode[] = [];
    const stack = [node];
    while (stack.length > 0 && out.length < 64) {
      const n = stack.pop() as SchemaNode;
      if (out.includes(n)) continue;
      out.push(n);
      if (typeof n.$ref === 'string') {
        const target = localRef(this.#root, n.$ref);
        if (target !== undefined) stack.push(target);
      }
      if (Array.isArray(n.allOf)) for (const m of n.allOf) if (isNode(m)) stack.push(m);
    }
    return out;
  }
}

const isNode = isSchemaNode;

/** Keywords that change what a `$ref` below them resolves against (the prover resolves from the root). */
const BASE_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', 'id'];

/** Keywords whose value maps names to schemas (a member named `enum` there is a schema, not data). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * Whether every `$ref` of `root` resolves against the root: no base or anchor keyword in a schema below
 * it (the data of `enum`, `const`, `default` and `examples` is not searched). Iterative.
 */
function resolvesFromRoot(root: SchemaNode): boolean {
  const nodes: unknown[] = [root];
  const push = (v: unknown): void => {
    if (Array.isArray(v)) for (const item of v) nodes.push(item);
    else nodes.push(v);
  };
  while (nodes.length > 0) {
    const node = nodes.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (VALUE_KEYWORDS.has(k)) continue;
      if (BASE_KEYWORDS.includes(k) && typeof v === 'string' && node !== root) return false;
      if (SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object') for (const s of Object.values(v)) push(s);
      else push(v);
    }
  }
  return true;
}

/** Collects every issue (an IssueSink keeps only the first few). */
class AllIssues extends IssueSink {
  readonly all: AdmissionIssue[] = [];

  override add(issue: AdmissionIssue): void {
    this.all.push(issue);
    super.add(issue);
  }
}

/**
 * Whether the defaults of `plan`'s members pass their own decorators: class-validator judges a
 * default the input leaves in place, which the schema never sees. Judged by class-validator itself,
 * on a fresh instance (its absent members' issues are not the defaults').
 */
function defaultsHold(plan: ClassPlan): boolean {
  const defaulted = new Set(plan.properties.filter((p) => p.hasDefault).map((p) => p.wire));
  if (defaulted.size === 0) return true;
  const sink = new AllIssues();
  try {
    validateInstance(new (plan.dto as unknown as new () => object)(), plan, sink);
  } catch {
    return false;
  }
  return !sink.all.some((i) => i.path.length === 0 || defaulted.has(String(i.path[0])));
}

/** Whether the schema entails record `r` of `prop`, given the fragment it checks (undefined: no items fragment). */
function entailed(r: ValidationRecord, fragment: Fragment | undefined, prop: PropertyPlan): boolean {
  // class-validator checks `each` on the items of an array (or Set, Map), else on the value itself;
  // only an array member has items the structural check and the `items` fragment speak of.
  if (r.each === true && prop.kind !== 'array') return false;
  // A `validateIf` option runs user code before the check (class-validator 0.15): never skipped.
  if ((r as { validateIf?: unknown }).validateIf !== undefined) return false;
  // A system type is taken by any decorator named after it (registerDecorator): only those that
  // class-validator registers without a constraint class are its own (@Allow, @ValidateNested, @IsOptional).
  const registered = typeof r.constraintCls === 'function';
  switch (r.type) {
    case VALIDATION_TYPES.IS_DEFINED: // the structural check refuses null and absence (structure.ts)
      return isClassValidators(r, IS_DEFINED_DECORATOR);
    case VALIDATION_TYPES.WHITELIST: // @Allow(): checks nothing
      return !registered;
    case VALIDATION_TYPES.NESTED_VALIDATION: // the nested plan is proven where the member is (Prover)
      return !registered && prop.nested !== undefined;
    case VALIDATION_TYPES.CONDITIONAL_VALIDATION: // @IsOptional() only; @ValidateIf runs user code
      return !registered && r.name === 'isOptional' && isOwnOptional(r);
    case VALIDATION_TYPES.CUSTOM_VALIDATION: {
      if (fragment === undefined || r.name === undefined) return false;
      // The instance holds a Date there, which no string rule of the schema speaks of.
      const checksDate = r.each === true ? prop.items === 'date' : prop.kind === 'date';
      if (checksDate && r.name !== IS_DATE) return false;
      const row = ENTAILED.get(r.name);
      return (
        row !== undefined && row.entails(r.constraints ?? [], fragment, prop) && isClassValidators(r, row.decorator)
      );
    }
    default:
      return false;
  }
}

/** The fragment admits only the given JSON types (and null, unless it is an item). */
function only(f: Fragment, ...types: string[]): boolean {
  if (f.types === undefined || f.types.size === 0) return false;
  for (const t of f.types) if (!types.includes(t) && (f.each || t !== 'null')) return false;
  return true;
}

function typesWithout(f: Fragment, type: string): boolean {
  return f.types !== undefined && !f.types.has(type) && !(f.each && f.types.has('null'));
}

/** Some applicable node has numeric keyword `name` satisfying `ok`. */
function keyword(f: Fragment, name: string, ok: (n: number) => boolean): boolean {
  return f.nodes.some((n) => typeof n[name] === 'number' && ok(n[name] as number));
}

/** Every admitted number is >= bound (strict: > bound). */
function atLeast(f: Fragment, bound: unknown, strict: boolean): boolean {
  if (typeof bound !== 'number') return false;
  return (
    keyword(f, 'minimum', (n) => (strict ? n > bound : n >= bound)) || keyword(f, 'exclusiveMinimum', (n) => n >= bound)
  );
}

/** Every admitted number is <= bound (strict: < bound). */
function atMost(f: Fragment, bound: unknown, strict: boolean): boolean {
  if (typeof bound !== 'number') return false;
  return (
    keyword(f, 'maximum', (n) => (strict ? n < bound : n <= bound)) || keyword(f, 'exclusiveMaximum', (n) => n <= bound)
  );
}

/** String lengths in code points, as lib/dto/overrides.ts counts them and JSON Schema does. */
function lengths(f: Fragment, min: unknown, max: unknown): boolean {
  const lower = typeof min !== 'number' || keyword(f, 'minLength', (n) => n >= min);
  const upper = typeof max !== 'number' || keyword(f, 'maxLength', (n) => n <= max);
  return lower && upper;
}

/** `@IsNumber()` with no option the schema cannot say (maxDecimalPlaces; NaN and Infinity are never JSON). */
function plainNumberOptions(options: unknown): boolean {
  if (options === undefined) return true;
  if (options === null || typeof options !== 'object') return false;
  return (options as { maxDecimalPlaces?: unknown }).maxDecimalPlaces === undefined;
}

/** An `enum` of the fragment lists only allowed values (null too where class-validator skips it). */
function listedIn(f: Fragment, allowed: readonly unknown[]): boolean {
  return f.nodes.some(
    (n) =>
      Array.isArray(n.enum) && n.enum.every((v: unknown) => (v === null && !f.each) || allowed.some((a) => a === v)),
  );
}

/** `@Matches` of the very pattern the schema states (both run on RE2 with the u flag, lib/protocol/regex.ts). */
function samePattern(f: Fragment, pattern: unknown, modifiers: unknown): boolean {
  const source = pattern instanceof RegExp ? pattern.source : typeof pattern === 'string' ? pattern : undefined;
  const flags = pattern instanceof RegExp ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  if (source === undefined || (flags !== '' && flags !== 'u')) return false;
  return f.nodes.some((n) => n.pattern === source);
}

/**
 * Whether class-transformer does nothing to `plan`'s class but build it with `new` and assign its
 * members, in the order the builder assigns them (and class-validator's whitelist sees only its
 * members): no `@Transform`, `@Exclude`, class strategy, `@Expose` option but `name` or exposed
 * property outside the plan, wire name another property claims, `@Type` but a static one naming the
 * class or constructor the plan builds with (typeOf), accessor or method of the member's name,
 * integer-like wire name, exposed free-form member, and no property initializer outside the plan.
 */
function isPlain(plan: ClassPlan): boolean {
  const dto = plan.dto as unknown as new () => Record<string, unknown>;
  let sample: Record<string, unknown>;
  try {
    sample = new dto();
  } catch {
    return false;
  }
  const members = new Set(plan.properties.map((p) => p.property));
  if (Object.keys(sample).some((k) => !members.has(k))) return false;
  return plan.properties.every(
    (p) =>
      // An integer-like wire name is enumerated first, whatever the order class-transformer assigns in.
      !INDEX_LIKE.test(p.wire) &&
      !COLLECTIONS.has(designType(plan.dto, p.property)) &&
      // class-transformer makes an exposed member's key before repair.ts copies free-form members.
      !(isFree(p) && isExposed(plan.dto, p.property)) &&
      transformsPlainly(plan.dto, p.property, p.wire, typeOf(p), members) &&
      !(p.property in (plan.dto.prototype as object)) &&
      typeof sample[p.property] !== 'function' &&
      // plainToInstance assigns an absent exposed member undefined, and repair.ts restores only a
      // primitive default: an object default of an exposed member is left to that path.
      (p.defaultValue === null || typeof p.defaultValue !== 'object' || !isExposed(plan.dto, p.property)),
  );
}

/** A wire name JavaScript enumerates before the others (an array index). */
const INDEX_LIKE = /^(0|[1-9][0-9]*)$/;

const CONSTRUCTORS: ReadonlyMap<string, Function> = new Map<string, Function>([
  ['string', String],
  ['number', Number],
  ['boolean', Boolean],
  ['date', Date],
]);

/** Constructors that are no DTO: a plan of one (`@Type(() => Number)` on a nested member) builds nothing plainToInstance would. */
const NOT_DTOS: ReadonlySet<unknown> = new Set([...CONSTRUCTORS.values(), Object, Array, Map, Set, Function]);

/** The class or constructor an `@Type` of `p` may name: what the plan builds the member (or its items) with. */
function typeOf(p: PropertyPlan): Function | undefined {
  const kind = p.kind === 'array' ? p.items : p.kind;
  if (kind === 'nested') return NOT_DTOS.has(p.nested?.dto) ? undefined : p.nested?.dto;
  return kind === undefined ? undefined : CONSTRUCTORS.get(kind);
}

/** Design types class-transformer builds itself, whatever `@Type` names for their values (a Map of DTOs). */
const COLLECTIONS: ReadonlySet<unknown> = new Set([Map, Set]);

const PRIMITIVE_ITEMS: ReadonlySet<string> = new Set(['string', 'number', 'boolean']);

const own = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/**
 * The builder of one class: `new Dto()`, then the members the value holds, as plainToInstance and
 * lib/dto/repair.ts leave them: DTO members first (nested instances, Dates), then free-form members
 * (plain copies), in plan order; an absent member whose default is undefined is deleted.
 */
function builderOf(
  plan: ClassPlan,
  builders: Map<ClassPlan, (value: Record<string, unknown>) => object | typeof NOT_FAST>,
): (value: Record<string, unknown>) => object | typeof NOT_FAST {
  const cached = builders.get(plan);
  if (cached !== undefined) return cached;
  const dto = plan.dto as unknown as new () => Record<string, unknown>;
  const transformed: [PropertyPlan, (v: unknown) => unknown][] = [];
  const free: PropertyPlan[] = [];
  const build = (value: Record<string, unknown>): object | typeof NOT_FAST => {
    const instance = new dto();
    for (const [p, convert] of transformed) {
      if (!own(value, p.wire)) continue;
      const v = value[p.wire];
      const converted = v === null ? null : convert(v);
      if (converted === NOT_FAST) return NOT_FAST;
      instance[p.property] = converted;
    }
    for (const p of free) {
      if (!own(value, p.wire)) continue;
      const v = value[p.wire];
      // An array the structural check found holding primitives (or null) only: a shallow copy is a full one.
      instance[p.property] =
        p.items !== undefined && PRIMITIVE_ITEMS.has(p.items) && Array.isArray(v)
          ? v.slice()
          : copyJson(v as JsonValue);
    }
    for (const p of plan.properties)
      if (!own(value, p.wire) && own(instance, p.property) && instance[p.property] === undefined)
        delete instance[p.property];
    return instance;
  };
  builders.set(plan, build);
  for (const p of plan.properties) {
    if (isFree(p)) free.push(p);
    else transformed.push([p, converterOf(p, builders)]);
  }
  return build;
}

function converterOf(
  p: PropertyPlan,
  builders: Map<ClassPlan, (value: Record<string, unknown>) => object | typeof NOT_FAST>,
): (v: unknown) => unknown {
  switch (p.kind) {
    case 'date':
      return toDate;
    case 'nested': {
      const nested = builderOf(p.nested as ClassPlan, builders);
      return (v) => nested(v as Record<string, unknown>);
    }
    case 'array': {
      const item: (v: unknown) => unknown =
        p.items === 'date'
          ? toDate
          : (
              (b) => (v: unknown) =>
                b(v as Record<string, unknown>)
            )(builderOf(p.nested as ClassPlan, builders));
      return (v) => {
        const list = v as unknown[];
        const out = new Array<unknown>(list.length);
        for (let i = 0; i < list.length; i++) {
          const converted = list[i] === null ? null : item(list[i]);
          if (converted === NOT_FAST) return NOT_FAST;
          out[i] = converted;
        }
        return out;
      };
    }
    default:
      return (v) => v;
  }
}

/** A Date of a date-time string the structural check admitted; an invalid one is left to class-validator. */
function toDate(v: unknown): Date | typeof NOT_FAST {
  const date = new Date(v as string);
  return Number.isNaN(date.getTime()) ? NOT_FAST : date;
}
