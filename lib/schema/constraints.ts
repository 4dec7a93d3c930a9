import ts from 'typescript';
import { hasEach, literalValue, type DecoratorUse, type LiteralValue } from './decorator-reader';
import type { SchemaObject } from './manifest';
import { arrayItems, jsonTypes, mapTypes, type RefResolver } from './schema-types';

/**
 * Merges the class-validator decorators of one DTO member into its JSON Schema fragment (DESIGN.md
 * section 4 rules 3, 8-10 and section 5). Decorators are matched by the names class-validator 0.15
 * exports; each only narrows the TypeScript type. A check JSON Schema cannot express is reported as
 * decoder-only; a contradiction between decorators and type fails, naming the member and the fix.
 * @internal
 */
export interface MemberContext {
  /** `Class.member`, the prefix of every message. */
  readonly where: string;
  /** The member's fragment inside `properties` (edited in place). */
  readonly schema: SchemaObject;
  /** The member's TypeScript type. */
  readonly type: ts.Type;
  readonly decorators: readonly DecoratorUse[];
  readonly checker: ts.TypeChecker;
  readonly resolve: RefResolver;
  readonly warn: (message: string) => void;
  readonly fail: (message: string) => void;
}

/** What the merge learned about the member beyond its fragment. @internal */
export interface MemberFacts {
  /** `@IsOptional()` was present. */
  readonly optional: boolean;
  /** `@Expose({ name })` gave this wire name. */
  readonly wireName: string | undefined;
}

/** Decorators that check nothing JSON Schema lacks, or only steer decoding: no warning. */
const STRUCTURAL = new Set(['Type', 'Expose', 'ValidateNested', 'IsOptional', 'IsArray', 'IsDefined', 'Allow', 'IsObject', 'IsDate']);

const TYPE_CHECKS: Record<string, readonly string[]> = {
  IsString: ['string'],
  IsNumber: ['number', 'integer'],
  IsInt: ['number', 'integer'],
  IsBoolean: ['boolean'],
};

const FORMATS: Record<string, string> = {
  IsEmail: 'email',
  IsUrl: 'uri',
  IsUUID: 'uuid',
  IsISO8601: 'date-time',
  IsDateString: 'date-time',
};

const NUMBER_KEYWORDS: Record<string, string> = {
  Min: 'minimum',
  Max: 'maximum',
  MinLength: 'minLength',
  MaxLength: 'maxLength',
  ArrayMinSize: 'minItems',
  ArrayMaxSize: 'maxItems',
};

/** Applies every decorator of one member. @internal */
export function mergeMember(ctx: MemberContext): MemberFacts {
  let optional = false;
  let wireName: string | undefined;
  const names = new Set(ctx.decorators.map((d) => d.name));
  for (const use of ctx.decorators) {
    const each = hasEach(use, ctx.checker);
    if (use.name === 'IsOptional') optional = true;
    if (use.name === 'Expose') wireName = exposeName(use, ctx) ?? wireName;
    let target = ctx.schema;
    if (each) {
      const items = arrayItems(ctx.schema);
      if (items === undefined) {
        ctx.fail(`${ctx.where}: @${use.name}({ each: true }) needs an array member; remove each or make the member an array`);
        continue;
      }
      target = items;
    }
    applyOne(use, target, ctx, names);
  }
  return { optional, wireName };
}

function applyOne(use: DecoratorUse, target: SchemaObject, ctx: MemberContext, names: Set<string>): void {
  const { name } = use;
  const allowed = TYPE_CHECKS[name];
  if (allowed !== undefined) return narrowType(use, target, allowed, ctx);
  const keyword = NUMBER_KEYWORDS[name];
  if (keyword !== undefined) {
    const n = numberArg(use, 0, ctx);
    if (n !== undefined) target[keyword] = n;
    return;
  }
  const format = FORMATS[name];
  if (format !== undefined) {
    target['format'] = format;
    if (use.args.some((a) => !ts.isObjectLiteralExpression(a) || !isOnlyValidationOptions(a))) {
      ctx.warn(`${ctx.where}: @${name} options are checked by the decoder only`);
    }
    return;
  }
  switch (name) {
    case 'Length': {
      const min = numberArg(use, 0, ctx);
      if (min !== undefined) target['minLength'] = min;
      const maxArg = use.args[1];
      if (maxArg !== undefined && !ts.isObjectLiteralExpression(maxArg)) {
        const max = numberArg(use, 1, ctx);
        if (max !== undefined) target['maxLength'] = max;
      }
      return;
    }
    case 'IsPositive':
      target['exclusiveMinimum'] = 0;
      return;
    case 'IsNegative':
      target['exclusiveMaximum'] = 0;
      return;
    case 'ArrayNotEmpty':
      target['minItems'] = Math.max(1, typeof target['minItems'] === 'number' ? target['minItems'] : 0);
      return;
    case 'ArrayUnique':
      target['uniqueItems'] = true;
      if (use.args.some((a) => !ts.isObjectLiteralExpression(a))) {
        ctx.warn(`${ctx.where}: @ArrayUnique with an identifier is checked by the decoder only`);
      }
      return;
    case 'IsNotEmpty':
      if (jsonTypes(target, ctx.resolve).has('string')) target['minLength'] = Math.max(1, Number(target['minLength'] ?? 0));
      return;
    case 'IsEnum':
    case 'IsIn':
      return applyEnum(use, target, ctx);
    case 'Matches':
      return applyMatches(use, target, ctx);
    case 'IsDate':
      return checkDate(ctx, names);
    case 'ValidateNested':
      return checkNested(ctx, names);
    case 'IsArray':
      if (!jsonTypes(ctx.schema, ctx.resolve).has('array')) {
        ctx.fail(`${ctx.where}: @IsArray() contradicts the TypeScript type ${typeText(ctx)}; declare the member as an array`);
      }
      return;
  }
  if (STRUCTURAL.has(name)) return;
  if (use.declaredIn !== undefined && !/[\\/]class-(validator|transformer)[\\/]/.test(use.declaredIn)) return;
  ctx.warn(`${ctx.where}: @${name} is checked by the decoder only`);
}

function isOnlyValidationOptions(arg: ts.ObjectLiteralExpression): boolean {
  const keys = new Set(['each', 'message', 'groups', 'always', 'context']);
  return arg.properties.every((p) => p.name !== undefined && ts.isIdentifier(p.name) && keys.has(p.name.text));
}

function narrowType(use: DecoratorUse, target: SchemaObject, allowed: readonly string[], ctx: MemberContext): void {
  const types = jsonTypes(target, ctx.resolve);
  const overlap = [...types].some((t) => allowed.includes(t));
  if (!overlap) {
    ctx.fail(`${ctx.where}: @${use.name}() contradicts the TypeScript type ${typeText(ctx)}; change the type or the decorator`);
    return;
  }
  const keep = (t: string): string | undefined => (t === 'null' || allowed.includes(t) ? t : undefined);
  mapTypes(target, use.name === 'IsInt' ? (t) => (t === 'number' ? 'integer' : keep(t)) : keep);
}

function numberArg(use: DecoratorUse, index: number, ctx: MemberContext): number | undefined {
  const arg = use.args[index];
  const value = arg === undefined ? undefined : literalValue(arg, ctx.checker);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  ctx.fail(`${ctx.where}: @${use.name} needs a number literal as argument ${index + 1}; write the bound inline`);
  return undefined;
}

function applyEnum(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  const values = arg === undefined ? undefined : enumValues(arg, use.name, ctx);
  if (values === undefined || values.length === 0) {
    const what = use.name === 'IsEnum' ? 'an enum' : 'an array literal of strings or numbers';
    ctx.fail(`${ctx.where}: @${use.name} needs ${what} as argument 1; write it inline`);
    return;
  }
  const types = [...new Set(values.map((v) => (typeof v === 'number' ? 'number' : 'string')))];
  const description = target['description'];
  for (const key of Object.keys(target)) delete target[key];
  if (description !== undefined) target['description'] = description;
  target['type'] = types.length === 1 ? types[0] : types;
  target['enum'] = values;
}

function enumValues(arg: ts.Expression, name: string, ctx: MemberContext): (string | number)[] | undefined {
  if (name === 'IsIn') {
    const value = literalValue(arg, ctx.checker);
    if (!Array.isArray(value)) return undefined;
    return value.every((v): v is string | number => typeof v === 'string' || typeof v === 'number') ? value : undefined;
  }
  const symbol = ctx.checker.getSymbolAtLocation(arg);
  const target = symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? ctx.checker.getAliasedSymbol(symbol) : symbol;
  const decl = target?.declarations?.find(ts.isEnumDeclaration);
  if (decl !== undefined) {
    const out: (string | number)[] = [];
    for (const member of decl.members) {
      const v = ctx.checker.getConstantValue(member);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  const value = literalValue(arg, ctx.checker);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out = Object.values(value as Record<string, LiteralValue>);
  return out.every((v): v is string | number => typeof v === 'string' || typeof v === 'number') ? out : undefined;
}

function applyMatches(use: DecoratorUse, target: SchemaObject, ctx: MemberContext): void {
  const arg = use.args[0];
  let source: string | undefined;
  let flags = '';
  if (arg !== undefined && ts.isRegularExpressionLiteral(arg)) {
    const text = arg.text;
    const slash = text.lastIndexOf('/');
    source = text.slice(1, slash);
    flags = text.slice(slash + 1);
  } else if (arg !== undefined) {
    const value = literalValue(arg, ctx.checker);
    if (typeof value === 'string') source = value;
    const second = use.args[1];
    if (second !== undefined && !ts.isObjectLiteralExpression(second)) {
      const modifiers = literalValue(second, ctx.checker);
      flags = typeof modifiers === 'string' ? modifiers : '?';
    }
  }
  if (source === undefined) {
    ctx.fail(`${ctx.where}: @Matches needs a regular expression or string literal; write the pattern inline`);
    return;
  }
  if (flags !== '' && flags !== 'u') {
    ctx.fail(
      `${ctx.where}: @Matches flags "${flags}" cannot be expressed in JSON Schema (patterns always use the u flag); ` +
        'remove the flags and spell the pattern out (for example [Aa] instead of the i flag)',
    );
    return;
  }
  try {
    new RegExp(source, 'u');
  } catch {
    ctx.fail(`${ctx.where}: @Matches pattern /${source}/ is not valid with the u flag; rewrite it as a Unicode pattern`);
    return;
  }
  target['pattern'] = source;
}

function checkDate(ctx: MemberContext, names: Set<string>): void {
  const nonNull = ctx.type.isUnion() ? ctx.type.types.filter((t) => !(t.flags & ts.TypeFlags.Null)) : [ctx.type];
  if (!nonNull.every((t) => t.getSymbol()?.getName() === 'Date')) {
    ctx.fail(`${ctx.where}: @IsDate() contradicts the TypeScript type ${typeText(ctx)}; declare the member as Date`);
    return;
  }
  if (!names.has('Type')) {
    ctx.fail(`${ctx.where}: @IsDate() needs @Type(() => Date) so the decoder turns the ISO 8601 string into a Date; add @Type(() => Date)`);
  }
}

function checkNested(ctx: MemberContext, names: Set<string>): void {
  if (names.has('Type')) return;
  const cls = nestedClassName(ctx.type, ctx.checker);
  if (cls === undefined) return;
  ctx.fail(`${ctx.where}: @ValidateNested() needs @Type(() => ${cls}) so the decoder builds ${cls} objects; add @Type(() => ${cls})`);
}

function nestedClassName(type: ts.Type, checker: ts.TypeChecker): string | undefined {
  const parts = type.isUnion() ? type.types : [type];
  for (const part of parts) {
    const element = checker.isArrayType(part) ? checker.getTypeArguments(part as ts.TypeReference)[0] : part;
    const decl = element?.getSymbol()?.declarations?.find(ts.isClassDeclaration);
    if (decl !== undefined && decl.name !== undefined) return decl.name.text;
  }
  return undefined;
}

function exposeName(use: DecoratorUse, ctx: MemberContext): string | undefined {
  const arg = use.args[0];
  const value = arg === undefined ? undefined : literalValue(arg, ctx.checker);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value['name'] === 'string') {
    return value['name'];
  }
  return undefined;
}

function typeText(ctx: MemberContext): string {
  return ctx.checker.typeToString(ctx.type);
}
