import ts from 'typescript';

/**
 * One decorator use read from the syntax tree: `@IsString({ each: true })` gives name `IsString`,
 * its argument expressions and the module that declares it (when the import resolves).
 * @internal
 */
export interface DecoratorUse {
  /** The declared name, resolved through import aliases (`import { Tool as T }` gives `Tool`). */
  readonly name: string;
  /** The argument expressions; empty for `@X()` and for a bare `@X`. */
  readonly args: readonly ts.Expression[];
  /** The file that declares the decorator, or undefined when it does not resolve. */
  readonly declaredIn: string | undefined;
  readonly node: ts.Decorator;
}

/**
 * The decorators on `node`, in source order, with names resolved through imports where the type
 * checker can, else the identifier as written.
 * @internal
 */
export function readDecorators(node: ts.Node, checker: ts.TypeChecker): DecoratorUse[] {
  if (!ts.canHaveDecorators(node)) return [];
  const uses: DecoratorUse[] = [];
  for (const decorator of ts.getDecorators(node) ?? []) {
    const expr = decorator.expression;
    const callee = ts.isCallExpression(expr) ? expr.expression : expr;
    const args = ts.isCallExpression(expr) ? [...expr.arguments] : [];
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    if (!ts.isIdentifier(nameNode)) continue;
    let symbol = checker.getSymbolAtLocation(nameNode);
    if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) {
      try {
        symbol = checker.getAliasedSymbol(symbol);
      } catch {
        // an unresolved alias keeps the written name
      }
    }
    const resolved = symbol !== undefined && symbol.declarations !== undefined && symbol.declarations.length > 0;
    const name = resolved && symbol !== undefined ? symbol.name : nameNode.text;
    const declaredIn = resolved ? symbol?.declarations?.[0]?.getSourceFile().fileName : undefined;
    uses.push({ name, args, declaredIn, node: decorator });
  }
  return uses;
}

/** A literal value read from an argument expression, or `undefined` when it is not a literal. @internal */
export type LiteralValue = string | number | boolean | null | LiteralValue[] | { [key: string]: LiteralValue };

const NOT_LITERAL = Symbol('not literal');

/**
 * Evaluates a decorator argument that is a literal: strings, numbers (with a sign), booleans, null,
 * array and object literals of those, enum members and `const` names of literal type.
 * @returns the value, or `undefined` when the expression is not a compile-time literal
 * @internal
 */
export function literalValue(expr: ts.Expression, checker: ts.TypeChecker): LiteralValue | undefined {
  const value = evaluate(expr, checker);
  return value === NOT_LITERAL ? undefined : value;
}

function evaluate(expr: ts.Expression, checker: ts.TypeChecker): LiteralValue | typeof NOT_LITERAL {
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return evaluate(expr.expression, checker);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isNumericLiteral(expr)) return Number(expr.text);
  if (expr.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expr.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (expr.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(expr) && ts.isNumericLiteral(expr.operand)) {
    if (expr.operator === ts.SyntaxKind.MinusToken) return -Number(expr.operand.text);
    if (expr.operator === ts.SyntaxKind.PlusToken) return Number(expr.operand.text);
  }
  if (ts.isArrayLiteralExpression(expr)) {
    const out: LiteralValue[] = [];
    for (const element of expr.elements) {
      const v = evaluate(element, checker);
      if (v === NOT_LITERAL) return NOT_LITERAL;
      out.push(v);
    }
    return out;
  }
  if (ts.isObjectLiteralExpression(expr)) {
    const out: { [key: string]: LiteralValue } = {};
    for (const prop of expr.properties) {
      if (!ts.isPropertyAssignment(prop)) return NOT_LITERAL;
      const key = ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name) ? prop.name.text : undefined;
      if (key === undefined) return NOT_LITERAL;
      const v = evaluate(prop.initializer, checker);
      if (v === NOT_LITERAL) return NOT_LITERAL;
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr)) {
    const constant = checker.getConstantValue(expr);
    if (constant !== undefined) return constant;
  }
  const type = checker.getTypeAtLocation(expr);
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  return NOT_LITERAL;
}

/**
 * Whether the decorator's class-validator `ValidationOptions` say `each: true`. The options object is
 * the last argument and no other class-validator options object has an `each` member, so any object
 * literal argument with `each: true` counts.
 * @internal
 */
export function hasEach(use: DecoratorUse, checker: ts.TypeChecker): boolean {
  return use.args.some(
    (arg) =>
      ts.isObjectLiteralExpression(arg) &&
      arg.properties.some(
        (prop) =>
          ts.isPropertyAssignment(prop) &&
          ts.isIdentifier(prop.name) &&
          prop.name.text === 'each' &&
          literalValue(prop.initializer, checker) === true,
      ),
  );
}
