import ts from 'typescript';

/**
 * What the TypeScript type of a DTO member (or of its array items) holds, in the terms a decorator
 * checks: the JSON kind of each part, and whether a literal value is one of its values. The
 * generator uses it to refuse a decorator that can never pass on the member's type (the decoder
 * would refuse every value the schema accepts) and value lists the type cannot hold.
 * @internal
 */

/** The kinds a decorator can apply to; `date` is a `Date` member (a string on the wire, a Date to class-validator). */
export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'date' | 'any';

/** The parts of a type without `undefined` (an optional member's `?`). @internal */
export function typeParts(type: ts.Type): ts.Type[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
}

/** Parts without `null`. @internal */
export function nonNull(parts: readonly ts.Type[]): ts.Type[] {
  return parts.filter((t) => !(t.flags & ts.TypeFlags.Null));
}

function isArrayLike(t: ts.Type, checker: ts.TypeChecker): boolean {
  return checker.isArrayType(t) || checker.isTupleType(t);
}

/**
 * The parts of the item type of an array member (`T[]`, `T[] | null`, `readonly T[]`, tuples);
 * undefined when no part of the member is an array.
 * @internal
 */
export function itemParts(parts: readonly ts.Type[], checker: ts.TypeChecker): ts.Type[] | undefined {
  const arrays = parts.filter((t) => isArrayLike(t, checker));
  if (arrays.length === 0) return undefined;
  return arrays.flatMap((a) => checker.getTypeArguments(a as ts.TypeReference)).flatMap(typeParts);
}

/** The kind of one part of a type. @internal */
export function kindOf(t: ts.Type, checker: ts.TypeChecker): ValueKind {
  // A branded primitive (`string & { __brand: 'Id' }`) holds values of its primitive.
  if (t.isIntersection()) {
    const primitive = t.types
      .map((p) => kindOf(p, checker))
      .find((k) => k === 'string' || k === 'number' || k === 'boolean');
    return primitive ?? 'object';
  }
  const f = t.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'any';
  if (f & ts.TypeFlags.Null) return 'null';
  if (f & ts.TypeFlags.StringLike) return 'string';
  if (f & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return 'number';
  if (f & ts.TypeFlags.BooleanLike) return 'boolean';
  if (isArrayLike(t, checker)) return 'array';
  if (t.getSymbol()?.getName() === 'Date' && isLibraryType(t)) return 'date';
  return 'object';
}

function isLibraryType(t: ts.Type): boolean {
  return (t.getSymbol()?.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile);
}

/** The kinds of the parts. @internal */
export function kindsOf(parts: readonly ts.Type[], checker: ts.TypeChecker): Set<ValueKind> {
  return new Set(parts.map((t) => kindOf(t, checker)));
}

/** A literal value of a decorator argument, as `@IsIn`, `@IsEnum` and `@Equals` take them. */
export type Literal = string | number | boolean | null;

/**
 * Whether the TypeScript type holds the literal `value`: a part of its kind that is not a literal
 * type (`string`, `number`, `boolean`), a literal or enum member with that value, `null`, or
 * `unknown`/`any`.
 * @internal
 */
export function typeHolds(parts: readonly ts.Type[], value: Literal): boolean {
  return parts.some((t) => {
    // A branded primitive holds what its primitive holds (the brand is not on the wire).
    if (t.isIntersection())
      return t.types.some(
        (p) =>
          (p.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) !== 0 &&
          typeHolds([p], value),
      );
    const f = t.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    if (value === null) return (f & ts.TypeFlags.Null) !== 0;
    if (typeof value === 'string') {
      if (t.isStringLiteral()) return t.value === value;
      return (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) !== 0;
    }
    if (typeof value === 'number') {
      if (t.isNumberLiteral()) return t.value === value;
      return (f & ts.TypeFlags.Number) !== 0 || ((f & ts.TypeFlags.Enum) !== 0 && !t.isUnion());
    }
    if (f & ts.TypeFlags.BooleanLiteral) return (t as { intrinsicName?: string }).intrinsicName === String(value);
    return (f & ts.TypeFlags.Boolean) !== 0;
  });
}

/**
 * The class declaration a type part names (a DTO class, also one a package declares), or undefined
 * (primitives, interfaces, object types, Date, Records). @internal
 */
export function classOf(t: ts.Type): ts.ClassDeclaration | undefined {
  return t.getSymbol()?.declarations?.find(ts.isClassDeclaration);
}
