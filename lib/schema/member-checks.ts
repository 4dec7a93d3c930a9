import ts from 'typescript';
import { DATE_TIME_PATTERN } from '../dto/contract-rules';
import { argValue, literalValue, objectArgument, unaliased, type DecoratorUse } from './decorator-reader';
import type { ReadOptions } from './decorator-reader';
import { hasDecorator, typeTextOf, type Apply, type ClassSink, type MemberContext } from './member-context';
import { classOf, itemParts, kindOf, nonNull, typeParts, type ValueKind } from './member-types';
import { SCHEMA_MESSAGES as M } from './messages';
import { unions } from './schema-types';
import { addPattern } from './value-rules';

/**
 * Checks of one decorator use that are not a JSON Schema keyword: validation options the contract
 * cannot honour (`groups`), `@IsDate` and `@ValidateNested` without their `@Type`, `@Expose`
 * options, and literal arguments. Each failure names `Class.member`, the decorator and the fix.
 * @internal
 */

/**
 * Refuses validation options that would make schema and decoder disagree: `groups` (admission
 * validates without groups), and options the generator cannot read although they may say `each` or
 * `groups` (a call, a conditional, a `let`): it would have to guess whether the check applies to
 * the array or its items. Returns false when the use must not be applied.
 * @internal
 */
export function checkOptions(use: DecoratorUse, options: ReadOptions, ctx: MemberContext): boolean {
  if (options.groups) {
    ctx.fail(M.groupsOption(ctx.where, use.name), use.node);
    return false;
  }
  if (options.unreadable !== undefined) {
    ctx.fail(M.unreadableOptions(ctx.where, use.name, options.unreadable.getText()), use.node);
    return false;
  }
  return true;
}

/** The parts of a member's type but null and undefined (`T | null` gives `T`). */
function presentParts(type: ts.Type): readonly ts.Type[] {
  return type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) : [type];
}

/** presentParts, with an array part as its item type (`Date[] | null` gives `Date`). */
function elementParts(type: ts.Type, checker: ts.TypeChecker): ts.Type[] {
  return presentParts(type).map((t) =>
    checker.isArrayType(t) ? (checker.getTypeArguments(t as ts.TypeReference)[0] ?? t) : t,
  );
}

const isDate = (t: ts.Type | undefined): boolean => t?.getSymbol()?.getName() === 'Date';

/** The parts, with each array part replaced by its item parts (null items left out). */
function itemsOrSelf(parts: readonly ts.Type[], checker: ts.TypeChecker): ts.Type[] {
  return parts.flatMap((p) => (checker.isArrayType(p) ? nonNull(itemParts([p], checker) ?? []) : [p]));
}

/** `@IsDate()` needs a Date member and `@Type(() => Date)`. @internal */
export const checkDate: Apply = (use, _target, _slot, ctx) => {
  if (!elementParts(ctx.type, ctx.checker).every(isDate)) {
    ctx.fail(M.dateTypeContradiction(ctx.where, typeTextOf(ctx)), use.node);
    return;
  }
  if (!hasDecorator(ctx, 'Type')) ctx.fail(M.dateNeedsType(ctx.where), use.node);
};

/**
 * `@ValidateNested()` / `@IsInstance()` need a DTO class member (or an array of one) and
 * `@Type(() => Class)` (messages.ts nestedNotClass, nestedNeedsType). @internal
 */
export const checkNested: Apply = (use, _target, slot, ctx) => {
  const odd = itemsOrSelf(nonNull(slot.parts), ctx.checker).find((t) => classOf(t) === undefined);
  if (odd !== undefined) {
    const text = ctx.checker.typeToString(odd);
    ctx.fail(M.nestedNotClass(ctx.where, use.name, text, kindOf(odd, ctx.checker)), use.node);
    return;
  }
  if (hasDecorator(ctx, 'Type')) return;
  const cls = elementParts(ctx.type, ctx.checker)
    .map(classOf)
    .find((c) => c?.name !== undefined)?.name?.text;
  if (cls !== undefined) ctx.fail(M.nestedNeedsType(ctx.where, use.name, cls), use.node);
};

/**
 * The shape of a member that holds DTOs, and what `@Type` says about it, before any constraint:
 * - a union that mixes a DTO class with another type (`Card | Bank`, `string | Address`,
 *   `Item | Item[]`) fails: the decoder builds one class per member, so it refuses what the schema's
 *   `anyOf` accepts (class-transformer discriminators included, refused for the same reason);
 * - `@Type(() => X)` must name the member's type (or its items'): the decoder decodes to X (a
 *   number for `@Type(() => Number)`, X objects for a class), so an X other than the declared type
 *   would refuse what the schema accepts.
 * Returns false after reporting.
 * @internal
 */
export function checkShape(ctx: MemberContext): boolean {
  const parts = nonNull(typeParts(ctx.type));
  const flat = parts.flatMap((p) =>
    ctx.checker.isArrayType(p) ? [p, ...nonNull(itemParts([p], ctx.checker) ?? [])] : [p],
  );
  const classes = [...new Set(flat.map(classOf).filter((c): c is ts.ClassDeclaration => c !== undefined))];
  if (classes.length > 0) {
    const single = parts.length === 1 ? (parts[0] as ts.Type) : undefined;
    const items =
      single !== undefined && ctx.checker.isArrayType(single)
        ? nonNull(itemParts([single], ctx.checker) ?? [])
        : undefined;
    const one =
      single !== undefined &&
      (classOf(single) !== undefined ||
        (items !== undefined && items.length === 1 && classOf(items[0] as ts.Type) !== undefined));
    if (!one) {
      const names = classes.map((c) => c.name?.text ?? 'the class');
      ctx.fail(M.dtoUnion(ctx.where, typeTextOf(ctx), names));
      return false;
    }
    const nested = classes[0] as ts.ClassDeclaration;
    if (!ctx.decorators.some((d) => d.name === 'ValidateNested')) return unchecked(ctx, nested, items !== undefined);
  }
  const typeUse = ctx.decorators.find((d) => d.name === 'Type');
  if (typeUse === undefined) return true;
  const options = typeUse.args[1] === undefined ? undefined : objectArgument(typeUse.args[1], ctx.checker);
  if (options?.has('discriminator') === true || (typeUse.args[1] !== undefined && options === undefined)) {
    ctx.fail(M.typeDiscriminator(ctx.where), typeUse.node);
    return false;
  }
  return checkTypeTarget(typeUse, parts, ctx);
}

/**
 * Refuses a member that holds a DTO class without `@ValidateNested()`, whose nested checks the decoder
 * would skip (messages.ts nestedUnchecked; lib/dto/plan.ts refuses it at bind). Returns false.
 */
function unchecked(ctx: MemberContext, cls: ts.ClassDeclaration, array: boolean): false {
  ctx.fail(M.nestedUnchecked(ctx.where, cls.name?.text ?? 'the class', array, hasDecorator(ctx, 'Type')));
  return false;
}

const PRIMITIVE_TARGETS: Record<string, ValueKind> = {
  String: 'string',
  Number: 'number',
  Boolean: 'boolean',
  Date: 'date',
};

/** `@Type(() => X)` names the member's type (its items' for an array member). */
function checkTypeTarget(use: DecoratorUse, parts: readonly ts.Type[], ctx: MemberContext): boolean {
  const target = typeTarget(use, ctx.checker);
  if (target === undefined) return true;
  const elements = itemsOrSelf(parts, ctx.checker);
  if (elements.length === 0) return true;
  const fits = (t: ts.Type): boolean =>
    typeof target === 'string' ? kindOf(t, ctx.checker) === PRIMITIVE_TARGETS[target] : classOf(t) === target;
  if (elements.every(fits)) return true;
  const targetName = typeof target === 'string' ? target : (target.name?.text ?? 'the class');
  const declared = elements.length === 1 ? classOf(elements[0] as ts.Type) : undefined;
  const issue = M.typeTargetMismatch(
    ctx.where,
    { name: targetName, primitive: typeof target === 'string' },
    typeTextOf(ctx),
    parts.some((p) => ctx.checker.isArrayType(p)),
    declared === undefined ? undefined : (declared.name?.text ?? 'the declared class'),
    new Set(elements.map((t) => kindOf(t, ctx.checker))),
  );
  ctx.fail(issue, use.node);
  return false;
}

/** What `@Type(() => X)` names: a primitive wrapper (`'Number'`, ...), a DTO class, or undefined when unreadable or other. */
function typeTarget(use: DecoratorUse, checker: ts.TypeChecker): string | ts.ClassDeclaration | undefined {
  const fn = use.args[0];
  if (fn === undefined || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return undefined;
  let body: ts.Node = fn.body;
  if (ts.isBlock(body)) {
    const ret = body.statements.length === 1 ? body.statements[0] : undefined;
    if (ret === undefined || !ts.isReturnStatement(ret) || ret.expression === undefined) return undefined;
    body = ret.expression;
  }
  while (ts.isParenthesizedExpression(body)) body = body.expression;
  if (!ts.isIdentifier(body) && !ts.isPropertyAccessExpression(body)) return undefined;
  const symbol = unaliased(
    checker.getSymbolAtLocation(ts.isPropertyAccessExpression(body) ? body.name : body),
    checker,
  );
  const decls = symbol?.declarations ?? [];
  const cls = decls.find(ts.isClassDeclaration);
  if (cls !== undefined) return cls;
  const name = symbol?.getName();
  if (name !== undefined && name in PRIMITIVE_TARGETS && decls.every((d) => d.getSourceFile().isDeclarationFile))
    return name;
  return undefined;
}

/**
 * Refuses an array of arrays (`Item[][]`, `Date[][]`) under `@Type`, `@ValidateNested` or `@IsInstance`,
 * which the decoder cannot decode (docs/architecture.md section 4 rule 6; messages.ts arrayOfArrays).
 * Returns false after reporting. @internal
 */
export function checkMatrix(ctx: MemberContext, names: ReadonlySet<string>): boolean {
  const decorator = ['ValidateNested', 'IsInstance', 'Type'].find((n) => names.has(n));
  if (decorator === undefined) return true;
  const parts = ctx.type.isUnion() ? ctx.type.types : [ctx.type];
  for (const part of parts) {
    if (!ctx.checker.isArrayType(part) && !ctx.checker.isTupleType(part)) continue;
    const rows = ctx.checker.getTypeArguments(part as ts.TypeReference);
    const row = rows.find(
      (r) =>
        ctx.checker.isArrayType(r) ||
        ctx.checker.isTupleType(r) ||
        (r.isUnion() && r.types.some((t) => ctx.checker.isArrayType(t))),
    );
    if (row === undefined) continue;
    const inner = innermost(row, ctx.checker);
    const date = isDate(inner);
    const isClass = date || inner?.getSymbol()?.declarations?.some(ts.isClassDeclaration) === true;
    const what = inner === undefined ? 'value' : ctx.checker.typeToString(inner);
    ctx.fail(M.arrayOfArrays(ctx.where, decorator, what, isClass, date));
    return false;
  }
  return true;
}

function innermost(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  let t: ts.Type | undefined = type;
  for (let i = 0; i < 8 && t !== undefined; i++) {
    const parts = presentParts(t);
    const array = parts.find((p) => checker.isArrayType(p) || checker.isTupleType(p));
    if (array === undefined) return parts[0];
    t = checker.getTypeArguments(array as ts.TypeReference)[0];
  }
  return t;
}

/**
 * A member of type `Date` (or `Date[]`, `Date | null`): every `format: date-time` in its fragment
 * also gets DATE_TIME_PATTERN, so the schema refuses what the decoder cannot turn into a Date.
 * @internal
 */
export function dateTimePattern(fragment: Record<string, unknown>, type: ts.Type, checker: ts.TypeChecker): void {
  const parts = elementParts(type, checker);
  if (parts.length === 0 || !parts.every(isDate)) return;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as Record<string, unknown>;
    if (schema['format'] === 'date-time') addPattern(schema, DATE_TIME_PATTERN);
    visit(schema['items']);
    for (const [, members] of unions(schema)) members.forEach(visit);
  };
  visit(fragment);
}

type Literal = string | number | null;

/**
 * typescript-json-schema sorts the values of a literal union (`'small' | 'medium' | 'large'` gives
 * `["large", "medium", "small"]`); the model reads them better as authored. When the member's
 * written type (or the items of an array type, through type aliases) is a union of literals with
 * exactly the values of an `enum` in the fragment, that `enum` takes the written order.
 * @internal
 */
export function authoredEnumOrder(
  fragment: Record<string, unknown>,
  node: ts.TypeNode | undefined,
  checker: ts.TypeChecker,
): void {
  const direct = literalOrder(node, checker, 0);
  const element = elementNode(node, checker, 0);
  const items = element === undefined ? undefined : literalOrder(element, checker, 0);
  const reorder = (schema: unknown, order: Literal[] | undefined): void => {
    if (order === undefined || schema === null || typeof schema !== 'object') return;
    const target = schema as Record<string, unknown>;
    const values = target['enum'];
    if (Array.isArray(values) && values.length === order.length && order.every((v) => values.includes(v)))
      target['enum'] = [...order];
    const nonNullOrder = order.filter((v) => v !== null);
    for (const [, members] of unions(target)) for (const m of members) reorder(m, nonNullOrder);
  };
  reorder(fragment, direct);
  const arrays = [fragment, ...[...unions(fragment)].flatMap(([, members]) => members)];
  for (const a of arrays)
    if (a !== null && typeof a === 'object') reorder((a as Record<string, unknown>)['items'], items);
}

function aliased(node: ts.TypeNode, checker: ts.TypeChecker): ts.TypeNode {
  if (ts.isParenthesizedTypeNode(node)) return node.type;
  if (!ts.isTypeReferenceNode(node)) return node;
  const decl = unaliased(checker.getSymbolAtLocation(node.typeName), checker)?.declarations?.find(
    ts.isTypeAliasDeclaration,
  );
  return decl !== undefined && decl.typeParameters === undefined ? decl.type : node;
}

function elementNode(node: ts.TypeNode | undefined, checker: ts.TypeChecker, depth: number): ts.TypeNode | undefined {
  if (node === undefined || depth > 4) return undefined;
  const n = aliased(node, checker);
  if (n !== node) return elementNode(n, checker, depth + 1);
  if (ts.isArrayTypeNode(n)) return n.elementType;
  if (ts.isUnionTypeNode(n)) {
    const arrays = n.types.filter(
      (t) =>
        t.kind !== ts.SyntaxKind.UndefinedKeyword &&
        !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
    );
    return arrays.length === 1 ? elementNode(arrays[0], checker, depth + 1) : undefined;
  }
  return undefined;
}

function literalOrder(node: ts.TypeNode | undefined, checker: ts.TypeChecker, depth: number): Literal[] | undefined {
  if (node === undefined || depth > 4) return undefined;
  const n = aliased(node, checker);
  if (n !== node) return literalOrder(n, checker, depth + 1);
  if (ts.isLiteralTypeNode(n)) {
    const lit = n.literal;
    if (ts.isStringLiteral(lit)) return [lit.text];
    if (ts.isNumericLiteral(lit)) return [Number(lit.text)];
    if (
      ts.isPrefixUnaryExpression(lit) &&
      lit.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(lit.operand)
    )
      return [-Number(lit.operand.text)];
    if (lit.kind === ts.SyntaxKind.NullKeyword) return [null];
    return undefined;
  }
  if (n.kind === ts.SyntaxKind.UndefinedKeyword) return [];
  if (!ts.isUnionTypeNode(n)) return undefined;
  const out: Literal[] = [];
  for (const part of n.types) {
    const values = literalOrder(part, checker, depth + 1);
    if (values === undefined) return undefined;
    for (const v of values) if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** The wire name of `@Expose({ name })`; other Expose options are refused. @internal */
export function exposeName(use: DecoratorUse, ctx: MemberContext): string | undefined {
  const value = argValue(use, 0, ctx.checker);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const other = Object.keys(value).filter((k) => k !== 'name');
    if (other.length > 0) {
      ctx.fail(M.exposeOptions(ctx.where, other), use.node);
    }
    if (typeof value['name'] === 'string' && value['name'] !== '') return value['name'];
  }
  return undefined;
}

/**
 * `Record<string, T>` (a string index signature): typescript-json-schema closes every object with
 * `additionalProperties: false`, which would refuse every entry; the values' schema is restored
 * for primitive `T` (string, number, boolean, unknown, or a union of string, number, boolean and
 * null). Other value types are refused: declare a nested DTO array instead.
 * @internal
 */
export function recordValues(
  fragment: Record<string, unknown>,
  type: ts.Type,
  checker: ts.TypeChecker,
  where: string,
  fail: (issue: ReturnType<typeof M.recordValues>) => void,
): void {
  const parts = presentParts(type);
  const record = parts.length === 1 ? parts[0] : undefined;
  if (record === undefined || checker.getPropertiesOfType(record).length > 0) return;
  const info = checker.getIndexInfoOfType(record, ts.IndexKind.String);
  if (info === undefined) return;
  const value = info.type;
  let schema: Record<string, unknown> | undefined;
  if (value.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) schema = {};
  else {
    const kinds = primitiveKinds(value);
    if (kinds !== undefined) schema = { type: kinds.length === 1 ? kinds[0] : kinds };
  }
  if (schema === undefined) {
    fail(M.recordValues(where, checker.typeToString(value)));
    return;
  }
  if (typeof fragment['$ref'] === 'string') {
    // typescript-json-schema names `Record<string, T>` as a definition: inline it here.
    delete fragment['$ref'];
    fragment['type'] = 'object';
  }
  const target = fragment['type'] === 'object' ? fragment : findObjectMember(fragment);
  if (target !== undefined) target['additionalProperties'] = schema;
}

/**
 * The JSON types of a Record's value type made only of string, number, boolean and null (`string`,
 * `string | number`, `boolean | null`): the decoder validates the arguments against the manifest's
 * schema first, so `additionalProperties: { type: [...] }` is what both check. Undefined otherwise
 * (a literal, an object, a DTO, an array, undefined).
 */
function primitiveKinds(value: ts.Type): string[] | undefined {
  const parts = value.isUnion() ? value.types : [value];
  // `boolean` is `true | false` in a union: a single literal (`true`) is not every boolean.
  if (parts.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral).length === 1) return undefined;
  const kinds: string[] = [];
  for (const part of parts) {
    let kind: string | undefined;
    if (part.flags & ts.TypeFlags.String) kind = 'string';
    else if (part.flags & ts.TypeFlags.Number) kind = 'number';
    else if (part.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) kind = 'boolean';
    else if (part.flags & ts.TypeFlags.Null && value.isUnion()) kind = 'null';
    if (kind === undefined) return undefined;
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  const order = ['string', 'number', 'boolean', 'null'];
  return kinds.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function findObjectMember(fragment: Record<string, unknown>): Record<string, unknown> | undefined {
  for (const [, members] of unions(fragment)) {
    for (const m of members) {
      if (m === null || typeof m !== 'object') continue;
      const member = m as Record<string, unknown>;
      if (typeof member['$ref'] === 'string') {
        // `Record<string, T> | null`: the record's definition, inlined here.
        delete member['$ref'];
        member['type'] = 'object';
      }
      if (member['type'] === 'object') return member;
    }
  }
  return undefined;
}

/**
 * A property initializer typescript-json-schema could not read (an enum member, a const name) still
 * becomes the member's `default` when it is a compile-time literal (docs/architecture.md section 4 rule 7).
 * @internal
 */
export function initializerDefault(
  fragment: Record<string, unknown>,
  members: readonly ts.PropertyDeclaration[],
  checker: ts.TypeChecker,
  where: string,
  report: ClassSink,
): void {
  const init = members.find((m) => m.initializer !== undefined)?.initializer;
  if (init === undefined) return;
  const value = literalValue(init, checker);
  // typescript-json-schema writes a template literal default with its backquotes (`abc` gives "`abc`"): the value read here wins.
  if ('default' in fragment && (value === undefined || JSON.stringify(value) === JSON.stringify(fragment['default'])))
    return;
  if (value !== undefined) {
    fragment['default'] = value;
    return;
  }
  // The decoder applies (and validates) the real default; a schema without it would not say that
  // leaving the member out can fail. An object (`new Paging()`) the decoder builds and checks as a
  // nested DTO: the schema only does not show it.
  let inner: ts.Expression = init;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner))
    inner = inner.expression;
  if (ts.isIdentifier(inner) && inner.text === 'undefined') return; // no default: the member is simply absent
  if (ts.isNewExpression(inner) || ts.isObjectLiteralExpression(inner) || ts.isArrayLiteralExpression(inner)) {
    report.warn(M.defaultNotShown(where, init.getText()), init);
    return;
  }
  report.fail(M.defaultUnreadable(where, init.getText()), init);
}
