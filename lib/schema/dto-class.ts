import ts from 'typescript';
import { mergeMember } from './constraints';
import { authoredEnumOrder, dateTimePattern, initializerDefault, recordValues } from './member-checks';
import { ruleOf } from './catalogue';
import { readDecorators, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import type { RefResolver } from './schema-types';

/** Where a DTO class's problems are reported. @internal */
export interface ClassSink {
  /** Reports a decoder-only check; `node` is where it is written (the decorator or member). */
  readonly warn: (message: string, node?: ts.Node) => void;
  /** Reports a contradiction or refusal; `node` is where it is written. */
  readonly fail: (message: string, node?: ts.Node) => void;
}

/**
 * The class and its base classes, most derived first (class-validator's inheritance rule: parent
 * records apply, the subclass wins per property and decorator).
 * @internal
 */
export function classChain(decl: ts.ClassDeclaration, checker: ts.TypeChecker): ts.ClassDeclaration[] {
  const chain: ts.ClassDeclaration[] = [];
  let current: ts.ClassDeclaration | undefined = decl;
  while (current !== undefined && !chain.includes(current)) {
    chain.push(current);
    const heritage: ts.HeritageClause | undefined = current.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    const base: ts.ExpressionWithTypeArguments | undefined = heritage?.types[0];
    if (base === undefined) break;
    const type = checker.getTypeAtLocation(base.expression);
    const symbol: ts.Symbol | undefined = type.getSymbol() ?? checker.getSymbolAtLocation(base.expression);
    current = symbol?.declarations?.find(ts.isClassDeclaration);
  }
  return chain;
}

/**
 * Merges the class-validator and class-transformer decorators of `decl` (and its bases) into the
 * object schema typescript-json-schema derived for it: constraints per member, `@IsOptional` and
 * initializers remove a member from `required`, `@Expose({ name })` renames it. Members are ordered
 * as the class lays them out: base class members first, in declaration order (a redeclared member
 * keeps its base position), then the subclass's own (DESIGN.md section 3 decision 6); `required`
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
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const chain = classChain(decl, checker);
  const renames = new Map<string, string>();
  for (const name of Object.keys(properties)) {
    const members = chain
      .map((c) => c.members.find((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && memberName(m) === name))
      .filter((m): m is ts.PropertyDeclaration => m !== undefined);
    const first = members[0];
    const fragment = properties[name];
    if (first === undefined || fragment === undefined) continue;
    const decorators = inheritedDecorators(members, checker);
    if (!decorators.some(isValidationDecorator)) {
      sink.fail(
        `${className}.${name}: has no class-validator decorator, so the decoder never sees it (whitelist refuses it as an ` +
          'unknown member, and a DTO without any is taken to accept only {}); add a decorator that checks its type ' +
          '(for example @IsString()), or @IsOptional() or @Allow() when its TypeScript type says enough',
        first,
      );
      continue;
    }
    const type = checker.getTypeAtLocation(first);
    recordValues(fragment, type, checker, (m) => sink.fail(`${className}.${name}: ${m}`, first));
    initializerDefault(fragment, members, checker);
    authoredEnumOrder(fragment, members.find((m) => m.type !== undefined)?.type, checker);
    const facts = mergeMember({
      where: `${className}.${name}`,
      schema: fragment,
      type,
      decorators,
      checker,
      resolve,
      warn: (m, node) => sink.warn(m, node ?? first),
      fail: (m, node) => sink.fail(m, node ?? first),
    });
    dateTimePattern(fragment, type, checker);
    if (facts.optional || members.some((m) => m.initializer !== undefined)) required.delete(name);
    if (facts.wireName !== undefined && facts.wireName !== name) renames.set(name, facts.wireName);
  }
  const renamed: Record<string, SchemaObject> = {};
  const order: string[] = [];
  for (const name of layoutOrder(Object.keys(properties), chain)) {
    const fragment = properties[name];
    if (fragment === undefined) continue;
    const wire = renames.get(name) ?? name;
    if (Object.prototype.hasOwnProperty.call(renamed, wire)) {
      sink.fail(`${className}.${name}: wire name "${wire}" is used twice; give each member its own @Expose({ name })`);
    }
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

/**
 * The decorators that apply to a member declared in `members` (most derived first), by
 * class-validator's inheritance rule: a base class's record is dropped when a more derived class
 * has a record of the same type on the member, so redeclaring `@IsString()` in a subclass also
 * drops an inherited `@MaxLength()` (both are `customValidation`), exactly as the decoder sees it.
 */
function inheritedDecorators(members: readonly ts.PropertyDeclaration[], checker: ts.TypeChecker): DecoratorUse[] {
  const out: DecoratorUse[] = [];
  const shadowed = new Set<string>();
  for (const member of members) {
    const uses = readDecorators(member, checker);
    const typeOf = (u: DecoratorUse): string => RECORD_TYPES[u.name] ?? 'customValidation';
    for (const use of uses) if (!shadowed.has(typeOf(use))) out.push(use);
    for (const use of uses) shadowed.add(typeOf(use));
  }
  return out;
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
  if (/[\\/]class-validator[\\/]/.test(use.declaredIn)) return true;
  return !/[\\/]node_modules[\\/]/.test(use.declaredIn);
}

/** Property names in class layout order: base class members first; names no class declares last. */
function layoutOrder(names: readonly string[], chain: readonly ts.ClassDeclaration[]): string[] {
  const order: string[] = [];
  for (const c of [...chain].reverse()) {
    for (const m of c.members) {
      const n = ts.isPropertyDeclaration(m) ? memberName(m) : undefined;
      if (n !== undefined && names.includes(n) && !order.includes(n)) order.push(n);
    }
  }
  for (const n of names) if (!order.includes(n)) order.push(n);
  return order;
}

function memberName(m: ts.PropertyDeclaration): string | undefined {
  return ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isPrivateIdentifier(m.name) ? m.name.text : undefined;
}
