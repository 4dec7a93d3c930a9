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

/** The symbol an import alias names (the symbol itself when it is no alias). @internal */
export function unaliased(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): ts.Symbol | undefined {
  return symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Whether another package (not class-validator) declares the decorator. @internal */
export function fromOtherPackage(use: DecoratorUse): boolean {
  const file = use.declaredIn;
  return file !== undefined && /[\\/]node_modules[\\/]/.test(file) && !/[\\/]class-validator[\\/]/.test(file);
}

/** The literal value of argument `index` of a decorator use, or undefined (absent or not a literal). @internal */
export function argValue(use: DecoratorUse, index: number, checker: ts.TypeChecker): LiteralValue | undefined {
  const arg = use.args[index];
  return arg === undefined ? undefined : literalValue(arg, checker);
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

/** The arithmetic operators a constant bound may use, and what each computes. */
const ARITHMETIC = new Map<ts.SyntaxKind, (a: number, b: number) => number>([
  [ts.SyntaxKind.PlusToken, (a, b) => a + b],
  [ts.SyntaxKind.MinusToken, (a, b) => a - b],
  [ts.SyntaxKind.AsteriskToken, (a, b) => a * b],
  [ts.SyntaxKind.SlashToken, (a, b) => a / b],
  [ts.SyntaxKind.PercentToken, (a, b) => a % b],
  [ts.SyntaxKind.AsteriskAsteriskToken, (a, b) => a ** b],
]);

/** The finite constants of the global `Number` a bound may name. */
const NUMBER_CONSTANTS: Record<string, number | undefined> = {
  MAX_SAFE_INTEGER: Number.MAX_SAFE_INTEGER,
  MIN_SAFE_INTEGER: Number.MIN_SAFE_INTEGER,
  MAX_VALUE: Number.MAX_VALUE,
  MIN_VALUE: Number.MIN_VALUE,
  EPSILON: Number.EPSILON,
};

function evaluate(expr: ts.Expression, checker: ts.TypeChecker, depth = 0): LiteralValue | typeof NOT_LITERAL {
  if (depth > 16) return NOT_LITERAL;
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return evaluate(expr.expression, checker, depth + 1);
  }
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isNumericLiteral(expr)) return Number(expr.text);
  if (expr.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expr.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (expr.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(expr) && ts.isNumericLiteral(expr.operand)) {
    if (expr.operator === ts.SyntaxKind.MinusToken) return -Number(expr.operand.text);
    if (expr.operator === ts.SyntaxKind.PlusToken) return Number(expr.operand.text);
  }
  if (
    ts.isPrefixUnaryExpression(expr) &&
    (expr.operator === ts.SyntaxKind.MinusToken || expr.operator === ts.SyntaxKind.PlusToken)
  ) {
    // `-LIMIT`, `-(a + 1)`: a sign on a constant number.
    const operand = evaluate(expr.operand, checker, depth + 1);
    if (typeof operand !== 'number') return NOT_LITERAL;
    return expr.operator === ts.SyntaxKind.MinusToken ? -operand : operand;
  }
  const operation = ts.isBinaryExpression(expr) ? ARITHMETIC.get(expr.operatorToken.kind) : undefined;
  if (ts.isBinaryExpression(expr) && operation !== undefined) {
    // Constant arithmetic on numbers (`60 * 60 * 24`, `2 ** 31 - 1`, `-DEFAULT_LIMIT - 1`).
    const left = evaluate(expr.left, checker, depth + 1);
    const right = evaluate(expr.right, checker, depth + 1);
    if (typeof left !== 'number' || typeof right !== 'number') return NOT_LITERAL;
    const value = operation(left, right);
    return Number.isFinite(value) ? value : NOT_LITERAL;
  }
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression) && expr.expression.text === 'Number') {
    const builtin = NUMBER_CONSTANTS[expr.name.text];
    if (
      builtin !== undefined &&
      checker.getSymbolAtLocation(expr.expression)?.declarations?.every((d) => d.getSourceFile().hasNoDefaultLib)
    ) {
      return builtin;
    }
  }
  if (ts.isArrayLiteralExpression(expr)) {
    const out: LiteralValue[] = [];
    for (const element of expr.elements) {
      const v = evaluate(element, checker, depth + 1);
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
      const v = evaluate(prop.initializer, checker, depth + 1);
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
  if (ts.isIdentifier(expr)) {
    // `const LIMIT = 2 * 10` (type number), `const ORDER: string = 'asc'`, `const LIST = ['a', 'b']`: the const's initializer, evaluated.
    const init = constInitializer(expr, checker);
    if (init !== undefined) return evaluate(init, checker, depth + 1);
  }
  if (
    ts.isPropertyAccessExpression(expr) ||
    (ts.isElementAccessExpression(expr) && ts.isStringLiteral(expr.argumentExpression))
  ) {
    // `DEFAULTS.order` with `const DEFAULTS = { order: 'asc' }` (no `as const`): the member of a const object literal.
    const key = ts.isPropertyAccessExpression(expr)
      ? expr.name.text
      : (expr.argumentExpression as ts.StringLiteral).text;
    const owner = ts.isIdentifier(expr.expression) ? constInitializer(expr.expression, checker) : undefined;
    if (owner !== undefined) {
      const object = evaluate(owner, checker, depth + 1);
      if (
        object !== null &&
        typeof object === 'object' &&
        !Array.isArray(object) &&
        Object.prototype.hasOwnProperty.call(object, key)
      ) {
        return (object as Record<string, LiteralValue>)[key] as LiteralValue;
      }
    }
  }
  return NOT_LITERAL;
}

/**
 * An options object argument as far as the generator can read it: its keys with their literal
 * values (a key whose value is not a literal maps to `undefined`), or `undefined` when the argument is
 * not an object the generator can see through. Object literals are read as written, spreads and
 * shorthand members included, and so are names of `const` object literals
 * (`const EACH = { each: true }; @MaxLength(3, EACH)`), through `as const` and parentheses.
 * @internal
 */
export function objectArgument(
  expr: ts.Expression,
  checker: ts.TypeChecker,
  depth = 0,
): Map<string, LiteralValue | undefined> | undefined {
  if (depth > 8) return undefined;
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return objectArgument(expr.expression, checker, depth + 1);
  }
  if (ts.isIdentifier(expr) || ts.isPropertyAccessExpression(expr)) {
    const init = constInitializer(expr, checker);
    return init === undefined ? undefined : objectArgument(init, checker, depth + 1);
  }
  if (!ts.isObjectLiteralExpression(expr)) return undefined;
  const out = new Map<string, LiteralValue | undefined>();
  for (const prop of expr.properties) {
    if (ts.isSpreadAssignment(prop)) {
      const inner = objectArgument(prop.expression, checker, depth + 1);
      if (inner === undefined) return undefined;
      for (const [k, v] of inner) out.set(k, v);
      continue;
    }
    const key =
      prop.name !== undefined && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name))
        ? prop.name.text
        : undefined;
    if (key === undefined) return undefined;
    if (ts.isPropertyAssignment(prop)) out.set(key, literalOrBoolean(prop.initializer, checker));
    else if (ts.isShorthandPropertyAssignment(prop)) out.set(key, literalOrBoolean(prop.name, checker));
    else out.set(key, undefined);
  }
  return out;
}

/** The initializer of a `const` declaration a name refers to (through import aliases). */
function constInitializer(expr: ts.Expression, checker: ts.TypeChecker): ts.Expression | undefined {
  const symbol = unaliased(
    checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr),
    checker,
  );
  const decl = symbol?.valueDeclaration;
  if (decl === undefined || !ts.isVariableDeclaration(decl) || decl.initializer === undefined) return undefined;
  const list = decl.parent;
  if (!ts.isVariableDeclarationList(list) || (list.flags & ts.NodeFlags.Const) === 0) return undefined;
  return decl.initializer;
}

function literalOrBoolean(expr: ts.Expression, checker: ts.TypeChecker): LiteralValue | undefined {
  const value = literalValue(expr, checker);
  if (value !== undefined) return value;
  const type = checker.getTypeAtLocation(expr);
  if (type.flags & ts.TypeFlags.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName === 'true';
  return undefined;
}

/** The class-validator `ValidationOptions` keys the generator acts on. */
const OPTION_KEYS = ['each', 'groups'] as const;

/**
 * What the decorator's class-validator `ValidationOptions` say: `each: true`, `groups`, and the
 * first options argument the generator cannot read (a call, a conditional, a `let`) although its
 * type has `each` or `groups`: such an argument is refused rather than guessed.
 * @internal
 */
export interface ReadOptions {
  readonly each: boolean;
  readonly groups: boolean;
  readonly unreadable: ts.Expression | undefined;
}

/** Reads the validation options of one decorator use. @internal */
export function readOptions(use: DecoratorUse, checker: ts.TypeChecker): ReadOptions {
  let each = false;
  let groups = false;
  let unreadable: ts.Expression | undefined;
  for (const arg of use.args) {
    const object = objectArgument(arg, checker);
    if (object !== undefined) {
      if (object.has('each')) {
        const v = object.get('each');
        if (v === true) each = true;
        else if (v !== false) unreadable ??= arg;
      }
      if (object.has('groups')) groups = true;
      continue;
    }
    if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg) || ts.isRegularExpressionLiteral(arg)) continue;
    const type = checker.getTypeAtLocation(arg);
    if (OPTION_KEYS.some((k) => type.getProperty(k) !== undefined)) unreadable ??= arg;
  }
  return { each, groups, unreadable };
}

/** Whether the argument is an options object (see objectArgument), not a bound or a value list. @internal */
export function isOptionsArgument(arg: ts.Expression, checker: ts.TypeChecker): boolean {
  return objectArgument(arg, checker) !== undefined;
}

/** class-validator's `ValidationOptions` keys: an object argument with only these carries no options of the check's own. */
const VALIDATION_OPTION_KEYS = new Set(['each', 'message', 'groups', 'always', 'context']);

/**
 * Whether a use passes options of the check's own (`@IsHexColor({ ... })` beyond validation options,
 * or an argument the generator cannot read as an object), which change what a pattern row means.
 * @internal
 */
export function hasOptionsArgument(use: DecoratorUse, checker: ts.TypeChecker): boolean {
  return use.args.some((a) => {
    const object = objectArgument(a, checker);
    return object === undefined || [...object.keys()].some((k) => !VALIDATION_OPTION_KEYS.has(k));
  });
}
