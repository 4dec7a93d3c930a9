/**
 * Drift between a DTO's class-validator records (what the decoder enforces at run time) and the
 * manifest's input schema (what `scope-tool generate` wrote from the same decorators): `@Max(50)`
 * changed to `@Max(100)` without regenerating leaves `maximum: 50` in the schema, which keeps refusing
 * 80 with no warning; `@IsInt()` changed to `@IsString()` leaves `type: integer`, and every value is
 * refused by one side or the other. Property initializers are compared with the schema's `default`
 * too (the model is shown the old default). createRegistry checks it at start-up
 * (lib/container/method-tool.ts checkEntry).
 *
 * The generator's side is the decorator catalogue (lib/schema/catalogue.ts), which lib/dto may not
 * import (docs/architecture.md section 1): DRIFT_RULES has one entry per catalogue row whose keyword
 * carries the decorator's argument, NOT_COMPARED one per other row that writes a keyword, and
 * spec/dto/drift.spec.ts checks both against the catalogue and the schemas the generator writes.
 * @internal
 */
import { canonicalJson } from '../protocol/json';
import { escapePattern } from './contract-rules';
import { enumValues } from './overrides';
import { planOf, type ClassPlan, type PropertyPlan } from './plan';
import type { DtoClass, ValidationRecord } from './reflection';
import { isSchemaNode, localRef } from './schema-ref';

/**
 * How a drift rule reads its decorator's arguments against the schema:
 * - `bound`: each argument, in order, is the number of one keyword (`@Length(1, 80)`: minLength, maxLength);
 * - `pattern`: the argument is one of the `pattern`s on the schema (`pattern` or an `allOf` member's);
 * - `list`: the argument is the `enum` value list, compared as a set;
 * - `const`: the argument is `const`;
 * - `not`: the argument is one `not` (or one member of its `anyOf`);
 * - `type`: no argument: the decorator writes a fixed value of each keyword (`values`, in order:
 *   `@IsInt()` is `type: integer`), which the schema must state (a type decorator changed to another,
 *   `@IsInt()` to `@IsString()`, leaves the old type, and the schema and the decoder refuse each other's
 *   values).
 * @internal
 */
export type DriftKind = 'bound' | 'pattern' | 'list' | 'const' | 'not' | 'type';

/**
 * One drift rule: the catalogue row's decorator, how it is compared, the keywords it writes and, for
 * `type`, their fixed values.
 * @internal
 */
export interface DriftRule {
  readonly decorator: string;
  readonly kind: DriftKind;
  readonly keywords: readonly string[];
  readonly values?: readonly string[];
}

const rule = (decorator: string, kind: DriftKind, ...keywords: string[]): DriftRule =>
  Object.freeze({ decorator, kind, keywords: Object.freeze(keywords) });
/** A `type` rule: `fixed('IsDate', { type: 'string', format: 'date-time' })`. */
const fixed = (decorator: string, keywords: Readonly<Record<string, string>>): DriftRule =>
  Object.freeze({
    decorator,
    kind: 'type',
    keywords: Object.freeze(Object.keys(keywords)),
    values: Object.freeze(Object.values(keywords)),
  });

/**
 * The catalogue rows (lib/schema/catalogue.ts) whose schema keyword carries the decorator's argument,
 * by class-validator record name (`max` is `@Max`): what a changed argument leaves stale.
 * @internal
 */
export const DRIFT_RULES: Readonly<Record<string, DriftRule>> = Object.freeze({
  max: rule('Max', 'bound', 'maximum'),
  min: rule('Min', 'bound', 'minimum'),
  minLength: rule('MinLength', 'bound', 'minLength'),
  maxLength: rule('MaxLength', 'bound', 'maxLength'),
  isLength: rule('Length', 'bound', 'minLength', 'maxLength'),
  arrayMinSize: rule('ArrayMinSize', 'bound', 'minItems'),
  arrayMaxSize: rule('ArrayMaxSize', 'bound', 'maxItems'),
  isDivisibleBy: rule('IsDivisibleBy', 'bound', 'multipleOf'),
  matches: rule('Matches', 'pattern', 'pattern'),
  contains: rule('Contains', 'pattern', 'pattern'),
  isIn: rule('IsIn', 'list', 'enum'),
  isEnum: rule('IsEnum', 'list', 'enum'),
  equals: rule('Equals', 'const', 'const'),
  notEquals: rule('NotEquals', 'not', 'not'),
  isNotIn: rule('IsNotIn', 'not', 'not'),
  notContains: rule('NotContains', 'not', 'not'),
  isString: fixed('IsString', { type: 'string' }),
  isInt: fixed('IsInt', { type: 'integer' }),
  isNumber: fixed('IsNumber', { type: 'number' }),
  isBoolean: fixed('IsBoolean', { type: 'boolean' }),
  isArray: fixed('IsArray', { type: 'array' }),
  isDate: fixed('IsDate', { type: 'string', format: 'date-time' }),
  isDateString: fixed('IsDateString', { format: 'date-time' }),
});

/**
 * The other catalogue rows that write a schema keyword, by decorator, and why drift is not read from
 * them: most write a fixed keyword, which no argument changes (adding or removing the decorator is
 * what `scope-tool check` catches, lib/cli/check-command.ts). Unlike a type decorator's, a stale one
 * leaves a schema the decoder narrows (it refuses, with its own message, some values the schema
 * accepts), never one that refuses each value the other side accepts. `@IsObject()` writes nothing
 * (the type is the TypeScript type's, catalogue row `structural`).
 * @internal
 */
export const NOT_COMPARED: Readonly<Record<string, string>> = Object.freeze({
  IsEmpty: 'a fixed keyword (maxLength 0)',
  IsNotEmpty: 'a fixed keyword (minLength 1)',
  IsPositive: 'a fixed keyword (exclusiveMinimum 0)',
  IsNegative: 'a fixed keyword (exclusiveMaximum 0)',
  IsRFC3339: 'a fixed format and pattern, which @IsDate and @IsDateString share',
  ArrayNotEmpty: 'a fixed keyword (minItems 1)',
  ArrayUnique: 'a fixed keyword (uniqueItems)',
  IsNotEmptyObject: 'a fixed keyword (minProperties 1)',
  IsBooleanString: 'a fixed value list',
  IsAscii: 'a fixed pattern',
  IsHexColor: 'a fixed pattern',
  IsHexadecimal: 'a fixed pattern',
  IsMongoId: 'a fixed pattern',
  IsFirebasePushId: 'a fixed pattern',
  IsMilitaryTime: 'a fixed pattern',
  IsEthereumAddress: 'a fixed pattern',
  IsUUID: "the version's pattern is the generator's table (lib/schema/keywords.ts), not the decoder's",
  ArrayContains: 'one contains per value inside allOf, which other decorators share',
  ArrayNotContains: "a not inside the items' schema, which other decorators share",
});

/**
 * Records that also write a keyword of a `bound` or `list` rule with a fixed value (`@IsNotEmpty()` is
 * `minLength: 1`): beside one of them the keyword is a merge, and it is not compared.
 */
const ALSO_SETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  isNotEmpty: ['minLength'],
  isEmpty: ['maxLength'],
  arrayNotEmpty: ['minItems'],
  isBooleanString: ['enum'],
  equals: ['enum'],
});

/**
 * One constraint that differs: the member path (`limit`; `address.zip` inside a nested DTO;
 * `tags[]` for the items of an `each: true` decorator or of an array of DTOs, `lines[].qty`), the
 * decorator (`Max`), the keyword and both values.
 */
export interface ConstraintDrift {
  readonly member: string;
  /** The decorator (`Max`), or null for the property initializer (keyword `default`). */
  readonly decorator: string | null;
  readonly keyword: string;
  /**
   * The decorator's argument: a number, a pattern's source, a value list, a value, or `not`'s schema;
   * for a `type` rule its fixed value (`integer`); for `default` the initializer's value (undefined:
   * none).
   */
  readonly inSource: unknown;
  /** The manifest's value, or undefined when its schema states no such keyword there. */
  readonly inManifest: unknown;
}

/**
 * A member name a nested DTO and its object schema in the manifest do not share: `member` is its
 * path from the input (`owner.team`; `lines[].qty` inside an array of DTOs), `dto` the nested class
 * and `side` the one that has it: `source` (the class has it, the manifest lacks it) or `manifest`
 * (the manifest lists it, the class does not have it). The input DTO's own members are compared by
 * the member check (lib/container/method-tool.ts checkEntry).
 */
export interface MemberDrift {
  readonly member: string;
  readonly dto: string;
  readonly side: 'source' | 'manifest';
}

type Schema = Record<string, unknown>;

const isSchema = isSchemaNode as (v: unknown) => v is Schema;

/**
 * The constraints of `dto` that its manifest input schema `root` states differently, at every depth:
 * the records of DRIFT_RULES on each member (`each: true`: on its `items`), and the members of
 * nested DTOs (`@ValidateNested() @Type(() => Child)`, inline or through `$ref` to `#` or `#/$defs/`).
 * A `bound` or `list` keyword that two records write (two `@Min`, `@MinLength` beside `@IsNotEmpty`,
 * `@IsIn` beside `@IsEnum`) is a merge and is left alone, and so is a bound the manifest lists in
 * `mergedBounds` (`Class.property.keyword`: a JSDoc tag or a tuple's length bounds the member too,
 * lib/container/manifest.ts). A keyword is read on the member's schema or
 * one of its `anyOf` / `oneOf` branches. A type decorator (`type` rules: `@IsString()`, `@IsInt()`,
 * `@IsNumber()`, `@IsBoolean()`, `@IsArray()`, `@IsDate()`, `@IsDateString()`) needs its type (and
 * format) stated there; see `states` for what the generator merges. A member's `default` is compared
 * with its property initializer where the manifest states one (decorator null; see compareDefault).
 * Members the schema lacks are the member check's (lib/container/method-tool.ts), not reported here.
 * @throws ToolError ERR_INVALID_TOOL when the DTO itself is refused (see planOf)
 * @internal
 */
export function constraintDrift(
  dto: DtoClass,
  root: Readonly<Record<string, unknown>>,
  mergedBounds: readonly string[] = [],
): ConstraintDrift[] {
  return walkAll(dto, root, mergedBounds).out;
}

/**
 * The member names of the nested DTOs of `dto` (at every depth, found as constraintDrift finds
 * them: inline, through `$ref` to `#` or `#/$defs/`, items of arrays of DTOs) that their object
 * schemas in the manifest input schema `root` lack or that those schemas list and the classes do
 * not have. Regression (second new-user trial, finding 7a): a nested member removed or added passed
 * start-up, and every call then failed against the old schema.
 * @throws ToolError ERR_INVALID_TOOL when the DTO itself is refused (see planOf)
 * @internal
 */
export function nestedMemberDrift(dto: DtoClass, root: Readonly<Record<string, unknown>>): MemberDrift[] {
  return walkAll(dto, root, []).members;
}

function walkAll(dto: DtoClass, root: Readonly<Record<string, unknown>>, mergedBounds: readonly string[]): Walker {
  const walker: Walker = {
    root: root as Schema,
    merged: new Set(mergedBounds),
    out: [],
    members: [],
    seen: new Set(),
  };
  walk(walker, planOf(dto), root as Schema, '');
  return walker;
}

/**
 * What one drift walk shares: the input schema, the manifest's merged bounds, the findings
 * (constraints, nested member names), the DTO schemas being walked.
 */
interface Walker {
  readonly root: Schema;
  readonly merged: ReadonlySet<string>;
  readonly out: ConstraintDrift[];
  readonly members: MemberDrift[];
  readonly seen: Set<Schema>;
}

function walk(w: Walker, plan: ClassPlan, schema: Schema, prefix: string): void {
  const properties = schema['properties'];
  if (w.seen.has(schema) || !isSchema(properties)) return;
  w.seen.add(schema); // the DTOs being walked: a recursive DTO is walked once per path
  if (prefix !== '') compareNames(w, plan, properties, prefix);
  for (const prop of plan.properties) {
    const member = properties[prop.wire];
    if (!isSchema(member)) continue;
    const path = `${prefix}${prop.wire}`;
    const merged = (items: boolean) => (keyword: string) =>
      w.merged.has(`${plan.name}.${prop.property}${items ? '[]' : ''}.${keyword}`);
    const own = prop.records.filter((r) => r.each !== true);
    compareSlot(own, member, path, merged(false), w);
    const each = prop.records.filter((r) => r.each === true);
    if (each.length > 0) compareSlot(each, itemsOf(member, w.root) ?? {}, `${path}[]`, merged(true), w);
    compareDefault(prop, member, path, w.out);
    if (prop.nested !== undefined) nested(w, prop, member, path);
  }
  w.seen.delete(schema);
}

/** The member names of a nested DTO's plan against its object schema's `properties`. */
function compareNames(w: Walker, plan: ClassPlan, properties: Schema, prefix: string): void {
  const wires = plan.properties.map((p) => p.wire);
  const listed = Object.keys(properties);
  for (const wire of wires.filter((n) => !listed.includes(n)))
    w.members.push({ member: `${prefix}${wire}`, dto: plan.name, side: 'source' });
  for (const name of listed.filter((n) => !wires.includes(n)))
    w.members.push({ member: `${prefix}${name}`, dto: plan.name, side: 'manifest' });
}

/** Recurses into a nested DTO member (or an array of them) when its schema is found. */
function nested(w: Walker, prop: PropertyPlan, member: Schema, path: string): void {
  const array = prop.kind === 'array';
  const value = array ? itemsOf(member, w.root) : member;
  const child = value === undefined ? undefined : objectSchemaOf(value, w.root, 0);
  if (child !== undefined) walk(w, prop.nested as ClassPlan, child, `${path}${array ? '[]' : ''}.`);
}

/** Compares the records of one slot (a member, or its items: `node`) with its schema, rule by rule. */
function compareSlot(
  records: readonly ValidationRecord[],
  node: Schema,
  member: string,
  merged: (keyword: string) => boolean,
  w: Walker,
): void {
  const out = w.out;
  const setters = new Map<string, number>();
  const count = (keyword: string) => setters.set(keyword, (setters.get(keyword) ?? 0) + 1);
  for (const r of records) {
    const name = r.name ?? '';
    const drift = Object.hasOwn(DRIFT_RULES, name) ? DRIFT_RULES[name] : undefined;
    // A keyword an argument does not set (`@Length(1)` has no maxLength) has no setter.
    if (drift?.kind === 'bound') drift.keywords.forEach((k, i) => r.constraints?.[i] === undefined || count(k));
    else if (drift?.kind === 'list') count('enum');
    for (const k of Object.hasOwn(ALSO_SETS, name) ? (ALSO_SETS[name] as readonly string[]) : []) count(k);
  }
  for (const r of records) {
    const name = r.name ?? '';
    const drift = Object.hasOwn(DRIFT_RULES, name) ? DRIFT_RULES[name] : undefined;
    if (drift === undefined) continue;
    const found = (keyword: string, inSource: unknown, inManifest: unknown) =>
      out.push({ member, decorator: drift.decorator, keyword, inSource, inManifest });
    switch (drift.kind) {
      case 'bound':
        drift.keywords.forEach((keyword, i) => {
          const value: unknown = r.constraints?.[i];
          if (typeof value !== 'number' || setters.get(keyword) !== 1 || merged(keyword)) return;
          const inManifest = nodeWith(node, keyword)?.[keyword];
          if (inManifest !== value) found(keyword, value, inManifest);
        });
        break;
      case 'pattern': {
        const source = patternOf(r);
        const patterns = patternsOf(node);
        if (source !== undefined && !patterns.includes(source))
          found('pattern', source, patterns.length <= 1 ? patterns[0] : patterns);
        break;
      }
      case 'list': {
        if (setters.get('enum') !== 1) break;
        const values = listOf(r);
        const at = nodeWith(node, 'enum');
        if (values !== undefined && !sameList(values, at)) found('enum', values, at?.['enum']);
        break;
      }
      case 'const': {
        const value: unknown = r.constraints?.[0];
        const at = nodeWith(node, 'const');
        if (value === null || typeof value !== 'object') {
          if (at === undefined || at['const'] !== value) found('const', value, at?.['const']);
        }
        break;
      }
      case 'not': {
        const not = notOf(r);
        const at = nodeWith(node, 'not');
        if (not !== undefined && !notsOf(at?.['not']).some((n) => sameNot(n, not))) found('not', not, at?.['not']);
        break;
      }
      case 'type':
        drift.keywords.forEach((keyword, i) => {
          const value = drift.values?.[i] as string;
          const branches = typeBranches(node, w.root);
          if (!states(records, branches, keyword, value)) found(keyword, value, stated(branches, keyword));
        });
        break;
    }
  }
}

/**
 * The records that write a `format` (lib/schema/catalogue.ts: `@IsEmail()` is `format: email`): the
 * last one written wins, so beside another format a `type` rule's format is a merge, not compared.
 */
const FORMATS: Readonly<Record<string, string>> = Object.freeze({
  isEmail: 'email',
  isUrl: 'uri',
  isIso8601: 'date-time',
  isDateString: 'date-time',
  isRFC3339: 'date-time',
  isDate: 'date-time',
});

/**
 * Whether the schema (`branches`: the slot's schema and its `anyOf` / `oneOf` branches) states
 * `keyword: value` as the generator writes it for a `type` rule: a branch's `type` (a string or a
 * list) holds it, or no branch states a type and their `enum` / `const` values are all of that JSON
 * type (a value written before the type decorator keeps the type off, lib/schema/constraints.ts
 * appliesToType: `@Equals('v1') @IsString()` on an `unknown` member is `const: "v1"`). `number` is
 * also stated by `integer`, which narrows it (`@IsInt()`, a numeric `@IsEnum()`, a JSDoc
 * `@TJS-type integer`) and refuses nothing the model is told to send. A `format` another record
 * writes (the last one wins) is a merge, and not compared.
 */
function states(records: readonly ValidationRecord[], branches: readonly Schema[], keyword: string, value: string) {
  if (keyword === 'format') {
    const formats = records.map((r) => (Object.hasOwn(FORMATS, r.name ?? '') ? FORMATS[r.name ?? ''] : undefined));
    if (formats.some((f) => f !== undefined && f !== value)) return true;
    return branches.some((b) => b['format'] === value);
  }
  const accepted = value === 'number' ? [value, 'integer'] : [value];
  const types = stated(branches, keyword);
  if (types !== undefined) return (Array.isArray(types) ? types : [types]).some((t) => accepted.includes(t));
  const values = branches.flatMap((b) => [
    ...(Array.isArray(b['enum']) ? b['enum'] : []),
    ...('const' in b ? [b['const']] : []),
  ]);
  return values.length > 0 && values.every((v) => v === null || accepted.some((t) => isOfType(v, t)));
}

/** What the branches state of `keyword`: one value, a list of them, or undefined when none does. */
function stated(branches: readonly Schema[], keyword: string): unknown {
  const values = [
    ...new Set(
      branches.flatMap((b) => {
        const v = b[keyword];
        return Array.isArray(v) ? v : v === undefined ? [] : [v];
      }),
    ),
  ];
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
}

/** Whether a JSON value is of a JSON Schema `type`. */
function isOfType(v: unknown, type: string): boolean {
  if (type === 'integer') return typeof v === 'number' && Number.isInteger(v);
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return isSchema(v);
  return typeof v === type;
}

/**
 * The slot's schema and its `anyOf` / `oneOf` branches, through local `$ref`s, down to depth 8, each
 * once (a `$ref` reached twice adds nothing: `states` and `stated` ask whether any branch says it;
 * one reached again nearer the slot is walked again, for the branches the depth cut first).
 * Appended one by one, never spread: a hand-written manifest may list more branches than a call
 * takes arguments, or refer to one definition from many branches at many depths (a RangeError or
 * an exponential walk at start-up; spec/dto/drift.spec.ts).
 */
function typeBranches(schema: Schema, root: Schema): Schema[] {
  const depthOf = new Map<Schema, number>();
  const visit = (node: Schema, depth: number): void => {
    const target = resolved(node, root);
    const seen = target === undefined ? undefined : depthOf.get(target);
    if (target === undefined || depth > 8 || (seen !== undefined && seen <= depth)) return;
    depthOf.set(target, depth);
    for (const alt of ['anyOf', 'oneOf']) {
      const branches = target[alt];
      if (Array.isArray(branches)) for (const b of branches) if (isSchema(b)) visit(b, depth + 1);
    }
  };
  visit(schema, 0);
  return [...depthOf.keys()];
}

/**
 * The member's `default` in the manifest against its property initializer, read from the instance
 * planOf builds at start-up (`new Dto()`, lib/dto/plan.ts, which the decoder builds for every call
 * anyway): a changed value, or an initializer removed (the model is shown a default the tool no
 * longer applies). Only where the manifest states a default, and only a JSON value (a Date, a
 * function, a class instance is not compared): the generator shows no default for an initializer it
 * cannot evaluate (`new Paging()`) nor for a value a constructor assigns
 * (lib/schema/member-checks.ts initializerDefault), so a default missing from the manifest is no
 * evidence of drift.
 */
function compareDefault(prop: PropertyPlan, member: Schema, path: string, out: ConstraintDrift[]): void {
  if (!Object.hasOwn(member, 'default')) return;
  const inManifest = member['default'];
  const inSource = prop.defaultValue;
  const source = canonical(inSource);
  if (inSource !== undefined && (source === undefined || source === canonical(inManifest))) return;
  out.push({ member: path, decorator: null, keyword: 'default', inSource, inManifest });
}

/** `v` as canonical JSON text (lib/protocol/json.ts), or undefined when it is not JSON data (a Date, a class instance, NaN). */
function canonical(v: unknown): string | undefined {
  try {
    return canonicalJson(v);
  } catch {
    return undefined;
  }
}

/** `schema` itself, or the first of its `anyOf` / `oneOf` branches, that states `keyword`. */
function nodeWith(schema: Schema, keyword: string): Schema | undefined {
  return branchesOf(schema).find((b) => Object.hasOwn(b, keyword));
}

/** `schema` and its own `anyOf` / `oneOf` branches (appended, not spread: see typeBranches). */
function branchesOf(schema: Schema): Schema[] {
  const out = [schema];
  for (const alt of ['anyOf', 'oneOf']) {
    const branches = schema[alt];
    if (Array.isArray(branches)) for (const b of branches) if (isSchema(b)) out.push(b);
  }
  return out;
}

/** The items' schema of an array member (`items`, on the member or a nullable member's branch). */
function itemsOf(member: Schema, root: Schema): Schema | undefined {
  for (const b of branchesOf(resolved(member, root) ?? member)) {
    const items = b['items'];
    if (isSchema(items)) return items;
  }
  return undefined;
}

/** The schema a local `$ref` points to (lib/dto/schema-ref.ts), the schema itself without one, or undefined. */
function resolved(schema: Schema, root: Schema): Schema | undefined {
  const ref = schema['$ref'];
  return typeof ref !== 'string' ? schema : (localRef(root, ref) as Schema | undefined);
}

/** The object schema (one with `properties`) a nested member's schema is, through `$ref` and its branches. */
function objectSchemaOf(schema: Schema, root: Schema, depth: number): Schema | undefined {
  const target = resolved(schema, root);
  if (target === undefined || depth > 8) return undefined;
  if (isSchema(target['properties'])) return target;
  for (const alt of ['anyOf', 'oneOf', 'allOf']) {
    const branches = target[alt];
    if (!Array.isArray(branches)) continue;
    for (const b of branches.filter(isSchema)) {
      const found = objectSchemaOf(b, root, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The `pattern` source of a `@Matches` (`/re/` or `'re'`) or `@Contains(seed)` record. */
function patternOf(r: ValidationRecord): string | undefined {
  const arg: unknown = r.constraints?.[0];
  if (r.name === 'contains') return typeof arg === 'string' ? escapePattern(arg) : undefined;
  return arg instanceof RegExp ? arg.source : typeof arg === 'string' ? arg : undefined;
}

/** Every pattern a schema states: its own, its `allOf` members', on it or one of its branches. */
function patternsOf(schema: Schema): string[] {
  const out: string[] = [];
  for (const b of branchesOf(schema)) {
    if (typeof b['pattern'] === 'string') out.push(b['pattern']);
    const all = b['allOf'];
    if (Array.isArray(all))
      for (const a of all.filter(isSchema)) if (typeof a['pattern'] === 'string') out.push(a['pattern']);
  }
  return out;
}

/** The value list of an `@IsIn([...])` or `@IsEnum(E)` record (a numeric enum's numbers only). */
function listOf(r: ValidationRecord): unknown[] | undefined {
  const arg: unknown = r.constraints?.[0];
  const values = r.name === 'isEnum' ? enumValues(arg) : Array.isArray(arg) ? arg : undefined;
  return values === undefined ? undefined : [...new Set(values)];
}

/**
 * Whether the `enum` at `node` is the list the generator writes for `values`: the same values, as a
 * set, except values of a JSON type the node's `type` leaves out (a type check narrows the list, as
 * lib/schema/value-rules.ts narrowTypes does), and `null`, which a nullable member adds.
 */
function sameList(values: readonly unknown[], node: Schema | undefined): boolean {
  const list = node?.['enum'];
  if (!Array.isArray(list)) return false;
  const type = node?.['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  const kept = (v: unknown): boolean =>
    types === undefined ||
    types.includes(v === null ? 'null' : typeof v) ||
    (typeof v === 'number' && Number.isInteger(v) && types.includes('integer'));
  const expected = values.filter((v) => v !== null && kept(v));
  const actual = list.filter((v) => v !== null);
  if (values.includes(null) && !list.includes(null)) return false;
  return actual.length === expected.length && expected.every((v) => actual.includes(v));
}

/** The `not` schema of a `@NotEquals`, `@IsNotIn` or `@NotContains` record. */
function notOf(r: ValidationRecord): Schema | undefined {
  const arg: unknown = r.constraints?.[0];
  if (r.name === 'notEquals') return arg === null || typeof arg !== 'object' ? { const: arg } : undefined;
  if (r.name === 'isNotIn') return Array.isArray(arg) ? { enum: arg } : undefined;
  return typeof arg === 'string' ? { type: 'string', pattern: escapePattern(arg) } : undefined;
}

/** The schemas a `not` refuses: itself, or the members of its `anyOf` (lib/schema/value-rules.ts addNot). */
function notsOf(not: unknown): Schema[] {
  if (!isSchema(not)) return [];
  const any = not['anyOf'];
  return Object.keys(not).length === 1 && Array.isArray(any) ? any.filter(isSchema) : [not];
}

function sameNot(inManifest: Schema, inSource: Schema): boolean {
  const keys = Object.keys(inSource);
  if (Object.keys(inManifest).length !== keys.length) return false;
  return keys.every((k) => {
    const a = inManifest[k];
    const b = inSource[k];
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v) => b.includes(v));
    return a === b;
  });
}
