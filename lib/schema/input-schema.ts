import ts from 'typescript';
import type { JsonSchemaGenerator } from 'typescript-json-schema';
import { mergeClass } from './dto-class';
import { checkClassDefaults } from './defaults';
import type { SchemaObject } from './manifest';
import type { ClassSink } from './member-context';
import { SCHEMA_MESSAGES as M } from './messages';
import type { Reach } from './reach';
import { tupleItems } from './schema-types';
import { compileSchemaValue } from '../protocol';
import { messageOf } from '../protocol/errors';
import { FORBIDDEN_MEMBERS, VALUE_KEYWORDS } from '../dto/contract-rules';

/** The input schema of a method that takes no input: an empty, closed object. */
export const EMPTY_INPUT_SCHEMA: SchemaObject = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: false,
});

/**
 * Derives the draft 2020-12 input schema of a DTO class: typescript-json-schema's draft-07 output
 * with `$schema` dropped, class-validator constraints merged per class, non-recursive `$ref`s
 * inlined, and the recursive ones kept under `$defs` (`#/definitions/X` becomes `#/$defs/X`). The
 * top level is always an object schema with its `properties` (providers and the container read
 * them); a recursive root refers to itself with `{"$ref":"#"}` (lib/protocol compiles such a schema
 * under a synthetic `$id`, which Ajv needs to resolve `#` with `addUsedSchema: false`).
 * A numeric enum whose values are all integers says `integer`.
 * @returns the schema, or `undefined` after reporting through `sink.fail`
 * @internal
 */
export function deriveInputSchema(
  generator: JsonSchemaGenerator,
  root: ts.ClassDeclaration,
  reach: Reach,
  checker: ts.TypeChecker,
  sink: ClassSink,
): SchemaObject | undefined {
  const name = root.name?.text ?? '';
  if (!refuseGenerics(root, reach, sink) || !refuseNamespaced(root, reach, sink)) return undefined;
  let failed = false;
  const outer = sink;
  sink = {
    warn: outer.warn,
    fail: (m, n) => ((failed = true), outer.fail(m, n)),
    ...(outer.merged === undefined ? {} : { merged: outer.merged }),
  };
  let raw: SchemaObject;
  try {
    raw = structuredClone(quietly(() => generator.getSchemaForSymbol(name, true))) as SchemaObject;
  } catch {
    sink.fail(M.schemaNotDerived(name));
    return undefined;
  }
  const defs = plainNames(raw, name, sink);
  if (defs === undefined) return undefined;
  delete raw['definitions'];
  delete raw['$schema'];
  let top = raw;
  const topRef = refName(raw['$ref']);
  if (topRef !== undefined) {
    const target = defs.get(topRef);
    if (target === undefined) return undefined;
    top = structuredClone(target);
  }
  const resolve = (ref: string): SchemaObject | undefined => {
    const n = refName(ref);
    return n === undefined ? undefined : defs.get(n);
  };
  classTags(top, root, checker, sink);
  mergeClass(top, root, checker, resolve, sink);
  const merged = new Set<ts.ClassDeclaration>([root]);
  for (const [defName, def] of defs) {
    const decl = reach.classes.get(defName);
    if (decl === undefined) continue;
    merged.add(decl);
    classTags(def, decl, checker, sink);
    mergeClass(def, decl, checker, resolve, sink);
  }
  // A nested class whose definition was not found would keep typescript-json-schema's bare types,
  // without its decorators' constraints: generation fails rather than write that schema.
  for (const decl of reach.nested) {
    if (merged.has(decl)) continue;
    const cls = decl.name?.text ?? '<anonymous>';
    sink.fail(M.nestedDefinitionMissing(name, cls, [...defs.keys()]), decl);
  }
  // Defaults are checked per class, so a class's members are checked wherever it appears
  // (docs/architecture.md section 4 rule 7).
  checkClassDefaults(top, name, defs, (issue) => sink.fail(issue, root));
  for (const [defName, def] of defs) {
    const decl = reach.classes.get(defName);
    if (decl !== undefined && decl !== root) checkClassDefaults(def, defName, defs, (issue) => sink.fail(issue, decl));
  }
  const schema = finalize(top, defs, name);
  const symbolic = failed ? undefined : symbolNames(schema, [name]);
  if (symbolic !== undefined) {
    // typescript-json-schema writes a symbol-keyed member as `__@name@id` (an unstable id): never a member name.
    sink.fail(M.symbolKey(symbolic.join('.')));
    return undefined;
  }
  return compiles(schema, name, sink) ? schema : undefined;
}

/**
 * Refuses every generic class the input reaches (`Page<T>`; messages.ts genericClass says why).
 * Returns false after reporting.
 */
function refuseGenerics(root: ts.ClassDeclaration, reach: Reach, sink: ClassSink): boolean {
  let ok = true;
  for (const decl of new Set([root, ...reach.classes.values()])) {
    const params = decl.typeParameters;
    if (params === undefined || params.length === 0) continue;
    const name = decl.name?.text ?? '<anonymous>';
    sink.fail(
      M.genericClass(
        name,
        params.map((p) => p.name.text),
      ),
      decl,
    );
    ok = false;
  }
  return ok;
}

/**
 * Refuses every class the input reaches that is declared in a namespace, which typescript-json-schema
 * cannot find by name (messages.ts namespacedClass). Returns false after reporting.
 */
function refuseNamespaced(root: ts.ClassDeclaration, reach: Reach, sink: ClassSink): boolean {
  let ok = true;
  for (const decl of new Set([root, ...reach.classes.values()])) {
    const spaces: string[] = [];
    for (let n: ts.Node = decl.parent; !ts.isSourceFile(n); n = n.parent) {
      if (ts.isModuleDeclaration(n) && ts.isIdentifier(n.name)) spaces.unshift(n.name.text);
    }
    if (spaces.length === 0) continue;
    const name = decl.name?.text ?? '<anonymous>';
    sink.fail(M.namespacedClass(name, spaces.join('.')), decl);
    ok = false;
  }
  return ok;
}

/** Class JSDoc tags typescript-json-schema copies into the schema that only annotate it. */
const ANNOTATION_TAGS = new Set(['description', 'title', 'examples', '$comment']);

/**
 * typescript-json-schema turns some class JSDoc tags into keywords of the class's object schema
 * (`@ignore and` gives `"ignore": "and"`, which no validator knows; `@maxProperties 3` a check the
 * decoder does not make; `@TJS-x` any keyword). `@ignore` is a documentation tag: its keyword is
 * dropped. Any other tag that became a keyword fails generation, naming the class and the fix;
 * descriptions, titles and examples stay.
 */
function classTags(schema: SchemaObject, decl: ts.ClassDeclaration, checker: ts.TypeChecker, sink: ClassSink): void {
  const symbol = decl.name === undefined ? undefined : checker.getSymbolAtLocation(decl.name);
  if (symbol === undefined) return;
  const name = decl.name?.text ?? '<anonymous>';
  for (const tag of symbol.getJsDocTags()) {
    const keyword = (tag.name.startsWith('TJS-') ? tag.name.slice(4) : tag.name).split('.')[0] ?? '';
    if (ANNOTATION_TAGS.has(keyword) || !Object.prototype.hasOwnProperty.call(schema, keyword)) continue;
    if (keyword === 'ignore') {
      delete schema[keyword];
      continue;
    }
    sink.fail(M.classTagKeyword(name, tag.name, keyword), decl);
  }
}

/**
 * Every generated schema compiles before it can reach a manifest (a schema that does not compile
 * would fail the tool at start-up with ERR_INVALID_SCHEMA): a failure names the member the
 * offending keyword sits in, when the compiler's message locates it. Returns false after reporting.
 */
function compiles(schema: SchemaObject, name: string, sink: ClassSink): boolean {
  try {
    compileSchemaValue(schema);
    return true;
  } catch (e) {
    const reason = messageOf(e).replace(/^jsonschema: invalid schema: /, '');
    const keyword = /unknown keyword: "([^"]+)"/.exec(reason)?.[1];
    const pointer = /(?:^|at path "#)(\/[^": ]*)/.exec(reason)?.[1];
    const refused = /^pattern ("(?:[^"\\]|\\.)*") /.exec(reason)?.[1]; // a pattern RE2 cannot run (lib/protocol/regex.ts)
    const members =
      pointer !== undefined
        ? membersOf(pointer.split('/').slice(1))
        : keyword !== undefined
          ? pathOf(schema, keyword)
          : refused !== undefined
            ? pathOf(schema, 'pattern', [], JSON.parse(refused) as string)
            : [];
    const where = [name, ...(members ?? [])].join('.');
    sink.fail(M.schemaDoesNotCompile(where, reason));
    return false;
  }
}

/** The member path to the first property name holding `__@` (a symbol key), or undefined. */
function symbolNames(node: unknown, trail: string[]): string[] | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = symbolNames(n, trail);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  for (const [k, v] of Object.entries(node as SchemaObject)) {
    if (VALUE_KEYWORDS.has(k)) continue;
    if (k === 'properties' && v !== null && typeof v === 'object') {
      for (const [member, sub] of Object.entries(v as SchemaObject)) {
        if (member.includes('__@')) return [...trail, member.replace(/@\d+$/, '')];
        const found = symbolNames(sub, [...trail, member]);
        if (found !== undefined) return found;
      }
    } else if (k === 'required' && Array.isArray(v) && v.some((m) => typeof m === 'string' && m.includes('__@'))) {
      return [...trail, String(v.find((m) => typeof m === 'string' && m.includes('__@'))).replace(/@\d+$/, '')];
    } else {
      const found = symbolNames(v, trail);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The member names along a JSON pointer into the schema (`/properties/a/properties/b/x` gives a, b). */
function membersOf(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    if (segments[i] === 'properties') out.push((segments[++i] as string).replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return out;
}

/** The member names down to the first subschema holding `keyword` (with `value`, when given), or undefined. */
function pathOf(node: unknown, keyword: string, trail: string[] = [], value?: unknown): string[] | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = pathOf(n, keyword, trail, value);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const schema = node as SchemaObject;
  if (Object.prototype.hasOwnProperty.call(schema, keyword) && (value === undefined || schema[keyword] === value))
    return trail;
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && v !== null && typeof v === 'object') {
      for (const [member, sub] of Object.entries(v as SchemaObject)) {
        const found = pathOf(sub, keyword, [...trail, member], value);
        if (found !== undefined) return found;
      }
    } else if (!VALUE_KEYWORDS.has(k)) {
      const found = pathOf(v, keyword, trail, value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * typescript-json-schema reports a property initializer it cannot evaluate (`sort = Order.Newest`)
 * with console.warn, though the generator reads such defaults itself (initializerDefault): that
 * one notice is dropped while it runs; any other console output passes through.
 */
function quietly<T>(run: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]): void => {
    if (
      typeof args[0] === 'string' &&
      /^(initializer is expression for |unknown initializer for property )/.test(args[0])
    )
      return;
    warn.apply(console, args);
  };
  try {
    return run();
  } finally {
    console.warn = warn;
  }
}

/**
 * typescript-json-schema names a definition by the type's fully qualified text, and strips the
 * `import("file").` qualifier TypeScript prints for a class of another module, but not the form an
 * ESM project gets (`module: nodenext`, `"type": "module"`): `import("/abs/label",{with:{...}}).Label`.
 * Each definition is keyed by its plain name here (every `$ref` rewritten), so an ESM project gets
 * the same manifest as its CommonJS twin and no absolute path reaches it. Two definitions that would
 * share a plain name fail generation. Returns the definitions, or undefined after reporting.
 */
function plainNames(raw: SchemaObject, rootName: string, sink: ClassSink): Map<string, SchemaObject> | undefined {
  const defs = new Map<string, SchemaObject>();
  const renames = new Map<string, string>();
  for (const [defName, def] of Object.entries((raw['definitions'] ?? {}) as Record<string, SchemaObject>)) {
    const plain = defName.replace(IMPORT_QUALIFIER, '');
    if (defs.has(plain)) {
      const first = [...renames].find(([, p]) => p === plain)?.[0] ?? plain;
      sink.fail(M.definitionNameClash(rootName, plain, first, defName));
      return undefined;
    }
    if (plain !== defName) renames.set(defName, plain);
    defs.set(plain, def);
  }
  if (renames.size === 0) return defs;
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (node !== null && typeof node === 'object') {
      const obj = node as SchemaObject;
      const target = refName(obj['$ref']);
      const plain = target === undefined ? undefined : renames.get(target);
      if (plain !== undefined) obj['$ref'] = `#/definitions/${encodeURIComponent(plain)}`;
      for (const [k, v] of Object.entries(obj)) if (!VALUE_KEYWORDS.has(k)) rewrite(v);
    }
  };
  const top = refName(raw['$ref']);
  if (top !== undefined && renames.has(top))
    raw['$ref'] = `#/definitions/${encodeURIComponent(renames.get(top) as string)}`;
  for (const [k, v] of Object.entries(raw)) if (k !== 'definitions' && !VALUE_KEYWORDS.has(k)) rewrite(v);
  for (const def of defs.values()) rewrite(def);
  return defs;
}

/** The module qualifier TypeScript prints before a type of another module (`import("./x").`, with import attributes). */
const IMPORT_QUALIFIER = /\bimport\("(?:[^"\\]|\\.)*"(?:,\{[^()]*\})?\)\./g;

function refName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref);
  return m?.[1] === undefined ? undefined : decodeURIComponent(m[1]);
}

/** Inlines every ref whose target never reaches itself; keeps the others under `$defs`. */
function finalize(top: SchemaObject, defs: Map<string, SchemaObject>, rootName: string): SchemaObject {
  const recursive = new Set<string>();
  for (const name of defs.keys()) if (reaches(name, name, defs, new Set())) recursive.add(name);
  const used = new Set<string>();
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const obj = node as SchemaObject;
    const name = refName(obj['$ref']);
    if (name !== undefined) {
      const target = defs.get(name);
      if (target !== undefined && !recursive.has(name)) {
        const { $ref: _ignored, ...rest } = obj;
        return { ...(rewrite(structuredClone(target)) as SchemaObject), ...rest };
      }
      // The root DTO refers to itself with "#": the top level is its schema, no copy under $defs.
      if (name === rootName) return { ...obj, $ref: '#' };
      used.add(name);
      return { ...obj, $ref: `#/$defs/${encodeURIComponent(name)}` };
    }
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(obj)) {
      Object.defineProperty(out, k, { value: rewrite(v), enumerable: true, writable: true, configurable: true });
    }
    return integerEnum(tupleItems(out));
  };
  const result = rewrite(top) as SchemaObject;
  const kept: Record<string, unknown> = {};
  const queue = [...used];
  for (let i = 0; i < queue.length; i++) {
    const name = queue[i] as string;
    if (name in kept) continue;
    const before = used.size;
    kept[name] = rewrite(defs.get(name));
    if (used.size !== before) for (const n of used) if (!queue.includes(n)) queue.push(n);
  }
  if (Object.keys(kept).length > 0) result['$defs'] = kept;
  return guardFreeValues(result);
}

/** The `$defs` name of a free-form JSON value; not an identifier, so no DTO class can take it. */
const FREE_VALUE_DEF = 'scope-tool.free-value';

const ANNOTATION_ONLY = new Set([
  'description',
  'title',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const CHILD_SCHEMA = ['items', 'additionalProperties', 'not', 'contains'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Where the schema admits member names it does not list (a `Record<string, T>`, an `object`, an
 * `unknown` value), the decoder still refuses `__proto__`, `constructor` and `prototype`, at any
 * depth. The schema says the same: such objects get `propertyNames: { not: { enum } }`, and a
 * schema that admits any value (`{}`) refers to the free value definition, which applies that rule
 * to every object it contains (`$defs["scope-tool.free-value"]`).
 */
function guardFreeValues(root: SchemaObject): SchemaObject {
  let used = false;
  const freeRef = `#/$defs/${FREE_VALUE_DEF}`;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as SchemaObject;
    // A free value (`{}`), also one that refuses null (`{"not":{"type":"null"}}`, @IsDefined() on unknown).
    if (Object.keys(schema).every((k) => ANNOTATION_ONLY.has(k) || (k === 'not' && isNullType(schema[k])))) {
      schema['$ref'] = freeRef;
      used = true;
      return;
    }
    const types = Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
    if (types.includes('array') && schema['items'] === undefined && schema['prefixItems'] === undefined)
      schema['items'] = {};
    const open = schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false;
    if (
      open ||
      (types.includes('object') && schema['additionalProperties'] === undefined && schema['properties'] === undefined)
    ) {
      if (schema['additionalProperties'] === true || schema['additionalProperties'] === undefined)
        schema['additionalProperties'] = {};
      schema['propertyNames'] = { not: { enum: [...FORBIDDEN_MEMBERS] } };
    }
    for (const key of CHILD_SCHEMA) visit(schema[key]);
    for (const key of CHILD_LISTS) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach(visit);
    for (const key of ['properties', '$defs']) {
      const map = schema[key];
      if (map !== null && typeof map === 'object') Object.values(map).forEach(visit);
    }
  };
  visit(root);
  if (used) {
    const defs = (root['$defs'] ?? {}) as Record<string, unknown>;
    defs[FREE_VALUE_DEF] = {
      propertyNames: { not: { enum: [...FORBIDDEN_MEMBERS] } },
      additionalProperties: { $ref: freeRef },
      items: { $ref: freeRef },
    };
    delete root['$defs'];
    root['$defs'] = defs;
  }
  return root;
}

/** Whether a subschema is exactly `{"type": "null"}`. */
function isNullType(node: unknown): boolean {
  return (
    node !== null &&
    typeof node === 'object' &&
    Object.keys(node).length === 1 &&
    (node as SchemaObject)['type'] === 'null'
  );
}

/**
 * `{ type: "number", enum: [1, 2] }` says `integer`: the values admit no fraction
 * (docs/architecture.md section 4 rule 5).
 */
function integerEnum(schema: SchemaObject): SchemaObject {
  const values = schema['enum'];
  if (!Array.isArray(values) || !values.some((v) => typeof v === 'number')) return schema;
  if (!values.every((v) => v === null || (typeof v === 'number' && Number.isInteger(v)))) return schema;
  const type = schema['type'];
  if (type === 'number') schema['type'] = 'integer';
  else if (Array.isArray(type)) schema['type'] = type.map((t) => (t === 'number' ? 'integer' : t));
  return schema;
}

function reaches(from: string, goal: string, defs: Map<string, SchemaObject>, seen: Set<string>): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  const targets: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node !== null && typeof node === 'object') {
      const n = refName((node as SchemaObject)['$ref']);
      if (n !== undefined) targets.push(n);
      Object.values(node).forEach(collect);
    }
  };
  collect(defs.get(from));
  return targets.some((t) => t === goal || reaches(t, goal, defs, seen));
}
