import ts from 'typescript';
import { FORBIDDEN_MEMBERS } from '../dto/contract-rules';
import { prototypePropertyProblem } from '../dto/forbidden';
import { ruleOf } from './catalogue';
import { mergeMember } from './constraints';
import { fromOtherPackage, literalValue, readDecorators, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import type { ClassSink } from './member-context';
import { authoredEnumOrder, dateTimePattern, initializerDefault, recordValues } from './member-checks';
import { SCHEMA_MESSAGES as M } from './messages';
import type { RefResolver } from './schema-types';

export type { ClassSink } from './member-context';

/**
 * The class and its base classes, most derived first (class-validator's inheritance rule: parent
 * records apply, the subclass wins per property and decorator).
 * @internal
 */
export function classChain(decl: ts.ClassDeclaration, checker: ts.TypeChecker): ts.ClassDeclaration[] {
  const chain: ts.ClassDeclaration[] = [];
  for (
    let c: ts.ClassDeclaration | undefined = decl;
    c !== undefined && !chain.includes(c);
    c = baseOf(c, checker)?.cls
  )
    chain.push(c);
  return chain;
}

/** The `extends` clause of a class and the class declaration it names, if it names one. */
function baseOf(
  decl: ts.ClassDeclaration,
  checker: ts.TypeChecker,
): { readonly clause: ts.ExpressionWithTypeArguments; readonly cls: ts.ClassDeclaration | undefined } | undefined {
  const clause = decl.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
  if (clause === undefined) return undefined;
  const symbol =
    checker.getTypeAtLocation(clause.expression).getSymbol() ?? checker.getSymbolAtLocation(clause.expression);
  return { clause, cls: symbol?.declarations?.find(ts.isClassDeclaration) };
}

/**
 * The `extends` clause where `classChain` had to stop: a base that is not a class declaration the
 * generator can read (a mixin or class factory such as `extends Timestamped(Plain)`, a class
 * expression). Its members reach the TypeScript type, but their decorators cannot be read.
 */
function unreadableBase(
  decl: ts.ClassDeclaration,
  checker: ts.TypeChecker,
): ts.ExpressionWithTypeArguments | undefined {
  const chain = classChain(decl, checker);
  const base = baseOf(chain[chain.length - 1] as ts.ClassDeclaration, checker);
  return base?.cls === undefined ? base?.clause : undefined;
}

/**
 * Merges the class-validator and class-transformer decorators of `decl` (and its bases) into the
 * object schema typescript-json-schema derived for it: constraints per member, `@IsOptional` and
 * initializers remove a member from `required`, `@Expose({ name })` renames it. Members are ordered
 * as the class lays them out: base class members first, in declaration order (a redeclared member
 * keeps its base position), then the subclass's own (docs/architecture.md section 3.6); `required`
 * follows that order.
 * @internal
 */
export function mergeClass(
  schema: SchemaObject,
  decl: ts.ClassDeclaration,
  checker: ts.TypeChecker,
  resolve: RefResolver,
  sink: ClassSink,
): void {
  if (schema['properties'] === undefined && schema['type'] === 'object') {
    // A DTO with no members (accepts `{}`): spell the empty `properties` out, in the usual place.
    const additional = schema['additionalProperties'];
    delete schema['additionalProperties'];
    schema['properties'] = {};
    schema['additionalProperties'] = additional ?? false;
  }
  const properties = schema['properties'] as Record<string, SchemaObject> | undefined;
  if (properties === undefined) return;
  const className = decl.name?.text ?? '<anonymous>';
  const base = unreadableBase(decl, checker);
  if (base !== undefined) return sink.fail(M.mixinBase(className, base.getText()), base);
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const dto: DtoClass = { decl, className, chain: classChain(decl, checker), checker, resolve, sink };
  classShape(dto.chain, className, sink);
  const skip = checkMembers(properties, dto.chain, className, checker, sink);
  const wires = new Map<string, string>();
  for (const name of Object.keys(properties)) {
    if (skip.has(name)) continue;
    const merged = mergeProperty(dto, name, properties, required);
    if (merged === 'dropped') required.delete(name);
    if (typeof merged !== 'object') continue;
    if (merged.required === false) required.delete(name);
    if (merged.wire !== name) wires.set(name, merged.wire);
  }
  wireProperties(schema, properties, required, wires, dto);
}

/** One DTO class being merged, and where its problems go. */
interface DtoClass {
  readonly decl: ts.ClassDeclaration;
  readonly className: string;
  /** The class and its bases, most derived first. */
  readonly chain: readonly ts.ClassDeclaration[];
  readonly checker: ts.TypeChecker;
  readonly resolve: RefResolver;
  readonly sink: ClassSink;
}

/**
 * Merges one property: its declarations along the chain, the decorators that apply by
 * class-validator's inheritance rule, then each member-level rule (Record values, defaults, enum
 * order, the decorators' rows, the Date pattern). Returns the wire name and whether the decoder
 * requires the member (false: remove it from `required`), `dropped` for an undecorated accessor the
 * schema must not list, or `failed` after reporting.
 */
function mergeProperty(
  dto: DtoClass,
  name: string,
  properties: Record<string, SchemaObject>,
  required: ReadonlySet<string>,
): { wire: string; required: boolean | undefined } | 'dropped' | 'failed' {
  const { chain, checker, sink } = dto;
  const where = `${dto.className}.${name}`;
  const fragment = properties[name];
  const members = chain
    .map((c) =>
      c.members.find(
        (m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && memberName(m, checker) === name,
      ),
    )
    .filter((m): m is ts.PropertyDeclaration => m !== undefined);
  const first = members[0];
  if (fragment === undefined) return 'failed';
  if (first === undefined) {
    if (chain.some((c) => c.members.some((m) => ts.isAccessor(m) && memberName(m, checker) === name))) {
      // An undecorated accessor: the decoder does not know it and refuses it as an unknown member; so does the schema.
      delete properties[name];
      return 'dropped';
    }
    sink.fail(M.noDeclaration(where, name), dto.decl);
    return 'failed';
  }
  const decorators = inheritedDecorators(members, first.parent === dto.decl, checker);
  if (!decorators.some(isValidationDecorator)) return (sink.fail(M.noValidator(where), first), 'failed');
  const type = checker.getTypeAtLocation(first);
  const builtin = nonJsonBuiltin(type, checker);
  if (builtin !== undefined) return (sink.fail(M.notJsonBuiltin(where, builtin), first), 'failed');
  const at: ClassSink = {
    warn: (issue, node) => sink.warn(issue, node ?? first),
    fail: (issue, node) => sink.fail(issue, node ?? first),
    ...(sink.merged === undefined ? {} : { merged: sink.merged }),
  };
  recordValues(fragment, type, checker, where, (issue) => sink.fail(issue, first));
  checkJsDocDefault(fragment, members, where, checker, sink);
  initializerDefault(fragment, members, checker, where, at);
  authoredEnumOrder(fragment, members.find((m) => m.type !== undefined)?.type, checker);
  const facts = mergeMember({ ...at, where, schema: fragment, type, decorators, checker, resolve: dto.resolve });
  dateTimePattern(fragment, type, checker);
  const wire = facts.wireName ?? name;
  // @ValidateIf: class-validator requires and checks the member only when the condition holds (its
  // warning says so), unless @IsDefined requires it always; the schema accepts its absence.
  const has = (n: string): boolean => decorators.some((d) => d.name === n);
  const conditional = has('ValidateIf') && !has('IsDefined');
  if (facts.optional || members.some((m) => m.initializer !== undefined) || conditional)
    return { wire, required: false };
  if (!required.has(name)) {
    // The decoder requires every member without @IsOptional() or an initializer (class-validator checks a
    // member whatever its `?`); typescript-json-schema left it out of `required` because of the `?`.
    const question = members.some((m) => m.questionToken !== undefined);
    sink.fail(
      has('IsDefined') ? M.definedButOptional(where, question) : M.optionalWithoutDecorator(where, question),
      first,
    );
  }
  return { wire, required: undefined };
}

/**
 * Writes `properties` under their wire names in class layout order, and `required` in that order,
 * refusing names the decoder refuses (lib/dto/forbidden.ts, lib/dto/contract-rules.ts): a property
 * named after an Object.prototype member (class-validator fails every call of such a DTO), a
 * forbidden wire name, and one wire name twice.
 */
function wireProperties(
  schema: SchemaObject,
  properties: Record<string, SchemaObject>,
  required: ReadonlySet<string>,
  wires: ReadonlyMap<string, string>,
  dto: DtoClass,
): void {
  const { chain, checker, className, sink } = dto;
  const renamed: Record<string, SchemaObject> = {};
  const order: string[] = [];
  for (const name of layoutOrder(Object.keys(properties), chain, checker)) {
    const fragment = properties[name];
    if (fragment === undefined) continue;
    const wire = wires.get(name) ?? name;
    const where = `${className}.${name}`;
    const declared = (): ts.Node =>
      chain.flatMap((c) => c.members).find((m) => ts.isPropertyDeclaration(m) && memberName(m, checker) === name) ??
      dto.decl;
    const problem = prototypePropertyProblem(className, name);
    if (problem !== undefined) sink.fail(M.prototypeProperty(where, problem), declared());
    if (FORBIDDEN_MEMBERS.has(wire)) sink.fail(M.forbiddenWireName(where, wire), declared());
    if (Object.prototype.hasOwnProperty.call(renamed, wire)) sink.fail(M.wireNameTwice(where, wire));
    Object.defineProperty(renamed, wire, { value: fragment, enumerable: true, writable: true, configurable: true });
    if (required.has(name)) order.push(wire);
  }
  schema['properties'] = renamed;
  if (order.length > 0) schema['required'] = order;
  else delete schema['required'];
}

/**
 * class-validator's record `type` of a decorator: the system decorators have their own, every other
 * class-validator decorator (ValidateBy, Validate) is `customValidation`; class-transformer
 * decorators are keyed by name.
 */
const RECORD_TYPES: Record<string, string> = {
  IsDefined: 'isDefined',
  IsOptional: 'conditionalValidation',
  ValidateIf: 'conditionalValidation',
  ValidateNested: 'nestedValidation',
  ValidatePromise: 'promiseValidation',
  Allow: 'whitelistValidation',
  Type: 'Type',
  Expose: 'Expose',
  Exclude: 'Exclude',
  Transform: 'Transform',
};

/** class-transformer keeps the nearest class's `@Type` / `@Expose` / `@Exclude` (findMetadata). */
const NEAREST_WINS = new Set(['Type', 'Expose', 'Exclude']);

/**
 * The decorators that apply to a member declared in `members` (most derived first), by
 * class-validator's inheritance rule (MetadataStorage.getTargetValidationMetadatas): the validated
 * class's own records come first, and an inherited record is dropped when the class's own records
 * hold one of the same type on the member; inherited records never shadow one another, so
 * `L3 extends L2 extends L1` gets L1's `@MaxLength` and L2's `@MinLength`, while L2 itself (whose
 * own `@MinLength` is `customValidation`, like `@IsString` and `@MaxLength`) keeps only its own.
 * class-transformer's `@Type`, `@Expose` and `@Exclude` come from the nearest class that has them.
 * @param own - whether `members[0]` is declared by the validated class itself
 */
function inheritedDecorators(
  members: readonly ts.PropertyDeclaration[],
  own: boolean,
  checker: ts.TypeChecker,
): DecoratorUse[] {
  const out: DecoratorUse[] = [];
  const typeOf = (u: DecoratorUse): string => RECORD_TYPES[u.name] ?? 'customValidation';
  const ownTypes = new Set<string>();
  const nearest = new Set<string>();
  members.forEach((member, i) => {
    const uses = readDecorators(member, checker);
    const isOwn = own && i === 0;
    for (const use of uses) {
      if (NEAREST_WINS.has(use.name)) {
        if (!nearest.has(use.name)) out.push(use);
      } else if (isOwn || !ownTypes.has(typeOf(use))) out.push(use);
    }
    for (const use of uses) {
      if (NEAREST_WINS.has(use.name)) nearest.add(use.name);
      else if (isOwn) ownTypes.add(typeOf(use));
    }
  });
  return out;
}

/**
 * Refuses, before merging, the checked members the schema cannot carry: a decorated accessor, a
 * computed name that is not a literal, a property typescript-json-schema left out (messages.ts
 * decoratedAccessor, computedName, memberLeftOut). Returns the property names already reported.
 */
function checkMembers(
  properties: Record<string, SchemaObject>,
  chain: readonly ts.ClassDeclaration[],
  className: string,
  checker: ts.TypeChecker,
  sink: ClassSink,
): Set<string> {
  const reported = new Set<string>();
  const seen = new Set<string>();
  for (const c of chain) {
    for (const m of c.members) {
      if (!ts.isPropertyDeclaration(m) && !ts.isAccessor(m)) continue;
      if (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static) continue;
      const checked = readDecorators(m, checker).some(isValidationDecorator);
      const name = memberName(m, checker);
      const shown = name ?? m.name.getText();
      if (!checked || (name !== undefined && seen.has(name))) continue;
      if (name !== undefined) seen.add(name);
      if (ts.isAccessor(m)) {
        const kind = ts.isGetAccessor(m) ? 'get' : 'set';
        sink.fail(M.decoratedAccessor(`${className}.${shown}`, shown, kind), m);
        if (name !== undefined) reported.add(name);
      } else if (name === undefined) {
        sink.fail(M.computedName(`${className}.${shown}`), m);
      } else if (!Object.prototype.hasOwnProperty.call(properties, name)) {
        const ignored = ts.getJSDocTags(m).some((t) => t.tagName.text === 'ignore');
        sink.fail(M.memberLeftOut(`${className}.${name}`, ignored), m);
        reported.add(name);
      }
    }
  }
  return reported;
}

/** A JSDoc `@default` needs a property initializer of that value (messages.ts jsDocDefault*). */
function checkJsDocDefault(
  fragment: SchemaObject,
  members: readonly ts.PropertyDeclaration[],
  where: string,
  checker: ts.TypeChecker,
  sink: ClassSink,
): void {
  for (const member of members) {
    const tag = ts.getJSDocTags(member).find((t) => t.tagName.text === 'default');
    if (tag === undefined) continue;
    const text = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
    const name = where.slice(where.indexOf('.') + 1);
    const init = members.find((m) => m.initializer !== undefined)?.initializer;
    if (init === undefined) {
      sink.fail(M.jsDocDefaultWithoutInitializer(where, name, text), tag);
    } else {
      const value = literalValue(init, checker);
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(fragment['default'])) {
        sink.fail(M.jsDocDefaultDisagrees(where, text, init.getText()), tag);
      }
    }
    return;
  }
}

/** class-transformer decorators: they steer decoding but leave no class-validator record. */
const TRANSFORMER_ONLY = new Set(['Type', 'Expose', 'Exclude', 'Transform']);

/**
 * Whether a decorator leaves a class-validator record on the member (what makes the member visible
 * to whitelist): every class-validator decorator, and a project's own decorator the generator does
 * not know (it may call registerDecorator; the generator warns about it anyway). Decorators of
 * other packages (class-transformer, documentation decorators) do not count.
 */
function isValidationDecorator(use: DecoratorUse): boolean {
  if (TRANSFORMER_ONLY.has(use.name)) return false;
  if (use.declaredIn === undefined) return ruleOf(use.name) !== undefined;
  return !fromOtherPackage(use);
}

/** Property names in class layout order: base class members first; names no class declares last. */
function layoutOrder(
  names: readonly string[],
  chain: readonly ts.ClassDeclaration[],
  checker: ts.TypeChecker,
): string[] {
  const order: string[] = [];
  for (const c of [...chain].reverse()) {
    for (const m of c.members) {
      const n = ts.isPropertyDeclaration(m) ? memberName(m, checker) : undefined;
      if (n !== undefined && names.includes(n) && !order.includes(n)) order.push(n);
    }
  }
  for (const n of names) if (!order.includes(n)) order.push(n);
  return order;
}

/**
 * The property name of a member as TypeScript (and the runtime) names it: identifiers and string
 * literals as written, a numeric literal as its number (`42`, `0x10` is `16`), a computed name of a
 * string or number literal type by its value; undefined for any other computed name.
 */
function memberName(m: ts.ClassElement, checker: ts.TypeChecker): string | undefined {
  const n = m.name;
  if (n === undefined) return undefined;
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n) || ts.isNoSubstitutionTemplateLiteral(n))
    return n.text;
  if (ts.isNumericLiteral(n)) return String(Number(n.text));
  if (!ts.isComputedPropertyName(n)) return undefined;
  const type = checker.getTypeAtLocation(n.expression);
  if (type.isStringLiteral()) return type.value;
  if (type.isNumberLiteral()) return String(type.value);
  return undefined;
}

/**
 * Refuses an index signature and a constructor that requires arguments (messages.ts indexSignature,
 * constructorArguments).
 */
function classShape(chain: readonly ts.ClassDeclaration[], className: string, sink: ClassSink): void {
  for (const c of chain) {
    const index = c.members.find(ts.isIndexSignatureDeclaration);
    if (index === undefined) continue;
    sink.fail(M.indexSignature(className, index.getText().replace(/;$/, '')), index);
    break;
  }
  const ctor = chain.flatMap((c) =>
    c.members.filter(ts.isConstructorDeclaration).filter((m) => m.body !== undefined),
  )[0];
  const required = ctor?.parameters.find(
    (p) => p.questionToken === undefined && p.initializer === undefined && p.dotDotDotToken === undefined,
  );
  if (ctor !== undefined && required !== undefined) {
    const owner = (ctor.parent as ts.ClassDeclaration).name?.text ?? className;
    sink.fail(M.constructorArguments(className, owner, required.name.getText()), ctor);
  }
}

/** Built-in classes that are not JSON values. */
const NON_JSON_BUILTINS = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Promise',
  'RegExp',
  'Error',
  'Function',
  'Symbol',
  'BigInt',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'ReadonlyMap',
  'ReadonlySet',
  'Buffer',
  'URL',
  'URLSearchParams',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
]);

/** The name of the built-in non-JSON class a member's type is (or holds as a union part or array item), if any. */
function nonJsonBuiltin(type: ts.Type, checker: ts.TypeChecker, depth = 0): string | undefined {
  if (depth > 4) return undefined;
  if (type.isUnion()) {
    for (const t of type.types) {
      const found = nonJsonBuiltin(t, checker, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (checker.isArrayType(type)) {
    const item = checker.getTypeArguments(type as ts.TypeReference)[0];
    return item === undefined ? undefined : nonJsonBuiltin(item, checker, depth + 1);
  }
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (symbol === undefined || !NON_JSON_BUILTINS.has(symbol.name)) return undefined;
  const decls = symbol.declarations ?? [];
  const builtin =
    decls.length > 0 &&
    decls.every(
      (d) =>
        d.getSourceFile().hasNoDefaultLib ||
        /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(d.getSourceFile().fileName),
    );
  return builtin ? symbol.name : undefined;
}
