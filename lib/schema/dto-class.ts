import ts from 'typescript';
import { mergeMember } from './constraints';
import { readDecorators, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import type { RefResolver } from './schema-types';

/** Where a DTO class's problems are reported. @internal */
export interface ClassSink {
  readonly warn: (message: string) => void;
  readonly fail: (message: string) => void;
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
 * initializers remove a member from `required`, `@Expose({ name })` renames it. `required` follows
 * the order of `properties` (the author's order, DESIGN.md section 3 decision 6).
 * @internal
 */
export function mergeClass(
  schema: SchemaObject,
  decl: ts.ClassDeclaration,
  checker: ts.TypeChecker,
  resolve: RefResolver,
  sink: ClassSink,
): void {
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
    const decorators: DecoratorUse[] = [];
    for (const member of members) {
      for (const use of readDecorators(member, checker)) {
        if (!decorators.some((d) => d.name === use.name)) decorators.push(use);
      }
    }
    const facts = mergeMember({
      where: `${className}.${name}`,
      schema: fragment,
      type: checker.getTypeAtLocation(first),
      decorators,
      checker,
      resolve,
      warn: sink.warn,
      fail: sink.fail,
    });
    if (facts.optional || members.some((m) => m.initializer !== undefined)) required.delete(name);
    if (facts.wireName !== undefined && facts.wireName !== name) renames.set(name, facts.wireName);
  }
  const renamed: Record<string, SchemaObject> = {};
  const order: string[] = [];
  for (const [name, fragment] of Object.entries(properties)) {
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

function memberName(m: ts.PropertyDeclaration): string | undefined {
  return ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isPrivateIdentifier(m.name) ? m.name.text : undefined;
}
