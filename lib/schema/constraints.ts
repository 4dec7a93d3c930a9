import type ts from 'typescript';
import { ruleOf, type DecoratorRule } from './catalogue';
import { argValue, fromOtherPackage, readOptions, type DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import { typeTextOf, type MemberContext, type Slot } from './member-context';
import { checkMatrix, checkOptions, checkShape, exposeName } from './member-checks';
import { itemParts, kindsOf, nonNull, typeParts, type ValueKind } from './member-types';
import { SCHEMA_MESSAGES as M } from './messages';
import { arrayItems, dropNull } from './schema-types';
import { narrowTypes } from './value-rules';

/**
 * Merges the class-validator decorators of one DTO member into its JSON Schema fragment by the rows
 * of the decorator catalogue (lib/schema/catalogue.ts): each decorator only narrows the TypeScript
 * type (docs/architecture.md section 4 rules 3 and 8 to 10). A check JSON Schema cannot express is a warning
 * naming the member; a contradiction fails, naming the member and the fix.
 * @internal
 */

/** What the merge learned about the member beyond its fragment. @internal */
export interface MemberFacts {
  /** `@IsOptional()` was present. */
  readonly optional: boolean;
  /** `@Expose({ name })` gave this wire name. */
  readonly wireName: string | undefined;
}

/** Applies every decorator of one member, in source order. @internal */
export function mergeMember(ctx: MemberContext): MemberFacts {
  let optional = false;
  let wireName: string | undefined;
  const names = new Set(ctx.decorators.map((d) => d.name));
  // A member refused for its shape still reports its @IsOptional(): without it the caller adds a
  // false "without @IsOptional() the decoder requires it" to the shape's errors.
  if (!checkMatrix(ctx, names) || !checkShape(ctx)) return { optional: names.has('IsOptional'), wireName };
  const memberParts = typeParts(ctx.type);
  const memberText = typeTextOf(ctx);
  let nullItems = true;
  for (const use of ctx.decorators) {
    const options = readOptions(use, ctx.checker);
    if (!checkOptions(use, options, ctx)) continue;
    if (use.name === 'IsOptional') optional = true;
    if (use.name === 'Expose') wireName = exposeName(use, ctx) ?? wireName;
    let target = ctx.schema;
    let slot: Slot = { parts: memberParts, each: false, text: memberText };
    if (options.each) {
      const items = arrayItems(ctx.schema);
      const parts = itemParts(memberParts, ctx.checker);
      if (items === undefined || parts === undefined) {
        ctx.fail(M.eachNeedsArray(ctx.where, use.name), use.node);
        continue;
      }
      target = items;
      slot = { parts, each: true, text: itemText(memberParts, ctx.checker) };
      if (refusesNullItem(use, ctx)) nullItems = false;
    }
    applyRule(use, target, slot, ctx);
  }
  // class-validator runs an each: true constraint on every item, null included, and almost every
  // constraint refuses null: the items' schema says so too (the decorator narrows the type).
  const items = nullItems ? undefined : arrayItems(ctx.schema);
  if (items !== undefined) dropNull(items);
  return { optional, wireName };
}

/** The item type of an array member as messages name it. */
function itemText(parts: readonly ts.Type[], checker: ts.TypeChecker): string {
  const arrays = parts.filter((t) => checker.isArrayType(t) || checker.isTupleType(t));
  return [
    ...new Set(
      arrays.flatMap((a) => checker.getTypeArguments(a as ts.TypeReference)).map((t) => checker.typeToString(t)),
    ),
  ].join(' | ');
}

/** Whether an `each: true` use refuses a null item, by its row; a custom or unknown one is left as the type says. */
function refusesNullItem(use: DecoratorUse, ctx: MemberContext): boolean {
  const rule = ruleOf(use.name);
  if (rule === undefined) return false;
  const value = argValue(use, 0, ctx.checker);
  return rule.refusesNullItem(value === null || (Array.isArray(value) && value.includes(null)));
}

/** One decorator use, by its catalogue row. */
function applyRule(use: DecoratorUse, target: SchemaObject, slot: Slot, ctx: MemberContext): void {
  const rule = ruleOf(use.name);
  if (rule === undefined) {
    // Another package's decorator (documentation, serialization) checks nothing the decoder runs.
    if (!fromOtherPackage(use)) ctx.warn(M.unknownDecorator(ctx.where, use.name), use.node);
    return;
  }
  if (rule.kind === 'refused') {
    ctx.fail(M.refusedDecorator(ctx.where, use.name, rule.fix), use.node);
    return;
  }
  if (appliesToType(use, rule, target, slot, ctx)) rule.apply?.(use, target, slot, ctx);
}

/** The JSON Schema types of the values of a kind. */
const SCHEMA_TYPES: Record<ValueKind, readonly string[]> = {
  string: ['string'],
  number: ['number', 'integer'],
  boolean: ['boolean'],
  array: ['array'],
  object: ['object'],
  date: ['string'],
  null: ['null'],
  any: [],
};

/**
 * A decorator meant for one kind of value (its row's `appliesTo`) on a member whose TypeScript type
 * has no value of that kind fails generation: JSON Schema ignores the keyword on the other types, so
 * the schema would accept what the decoder refuses. Where the type has values of that kind and
 * others (a union), the schema is narrowed to that kind (the decorator narrows the type, as the
 * decoder does); on an `unknown` member the schema says that kind. Returns false after reporting.
 */
function appliesToType(
  use: DecoratorUse,
  rule: DecoratorRule,
  target: SchemaObject,
  slot: Slot,
  ctx: MemberContext,
): boolean {
  const wanted = rule.appliesTo;
  if (wanted === undefined) return true;
  const kinds = kindsOf(nonNull(slot.parts), ctx.checker);
  if (kinds.has('any')) {
    if (wanted.includes('date')) {
      ctx.fail(M.dateCheckOnOtherType(ctx.where, use.name, slot.text), use.node);
      return false;
    }
    if (
      target['type'] === undefined &&
      target['$ref'] === undefined &&
      target['anyOf'] === undefined &&
      target['enum'] === undefined &&
      !('const' in target)
    ) {
      const types = [...new Set(wanted.flatMap((k) => SCHEMA_TYPES[k]).filter((t) => t !== 'integer'))];
      target['type'] = types.length === 1 ? types[0] : types;
    }
    return true;
  }
  if (![...kinds].some((k) => wanted.includes(k))) {
    ctx.fail(mismatch(use, rule, wanted, slot, ctx), use.node);
    return false;
  }
  if ([...kinds].some((k) => k !== 'null' && !wanted.includes(k)))
    narrowTypes(target, new Set([...wanted.flatMap((k) => SCHEMA_TYPES[k]), 'null']), ctx.resolve);
  return true;
}

/** Which message a kind mismatch gets: the items would fit (each missing), a type check, or another kind. */
function mismatch(
  use: DecoratorUse,
  rule: DecoratorRule,
  wanted: readonly ValueKind[],
  slot: Slot,
  ctx: MemberContext,
) {
  const items = slot.each ? undefined : itemParts(slot.parts, ctx.checker);
  const itemKinds = items === undefined ? undefined : kindsOf(nonNull(items), ctx.checker);
  if (itemKinds !== undefined && [...itemKinds].some((k) => wanted.includes(k) || k === 'any')) {
    const call = rule.typeCheck === true ? `@${use.name}()` : `@${use.name}`;
    return M.eachMissing(ctx.where, use.name, call, M.kindWords(wanted[0] as ValueKind), slot.text);
  }
  if (rule.typeCheck === true) return M.typeCheckContradiction(ctx.where, use.name, slot.text);
  return M.wrongValueKind(ctx.where, use.name, wanted, kindsOf(nonNull(slot.parts), ctx.checker), slot.text);
}
