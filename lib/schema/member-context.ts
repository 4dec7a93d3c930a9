import type ts from 'typescript';
import type { DecoratorUse } from './decorator-reader';
import type { SchemaObject } from './manifest';
import type { SchemaIssue } from './messages';
import type { RefResolver } from './schema-types';

/**
 * What the decorator rules of lib/schema/catalogue.ts work on: one DTO member being merged, where one
 * decorator use applies, and where problems go. Types only, so every rule module may import them.
 * @internal
 */

/**
 * Where a DTO class's problems are reported. Every report is a SchemaIssue from lib/schema/messages.ts.
 * @internal
 */
export interface ClassSink {
  /** Reports a decoder-only check; `node` is where it is written (the decorator or member). */
  readonly warn: (issue: SchemaIssue, node?: ts.Node) => void;
  /** Reports a contradiction or refusal; `node` is where it is written. */
  readonly fail: (issue: SchemaIssue, node?: ts.Node) => void;
  /**
   * Notes a bound a decorator states that the schema states tighter, because something else bounds
   * the member too (a JSDoc tag, a tuple's length, another decorator): `Class.property.keyword`,
   * `Class.property[].keyword` for the items. The manifest lists them (`mergedBounds`) so that the
   * run-time drift check (lib/dto/drift.ts) leaves them alone.
   */
  readonly merged?: (bound: string) => void;
}

/**
 * One DTO member whose class-validator decorators are being merged into its JSON Schema fragment
 * (docs/architecture.md section 4 rules 3 and 8 to 10). Reports carry the decorator's node, so their location
 * is the decorator's line.
 * @internal
 */
export interface MemberContext extends ClassSink {
  /** `Class.member`, the place of every message. */
  readonly where: string;
  /** The member's fragment inside `properties` (edited in place). */
  readonly schema: SchemaObject;
  /** The member's TypeScript type. */
  readonly type: ts.Type;
  readonly decorators: readonly DecoratorUse[];
  readonly checker: ts.TypeChecker;
  readonly resolve: RefResolver;
}

/**
 * Where one decorator use applies: the member itself, or (with `each: true`) its array items. `parts`
 * are the TypeScript type's parts there (without `undefined`).
 * @internal
 */
export interface Slot {
  readonly parts: readonly ts.Type[];
  readonly each: boolean;
  /** The type as messages name it (`Size`, `string[]`; the item type with `each`). */
  readonly text: string;
}

/**
 * What a catalogue row does (lib/schema/catalogue.ts `apply`): the decorator's schema mapping, editing
 * `target` (the member's fragment, or its items' with `each: true`) in place, as zod's JSON Schema
 * processors edit their output. Problems go to `ctx.warn` / `ctx.fail`.
 * @internal
 */
export type Apply = (use: DecoratorUse, target: SchemaObject, slot: Slot, ctx: MemberContext) => void;

/** Whether the member carries a decorator of that name. @internal */
export function hasDecorator(ctx: MemberContext, name: string): boolean {
  return ctx.decorators.some((d) => d.name === name);
}

/** The member's TypeScript type as written for messages (an optional member's `?` is not part of it). @internal */
export function typeTextOf(ctx: MemberContext): string {
  return ctx.checker.typeToString(ctx.type).replace(/ \| undefined\b|\bundefined \| /g, '');
}
