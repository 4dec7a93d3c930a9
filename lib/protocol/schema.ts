/**
 * JSON Schema compilation: Ajv (draft 2020-12 by default, draft-07 by `$schema`), formats asserted
 * (ajv-formats), no remote `$ref`, compiled once and cached. Ports the seed's `core/jsonschema`
 * Parse and Schema.Validate (docs/reference-semantics.md sections 3.1 and 3.2;
 * docs/architecture.md sections 3.6 and 3.7).
 *
 * Patterns (`pattern`, `patternProperties`) run on RE2 in linear time, as in the reference: ECMA-262
 * syntax translated to keep its meaning (lib/protocol/regex.ts); lookaround and backreferences are
 * refused at compile. Differences from the reference, by decision: numbers are compared as doubles,
 * which admission makes exact by refusing integer literals beyond 2^53 - 1; the compiled value
 * keeps the author's member order (docs/architecture.md section 3.6).
 */
import { describeFormat, describePattern } from './formats';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FormatName } from 'ajv-formats';
import type { AdmissionIssue } from './errors';
import { clipMiddle as clip, goQuote, goQuoteClipped, messageOf, ToolError } from './errors';
import type { JsonValue } from './json';
import { admitJson, canonicalJson, jsonPointer, MAX_INPUT_BYTES, utf8Length } from './json';
import { isDetachedJson } from './json-data';
import { linearRegExp } from './regex';

/** The `$schema` URI of JSON Schema draft 2020-12, the default dialect. */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** The `$schema` URI of JSON Schema draft-07, the other dialect accepted. */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** How many compiled validators are kept (least recently used first out). */
export const SCHEMA_CACHE_SIZE = 1_000;

/** At most this many issues are kept from one validation: the first ones, in Ajv's order. @internal */
export const MAX_SCHEMA_ISSUES = 10;

/**
 * Every violation is collected (Ajv `allErrors`) only for a value of at most this many JSON values
 * (objects, arrays, members and elements counted one each); a larger value reports its first
 * violation only. Bounds the work: with `allErrors` a 1 MiB array of wrong items yields 500,000
 * errors (about 660 ms and 80 MB measured), where the first violation costs well under a millisecond.
 * @internal
 */
export const MAX_ALL_ERRORS_NODES = 10_000;

type Dialect = '2020-12' | 'draft-07';
type Segment = string | number;

/** Reads the compiled validation function of a CompiledSchema (set in its static block). */
let validatorOf: (schema: CompiledSchema) => ValidateFunction | undefined = () => undefined;

/**
 * Reports whether two compiled schemas run the very same validation function: their schemas are
 * equal apart from annotations (see validationKey), so they accept exactly the same values. A false
 * answer proves nothing (the cache may have compiled one of them afresh). @internal
 */
export function sameValidation(a: CompiledSchema, b: CompiledSchema): boolean {
  const fn = validatorOf(a);
  return fn !== undefined && fn === validatorOf(b);
}

/** What `validate` returns for a valid value: one frozen empty list, not one per call. */
const NO_ISSUES: readonly AdmissionIssue[] = Object.freeze([]);

/**
 * A compiled, immutable JSON Schema: the authored value (deep-frozen, member order kept) and its
 * validator. Safe to share: immutable, and validation is synchronous.
 */
export class CompiledSchema {
  /** The schema value as authored (member order kept), deep-frozen. */
  readonly value: JsonValue;
  readonly #validate: ValidateFunction;

  static {
    validatorOf = (schema) =>
      typeof schema === 'object' && schema !== null && #validate in schema ? schema.#validate : undefined;
  }

  /** @internal use compileSchema or compileSchemaValue */
  constructor(value: JsonValue, validate: ValidateFunction) {
    this.value = value;
    this.#validate = validate;
  }

  /**
   * Validates an admitted JSON value (from admitJson) against this schema. A valid value costs one
   * first-violation pass (Ajv `allErrors: false`). A refused value is validated again with Ajv
   * `allErrors` (a second validator compiled once per schema, on its first refusal) to report every
   * violation: issues of code `schema`, each with the JSON Pointer segments of the failing value
   * (array indices as numbers), the Ajv keyword and params, and a message such as
   * `/tags/0: must be string`; at most MAX_SCHEMA_ISSUES (10) are kept, the first in Ajv's order.
   * The list is made useful: identical issues are reported once; the branches of a failed
   * `anyOf` / `oneOf` are replaced by the violations inside the value (when some branch got past
   * the value's own type), else by one issue (`must be string or integer` when every branch wanted
   * another type, `must match one of the alternatives (anyOf): ...` otherwise); an `if` issue is
   * dropped when its `then` / `else` issues are listed. A value of more than MAX_ALL_ERRORS_NODES
   * (10,000) JSON values reports its first violation only. A value nested too deeply for the
   * validator's stack (a recursive schema) gives one `too_deep` issue instead of a RangeError.
   * @returns the issues, empty when valid. Never throws.
   */
  validate(value: JsonValue): readonly AdmissionIssue[] {
    const fn = this.#validate;
    try {
      if (fn(value)) return NO_ISSUES;
    } catch (e) {
      const message =
        e instanceof RangeError
          ? 'value is nested too deeply to validate against the schema; send a flatter value'
          : 'value could not be validated against the schema; check the schema';
      return Object.freeze([issue(e instanceof RangeError ? 'too_deep' : 'schema', [], message)]);
    }
    const first = fn.errors ?? [];
    const errors = everyError(fn, value) ?? first;
    if (errors.length === 0) return Object.freeze([issue('schema', [], 'value does not match the schema')]);
    return Object.freeze(schemaIssues(errors, value, (err) => omittableNull(fn, value, err, errors)));
  }
}

/**
 * Compiles a JSON Schema given as JSON text. Ports jsonschema.Parse.
 * @param text - the schema document (at most MAX_INPUT_BYTES UTF-8 bytes, RFC 7493 JSON)
 * @returns the compiled schema
 * @throws ToolError ERR_INVALID_SCHEMA `jsonschema: invalid schema: <reason>`, reason one of
 *   `document is empty`, `document exceeds 1048576 bytes`, `document is not valid RFC 7493 JSON`
 *   (the admission issue in `issues`), or a reason from compileSchemaValue
 */
export function compileSchema(text: string): CompiledSchema {
  if (text.length === 0) throw new ToolError('ERR_INVALID_SCHEMA', 'document is empty');
  if (utf8Length(text) > MAX_INPUT_BYTES) {
    throw new ToolError('ERR_INVALID_SCHEMA', `document exceeds ${MAX_INPUT_BYTES} bytes`);
  }
  const admitted = admitJson(text);
  if (!admitted.ok) {
    throw new ToolError('ERR_INVALID_SCHEMA', 'document is not valid RFC 7493 JSON', { issues: [admitted.issue] });
  }
  return compileSchemaValue(admitted.value);
}

/**
 * Compiles a JSON Schema given as a value: an object or a boolean (`[]` is not a schema). The
 * dialect is draft 2020-12 unless `$schema` is DRAFT_07. Formats are asserted (ajv-formats; an
 * unknown format is refused, since it could not be asserted); unknown keywords are refused, while
 * annotations (`title`, `description`, `default`, `examples`, `$comment`, `deprecated`, ...) are
 * fine; no remote `$ref` is ever fetched (`{"$ref":"https://example.com/x"}` is refused).
 * Validators are cached by the RFC 8785 canonical form of the schema without its pure annotations
 * (`title`, `description`, `$comment`, `examples`, `default`, `deprecated`, `readOnly`,
 * `writeOnly` at schema positions, in schemas without references; see validationKey), so schemas
 * that differ only in those share one compiled validator (SCHEMA_CACHE_SIZE entries). The
 * metaschema check of the annotations is kept: one that breaks it is part of the key.
 *
 * @param value - the schema; it is copied (the caller keeps its object) and the copy deep-frozen
 * @returns the compiled schema; `value` holds the frozen copy, member order as authored
 * @throws ToolError ERR_INVALID_SCHEMA `jsonschema: invalid schema: <reason>` when the value is not
 *   JSON, its canonical form exceeds MAX_INPUT_BYTES UTF-8 bytes, it is not an object or boolean,
 *   `$schema` names another dialect, it breaks the metaschema (`/type: must be equal to one of the
 *   allowed values`), or Ajv refuses it (unknown keyword or format, unresolvable `$ref`, bad pattern);
 *   a pattern must be ECMA-262 syntax (u flag) that RE2 can run in linear time: lookaround and
 *   backreferences are refused (`pattern "(?=x)" uses lookaround ((?=, (?!, (?<=, (?<!), which RE2
 *   syntax lacks ...`; lib/protocol/regex.ts lists every difference)
 */
export function compileSchemaValue(value: unknown): CompiledSchema {
  let key: string;
  try {
    key = canonicalJson(value);
  } catch (e) {
    throw new ToolError(
      'ERR_INVALID_SCHEMA',
      `schema is not a JSON value: ${messageOf(e).replace(/^canonicalJson: /, '')}`,
    );
  }
  if (utf8Length(key) > MAX_INPUT_BYTES) {
    throw new ToolError('ERR_INVALID_SCHEMA', `normalized document exceeds ${MAX_INPUT_BYTES} bytes`);
  }
  if (typeof value !== 'boolean' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new ToolError('ERR_INVALID_SCHEMA', `a schema must be a JSON object or boolean, not ${kind}`);
  }
  // A value toJsonData built (a definition snapshot's schema) is deep-frozen and detached already:
  // it is shared, not copied again, after the same `__proto__` check.
  const frozen = frozenCopy(value as JsonValue, !isDetachedJson(value));
  const cacheKey = validationKey(frozen, key);
  const cached = cache.get(cacheKey);
  if (cached !== undefined) {
    cache.delete(cacheKey);
    cache.set(cacheKey, cached);
    return new CompiledSchema(frozen, cached);
  }
  const fn = compileFresh(frozen, dialectOf(frozen));
  cache.set(cacheKey, fn);
  if (cache.size > SCHEMA_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return new CompiledSchema(frozen, fn);
}

/**
 * Compiled validators, least recently used first, by validationKey: the canonical schema text
 * without its pure annotations, so tools whose schemas differ only in descriptions share one.
 */
const cache = new Map<string, ValidateFunction>();

/**
 * Annotation keywords and the metaschema rule their value must satisfy (draft 2020-12 and draft-07
 * agree). Ajv generates no code for them with the options below (no `useDefaults`, no `$comment`
 * option), so they never change what a schema accepts nor the issues it reports.
 */
const ANNOTATIONS: Readonly<Record<string, (value: JsonValue) => boolean>> = {
  title: (v) => typeof v === 'string',
  description: (v) => typeof v === 'string',
  $comment: (v) => typeof v === 'string',
  examples: (v) => Array.isArray(v),
  default: () => true,
  deprecated: (v) => typeof v === 'boolean',
  readOnly: (v) => typeof v === 'boolean',
  writeOnly: (v) => typeof v === 'boolean',
};
/** Keywords whose value is one subschema. */
const ONE_SCHEMA = new Set([
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'additionalItems',
  'items',
]);
/** Keywords whose value is an array of subschemas (`items` too, in draft-07's array form). */
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas (`dependencies` values may also be name arrays). */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** References: a pointer may reach into any member, annotations included, so nothing is stripped. */
const REFERENCE = /"\$(?:ref|dynamicRef|recursiveRef)"/;

/**
 * The cache key of a schema: its canonical text with the pure annotations (ANNOTATIONS) removed at
 * schema positions, so two schemas get the same key only when they differ in nothing Ajv compiles.
 * Conservative by construction:
 * - only members of subschemas reached through the applicator keywords above are stripped; a
 *   member named `description` under `properties`, or inside `const`, `enum`, `default` or
 *   `examples` data, is never touched;
 * - an annotation whose value breaks the metaschema (`"description": 5`) is kept in the key, so the
 *   schema is compiled on its own (and refused), never served from a valid schema's entry;
 * - a schema with any `$ref`, `$dynamicRef` or `$recursiveRef`, or one nested too deeply for the
 *   recursive walk, keeps its full canonical text.
 * Everything else Ajv checks at compile time (unknown keywords, formats, patterns) lives in the
 * key, so a schema served from the cache would have compiled to the same validator. @internal
 */
export function validationKey(schema: JsonValue, canonical: string): string {
  if (typeof schema !== 'object' || schema === null || REFERENCE.test(canonical)) return canonical;
  let stripped = false;
  const strip = (node: JsonValue): JsonValue => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
    for (const k of Object.keys(node)) {
      const v = node[k];
      const rule = Object.hasOwn(ANNOTATIONS, k) ? ANNOTATIONS[k] : undefined;
      if (rule !== undefined && rule(v)) {
        stripped = true;
        continue;
      }
      if (Array.isArray(v)) out[k] = SCHEMA_ARRAYS.has(k) ? v.map(strip) : v;
      else if (typeof v === 'object' && v !== null && SCHEMA_MAPS.has(k)) {
        const map: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
        for (const name of Object.keys(v)) map[name] = strip(v[name]);
        out[k] = map;
      } else out[k] = ONE_SCHEMA.has(k) ? strip(v) : v;
    }
    return out as JsonValue;
  };
  try {
    const result = strip(schema);
    return stripped ? canonicalJson(result) : canonical;
  } catch {
    // Nested too deeply for the recursive walk: no sharing (compileFresh reports the depth).
    return canonical;
  }
}

interface AjvSlot {
  ajv: Ajv2020 | AjvDraft07;
  /** Schemas this instance has compiled: Ajv keeps each in an internal cache, so we recycle it. */
  compiled: number;
}
const slots: Partial<Record<Dialect, AjvSlot>> = {};

/**
 * Ajv options. `code.regExp`: every `pattern` and `patternProperties` runs on RE2 (linear time;
 * lib/protocol/regex.ts), never on the backtracking RegExp. `loadSchema` is deliberately absent:
 * nothing is ever fetched. `addUsedSchema: false` keeps one schema's `$id` from becoming resolvable
 * by another. `ownProperties` keeps inherited names (`toString`, `constructor`) from satisfying
 * `required`. Unknown keywords and formats are
 * errors (`strictSchema`); type-coupling checks (`strictTypes`, `strictTuples`, `strictRequired`)
 * are off because they refuse valid, common schemas.
 *
 * Compile cost (issue 5, measured on 2 loaded cores: about 1 to 3 ms per distinct schema):
 * - `validateSchema: false`: compileFresh validates against the metaschema itself, explicitly and
 *   first, before every compile; Ajv would otherwise run the same metaschema check a second time.
 * - `code: { optimize: false }`: skips Ajv's code-generation optimizer passes, which were about half
 *   of the compile time; the generated validator checks exactly the same rules, and V8 optimizes it
 *   as well (validation speed measured unchanged).
 * Compilation stays eager, at bind: a lazy compile would move the refusal of an unknown keyword, an
 * unknown format, a bad pattern or an unresolvable `$ref` (which the metaschema does not catch) from
 * bind to the first prepare. Schemas differing only in annotations share one validator (see
 * validationKey), which is what makes registering many similar tools cheap.
 *
 * `allErrors: false` here: a valid value costs one first-violation pass, as before issue 11. The
 * `allErrors: true` twin of a validator (same options otherwise; see everyError) is compiled on
 * the first refusal and runs only on refused values of at most MAX_ALL_ERRORS_NODES values.
 */
const AJV_OPTIONS: Options = {
  allErrors: false,
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: true,
  unicodeRegExp: true,
  ownProperties: true,
  addUsedSchema: false,
  inlineRefs: true,
  logger: false,
  validateSchema: false,
  code: { optimize: false, regExp: linearRegExp },
};

/**
 * The formats asserted: every ajv-formats format but `url` (deprecated there, and no JSON Schema
 * format), whose regex backtracks quadratically on a model-sent string (`http://` then `a:` repeated
 * then `@ `: 80 ms at 8 KB, minutes at 1 MiB). A schema naming it is refused (use `uri`, RFC 3986).
 * The others, library regexes run on JavaScript's engine, measured linear on adversarial strings up
 * to 1 MiB (uri, the slowest, about 50-110 ms at 1 MiB), which MAX_INPUT_BYTES bounds.
 */
const FORMATS: FormatName[] = [
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
];

function ajvFor(dialect: Dialect, allErrors = false): AjvSlot {
  const slots = allErrors ? allErrorSlots : firstErrorSlots;
  let slot = slots[dialect];
  // Recycle an instance after it compiled twice the cache size, bounding Ajv's own schema cache;
  // validators already compiled keep working (they hold what they need).
  if (slot === undefined || slot.compiled >= 2 * SCHEMA_CACHE_SIZE) {
    // The same options (A's regExp engine included) with every error collected.
    const options: Options = allErrors ? { ...AJV_OPTIONS, allErrors: true } : AJV_OPTIONS;
    const ajv = dialect === '2020-12' ? new Ajv2020(options) : new AjvDraft07(options);
    addFormats(ajv, { formats: FORMATS, keywords: true });
    slot = slots[dialect] = { ajv, compiled: 0 };
  }
  return slot;
}

/** Ajv instances of the first-violation validators and of their `allErrors` twins. */
const firstErrorSlots = slots;
const allErrorSlots: Partial<Record<Dialect, AjvSlot>> = {};

/**
 * The `allErrors` twin of each first-violation validator, compiled on its first refusal from the
 * very schema object it was compiled from (`fn.schema`), so it checks exactly the same rules. Keyed
 * by the validator: schemas sharing a validator (validationKey) share the twin, and both go when
 * the cache drops the validator. `null`: the twin could not be compiled (first violation only).
 */
const twins = new WeakMap<ValidateFunction, ValidateFunction | null>();

/** Every error of a refused value (the `allErrors` twin), or undefined to keep the first only. */
function everyError(fn: ValidateFunction, value: JsonValue): readonly ErrorObject[] | undefined {
  if (!withinNodes(value, MAX_ALL_ERRORS_NODES)) return undefined;
  const twin = twinOf(fn);
  if (twin === null) return undefined;
  try {
    return twin(value) ? undefined : (twin.errors ?? undefined);
  } catch {
    return undefined;
  }
}

/** The `allErrors` twin of `fn`, compiled on first use; null when it cannot be compiled. */
function twinOf(fn: ValidateFunction): ValidateFunction | null {
  let twin = twins.get(fn);
  if (twin === undefined) {
    try {
      const slot = ajvFor(dialectOf(fn.schema as JsonValue), true);
      slot.compiled++;
      twin = slot.ajv.compile(fn.schema as object);
    } catch {
      twin = null;
    }
    twins.set(fn, twin);
  }
  return twin;
}

/**
 * Whether the member a `type` error refused as `null` may be left out: the value without that
 * member breaks no rule at the member's object or above that the value did not break already (no
 * `required`, `dependentRequired`, `minProperties`, `if` / `anyOf` ...). Only for a value within
 * MAX_ALL_ERRORS_NODES; one more validation of a copy along the member's path.
 */
function omittableNull(
  fn: ValidateFunction,
  value: JsonValue,
  err: ErrorObject,
  errors: readonly ErrorObject[],
): boolean {
  if (err.keyword !== 'type' || err.instancePath === '' || !withinNodes(value, MAX_ALL_ERRORS_NODES)) return false;
  const path = segmentsOf(err.instancePath, value);
  const name = path[path.length - 1];
  const without = withoutMember(value, path);
  if (typeof name !== 'string' || without === undefined) return false;
  const twin = twinOf(fn);
  if (twin === null) return false;
  let after: readonly ErrorObject[];
  try {
    after = twin(without) ? [] : (twin.errors ?? []);
  } catch {
    return false;
  }
  const object = err.instancePath.slice(0, err.instancePath.lastIndexOf('/'));
  const above = (e: ErrorObject) =>
    e.instancePath === '' || object === e.instancePath || object.startsWith(`${e.instancePath}/`);
  const key = (e: ErrorObject) => `${e.instancePath}\u0000${e.schemaPath}\u0000${JSON.stringify(e.params)}`;
  const before = new Set(errors.filter(above).map(key));
  return after.filter(above).every((e) => before.has(key(e)));
}

/**
 * `value` without the object member at `path` (its last segment), copying only the containers on
 * the path; undefined unless that member is `null` in a plain object.
 */
function withoutMember(value: JsonValue, path: readonly Segment[]): JsonValue | undefined {
  const [head, ...rest] = path;
  if (value === null || typeof value !== 'object') return undefined;
  if (rest.length === 0) {
    if (Array.isArray(value) || typeof head !== 'string' || !Object.hasOwn(value, head) || value[head] !== null) {
      return undefined;
    }
    const copy: Record<string, JsonValue> = { ...value };
    delete copy[head];
    return copy;
  }
  if (Array.isArray(value)) {
    if (typeof head !== 'number' || head >= value.length) return undefined;
    const inner = withoutMember(value[head], rest);
    if (inner === undefined) return undefined;
    const copy = [...value];
    copy[head] = inner;
    return copy;
  }
  if (typeof head !== 'string' || !Object.hasOwn(value, head)) return undefined;
  const inner = withoutMember(value[head], rest);
  return inner === undefined ? undefined : { ...value, [head]: inner };
}

/** Whether `value` holds at most `limit` JSON values (itself included); iterative, stops early. */
function withinNodes(value: JsonValue, limit: number): boolean {
  let count = 0;
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as JsonValue;
    if (++count > limit) return false;
    if (typeof node !== 'object' || node === null) continue;
    const items = Array.isArray(node) ? node : Object.values(node);
    if (count + stack.length + items.length > limit) return false;
    for (const item of items) stack.push(item);
  }
  return true;
}

function dialectOf(schema: JsonValue): Dialect {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || !Object.hasOwn(schema, '$schema')) {
    return '2020-12';
  }
  const uri = schema.$schema;
  if (uri === DRAFT_2020_12 || uri === `${DRAFT_2020_12}#`) return '2020-12';
  if (uri === DRAFT_07 || uri === DRAFT_07.slice(0, -1)) return 'draft-07';
  const got = typeof uri === 'string' ? goQuote(uri.slice(0, 200)) : 'a non-string';
  throw new ToolError(
    'ERR_INVALID_SCHEMA',
    `unsupported $schema ${got}; use "${DRAFT_2020_12}" (the default) or "${DRAFT_07}"`,
  );
}

function compileFresh(schema: JsonValue, dialect: Dialect): ValidateFunction {
  const slot = ajvFor(dialect);
  slot.compiled++;
  const { ajv } = slot;
  try {
    if (!ajv.validateSchema(schema as object)) {
      const first = (ajv.errors ?? [])[0];
      const where = first === undefined || first.instancePath === '' ? '(root)' : first.instancePath;
      throw new ToolError('ERR_INVALID_SCHEMA', `${where}: ${first?.message ?? 'does not match the metaschema'}`);
    }
    return ajv.compile(refersToRoot(schema) ? { $id: ROOT_ID, ...(schema as object) } : (schema as object));
  } catch (e) {
    if (e instanceof ToolError) throw e;
    if (e instanceof RangeError) throw new ToolError('ERR_INVALID_SCHEMA', 'schema is nested too deeply to compile');
    // Ajv's own reason (unknown keyword or format, unresolvable $ref, invalid pattern); no stack.
    const reason = messageOf(e).slice(0, 500);
    const url = /unknown format "url"/.test(reason)
      ? '; format "url" backtracks on long strings, use "uri" (RFC 3986)'
      : '';
    throw new ToolError('ERR_INVALID_SCHEMA', reason + url);
  }
}

/**
 * The `$id` a schema is compiled under when it refers to its own root (`{"$ref":"#"}`, a recursive
 * tool input) and has no `$id`: without one Ajv cannot resolve `#` ("can't resolve reference #
 * from id #") when `addUsedSchema` is false. The id is never registered, so schemas sharing it
 * do not meet; the value keeps the author's schema, without it.
 */
const ROOT_ID = 'urn:scope-tool:root';

function refersToRoot(schema: JsonValue): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || Object.hasOwn(schema, '$id'))
    return false;
  return JSON.stringify(schema).includes('"$ref":"#"');
}

/** Keywords whose member names Ajv silently skips when the name is `__proto__`. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'dependencies']);

/**
 * A deep, frozen copy of a JSON value: member order kept, `__proto__` an own data property. With
 * `copy` false (a value that is deep-frozen and detached already), only the check runs and `value`
 * itself is returned.
 * Iterative. Refuses a `__proto__` name under `properties` (and the other name maps), which Ajv
 * would silently not check (a conservative test: it also fires inside `const` or `default` data).
 */
function frozenCopy(value: JsonValue, copy = true): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  const root: JsonValue = !copy ? value : Array.isArray(value) ? [] : {};
  const work: [JsonValue, JsonValue, string][] = [[value, root, '']];
  const made: object[] = [];
  while (work.length > 0) {
    const [from, to, parentKey] = work.pop() as [JsonValue, JsonValue, string];
    made.push(to as object);
    for (const k of Object.keys(from as object)) {
      if (k === '__proto__' && NAME_MAPS.has(parentKey) && !Array.isArray(from)) {
        throw new ToolError(
          'ERR_INVALID_SCHEMA',
          `"${parentKey}" names a member "__proto__", which the validator ` + 'cannot check; rename the member',
        );
      }
      const v = (from as Record<string, JsonValue>)[k];
      if (typeof v !== 'object' || v === null) {
        if (copy) Object.defineProperty(to, k, { value: v, enumerable: true, writable: true, configurable: true });
        continue;
      }
      const c: JsonValue = !copy ? v : Array.isArray(v) ? [] : {};
      if (copy) Object.defineProperty(to, k, { value: c, enumerable: true, writable: true, configurable: true });
      work.push([v, c, k]);
    }
  }
  if (copy) for (const o of made) Object.freeze(o);
  return root;
}

function issue(
  code: AdmissionIssue['code'],
  path: Segment[],
  message: string,
  extra: Partial<AdmissionIssue> = {},
): AdmissionIssue {
  return Object.freeze({ code, path: Object.freeze(path), message, ...extra });
}

/**
 * Turns Ajv's errors into at most MAX_SCHEMA_ISSUES issues: alternatives merged (mergeAlternatives),
 * an `if` error dropped when the errors of its `then` / `else` precede it, duplicates (same place,
 * same message) once.
 */
function schemaIssues(
  errors: readonly ErrorObject[],
  value: JsonValue,
  omittable: (err: ErrorObject) => boolean,
): AdmissionIssue[] {
  const kept: ErrorObject[] = [];
  for (const err of errors) {
    if (err.keyword === 'anyOf' || err.keyword === 'oneOf') {
      let start = kept.length;
      while (start > 0 && inAlternative(kept[start - 1], err)) start--;
      kept.push(...mergeAlternatives(err, kept.splice(start)));
    } else if (err.keyword === 'propertyNames' && kept.some((k) => namedIn(k, err))) {
      continue; // its inner error, just kept, says it with the rule (ruleOf)
    } else if (
      err.keyword === 'if' &&
      kept.length > 0 &&
      within(kept[kept.length - 1].instancePath, err.instancePath)
    ) {
      continue;
    } else {
      kept.push(err);
    }
  }
  const seen = new Set<string>();
  const issues: AdmissionIssue[] = [];
  for (const err of kept) {
    const made = schemaIssue(err, value, omittable);
    const key = `${err.instancePath}\u0000${made.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(made);
    if (issues.length === MAX_SCHEMA_ISSUES) break;
  }
  return issues;
}

/** Whether `named` is an inner error of the `propertyNames` error `err` (same object, same name). */
function namedIn(named: ErrorObject, err: ErrorObject): boolean {
  return (
    named.instancePath === err.instancePath &&
    named.propertyName === (err.params as { propertyName?: unknown }).propertyName
  );
}

/** Whether instance pointer `inner` is `outer` or below it. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * Whether `err`, emitted just before the `anyOf` / `oneOf` error `alt`, came from one of its
 * branches: it is at or below alt's place in the value, and it is not an error of a sibling
 * keyword of the same schema (schemaPath under alt's parent schema, but not under alt itself; a
 * branch that is a `$ref` reports schema paths of the schema it refers to, such as `#/$defs/Cat`).
 */
function inAlternative(err: ErrorObject, alt: ErrorObject): boolean {
  if (!within(err.instancePath, alt.instancePath)) return false;
  if (err.schemaPath.startsWith(`${alt.schemaPath}/`)) return true;
  const parent = alt.schemaPath.slice(0, alt.schemaPath.lastIndexOf('/'));
  if (!err.schemaPath.startsWith(`${parent}/`)) return true;
  const next = err.schemaPath.slice(parent.length + 1).split('/')[0];
  return next === '$defs' || next === 'definitions';
}

/**
 * What a failed `anyOf` / `oneOf` reports instead of its branches' errors: the errors inside the
 * value (below alt's place) when some branch got that far, since the value matched that branch's
 * shape, without the `const` / `enum` refusals of discriminators when others remain (several
 * `const` refusals at one place merge into one `enum` refusal); else one error: `must be string or integer` when every branch refused the value's type,
 * `must match one of the alternatives (anyOf): <each branch's rule>` otherwise. A `oneOf` that
 * matched several branches (no branch errors) stays as Ajv reported it.
 */
function mergeAlternatives(alt: ErrorObject, branches: ErrorObject[]): ErrorObject[] {
  if (branches.length === 0) return [alt];
  const inside = branches.filter((e) => e.instancePath !== alt.instancePath);
  if (inside.length > 0) {
    // A branch refused for its discriminator (`kind` must be "dog") is not the one the value meant.
    const shape = inside.filter((e) => e.keyword !== 'const' && e.keyword !== 'enum');
    if (shape.length > 0) return shape;
    return mergeConstants(inside);
  }
  if (branches.every((e) => e.keyword === 'type')) {
    const types = [...new Set(branches.flatMap((e) => String((e.params as { type?: unknown }).type).split(',')))];
    return [{ ...alt, keyword: 'type', params: { type: types.join(',') }, message: `must be ${types.join(' or ')}` }];
  }
  const rules = [...new Set(branches.map(ruleOf))];
  return [
    {
      ...alt,
      params: { ...alt.params },
      message: `must match one of the alternatives (${alt.keyword}): ${rules.join('; or ')}`,
    },
  ];
}

/** `const` refusals at one place, one per branch, as one `must be one of ["cat","dog"]` refusal. */
function mergeConstants(errors: ErrorObject[]): ErrorObject[] {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) byPlace.set(e.instancePath, [...(byPlace.get(e.instancePath) ?? []), e]);
  return [...byPlace.values()].flatMap((group) => {
    if (group.length === 1 || !group.every((e) => e.keyword === 'const')) return group;
    const allowedValues = group.map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
    return [
      {
        ...group[0],
        keyword: 'enum',
        params: { allowedValues },
        message: 'must be equal to one of the allowed values',
      },
    ];
  });
}

/**
 * Turns one Ajv error into an issue: path segments from instancePath, a message with the fix. A
 * `null` refused by `type` for a member that may be left out says so:
 * `/lines: must be integer; or leave "lines" out` (regression, new-user trial finding 12c).
 */
function schemaIssue(err: ErrorObject, value: JsonValue, omittable: (err: ErrorObject) => boolean): AdmissionIssue {
  const path = segmentsOf(err.instancePath, value);
  const where = path.length === 0 ? '(root)' : clip(jsonPointer(path), 160);
  const p = err.params as Record<string, unknown>;
  const member = path[path.length - 1];
  const leaveOut =
    err.keyword === 'type' && typeof member === 'string' && omittable(err) ? `; or leave ${quote(member)} out` : '';
  return issue('schema', path, `${where}: ${ruleOf(err)}${leaveOut}`, {
    keyword: err.keyword,
    params: Object.freeze(err.propertyName === undefined ? { ...p } : { ...p, propertyName: err.propertyName }),
  });
}

/**
 * The rule an Ajv error states, with the fix: `must have required member "city"; add it`; a known
 * format or pattern in words: `must be an RFC 3339 date-time, e.g. 2025-07-01T00:00:00Z`.
 */
function ruleOf(err: ErrorObject): string {
  const p = err.params as Record<string, unknown>;
  // A member name refused by `propertyNames` (Ajv names it on the inner error): the name, and why.
  // Regression (new-user review): `{"__proto__":"x"}` in a Record member read "must NOT be valid".
  if (err.propertyName !== undefined) {
    const why =
      err.keyword === 'not' ? 'the name is not allowed' : `its name ${ruleOf({ ...err, propertyName: undefined })}`;
    return `must NOT have member ${quote(err.propertyName)}: ${why}; rename or remove it`;
  }
  if (err.keyword === 'additionalProperties') return `must NOT have member ${quote(p.additionalProperty)}; remove it`;
  if (err.keyword === 'unevaluatedProperties') return `must NOT have member ${quote(p.unevaluatedProperty)}; remove it`;
  if (err.keyword === 'required') return `must have required member ${quote(p.missingProperty)}; add it`;
  if (err.keyword === 'enum') return `must be one of ${clip(JSON.stringify(p.allowedValues), 200)}`;
  if (err.keyword === 'const') return `must be ${clip(JSON.stringify(p.allowedValue), 200)}`;
  // A format, or a pattern scope-tool writes (a date-time's), in words: lib/protocol/formats.ts.
  const described =
    err.keyword === 'format'
      ? describeFormat(p.format)
      : err.keyword === 'pattern'
        ? describePattern(p.pattern)
        : undefined;
  if (described !== undefined) return `must be ${described}`;
  return err.message ?? `must satisfy ${err.keyword}`;
}

/** Splits an Ajv instancePath (RFC 6901) into segments; indices of arrays become numbers. */
function segmentsOf(pointer: string, value: JsonValue): Segment[] {
  if (pointer === '') return [];
  const path: Segment[] = [];
  let node: JsonValue | undefined = value;
  for (const raw of pointer.slice(1).split('/')) {
    const name = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(name);
      path.push(index);
      node = node[index];
    } else {
      path.push(name);
      node = node !== null && typeof node === 'object' && Object.hasOwn(node, name) ? node[name] : undefined;
    }
  }
  return path;
}

function quote(v: unknown): string {
  return goQuoteClipped(String(v));
}
