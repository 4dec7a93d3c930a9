/**
 * Fresh-eyes review of the generator: DTO shapes where the schema and the decoder disagreed and
 * generation said nothing. Each test names the DTO and the argument; the generator now makes the
 * schema say what the decoder does, warns naming `Dto.member`, or fails naming the fix.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { ToolError } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
import { generated, decoderAlone } from './verdicts';
import {
  ArithOk,
  Bounds,
  ConstEnum,
  Customer,
  Flags,
  NullableValues,
  Settings,
  Template,
  ConstMember,
  ConstMemberOk,
  GoodOrder,
  Order,
  WithPaging,
} from './fixtures/review/review.tools';
import { Holder, Indexed, NeedsArg, OptionalArg, ProtoName } from './fixtures/review-shapes/shapes.tools';

let result: GenerationResult;
let shapes: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'review', 'tsconfig.json') });
  shapes = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'review-shapes', 'tsconfig.json') });
});

const { schemaOf, errorsOf, warningsOf, missing, verdicts: verdictsOf } = generated(() => result);
/** The schema's and the decoder's verdicts on one JSON text. */
const verdicts = (name: string, dto: new () => object, json: string) => verdictsOf(name, dto, { json });

function shapeErrors(tool: string): string[] {
  return shapes.errors.filter((e) => e.tool === tool).map((e) => e.message);
}

function shapeMissing(tool: string): boolean {
  return !shapes.manifest.tools.some((t) => t.name === tool);
}

const QTY =
  "OrderLine.qty: the default 0 breaks the member's own constraints (must be >= 1); change the initializer or the constraint";

describe('review item 1: defaults are checked per DTO class, wherever the class appears', () => {
  it('refuses a bad default in a DTO reached through an array (the decoder refused {"lines":[{"sku":"a"}]})', () => {
    expect(decoderAlone(Order, '{"lines":[{"sku":"a"}]}')).toMatch(/\/lines\/0\/qty/);
    expect(errorsOf('order')).toEqual([QTY]);
    expect(missing('order')).toBe(true);
  });

  it('refuses it through a nullable nested member, and reports it to every tool that reaches the class', () => {
    expect(errorsOf('maybe_line')).toEqual([QTY]);
    expect(missing('maybe_line')).toBe(true);
  });

  it('refuses it in a recursive DTO (kept under $defs)', () => {
    expect(errorsOf('tree')).toEqual([
      "Tree.weight: the default 0 breaks the member's own constraints (must be >= 1); change the initializer or the constraint",
    ]);
  });

  it('keeps a valid default in an array of DTOs: schema and decoder agree', () => {
    expect(errorsOf('good_order')).toEqual([]);
    expect(verdicts('good_order', GoodOrder, '{"lines":[{"sku":"a"}]}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('good_order', GoodOrder, '{"lines":[{"sku":"a","qty":0}]}')).toEqual({
      schema: false,
      decoder: false,
    });
  });
});

describe('review item 2: a default the generator cannot evaluate is never dropped silently', () => {
  it('evaluates a member of a const object (DEFAULTS.order) and checks it against @IsIn', () => {
    expect(decoderAlone(ConstMember, '{}')).toMatch(/order/);
    expect(errorsOf('const_member')).toEqual([
      'ConstMember.order: the default "ASC" breaks the member\'s own constraints (must be one of ["asc","desc"]); change the initializer or the constraint',
    ]);
    expect(schemaOf('const_member_ok')['properties']).toEqual({
      size: { type: 'integer', default: 10 },
      order: { type: 'string', default: 'asc', enum: ['asc', 'desc'] },
    });
    expect(verdicts('const_member_ok', ConstMemberOk, '{"order":"ASC"}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('const_member_ok', ConstMemberOk, '{}')).toEqual({ schema: true, decoder: true });
  });

  it('evaluates constant arithmetic (-DEFAULT_LIMIT - 1, 60 * 60 * 24)', () => {
    expect(errorsOf('arith')).toEqual([
      "Arith.limit: the default -21 breaks the member's own constraints (must be >= 0); change the initializer or the constraint",
    ]);
    expect(schemaOf('arith_ok')['properties']).toEqual({
      seconds: { type: 'integer', default: 86400, maximum: 86400 },
    });
    expect(verdicts('arith_ok', ArithOk, '{}')).toEqual({ schema: true, decoder: true });
  });

  it("fails generation on a default it cannot evaluate ('ab'.slice(1)), with the fix", () => {
    expect(errorsOf('computed')).toEqual([
      "Computed.code: the generator cannot evaluate the default ('ab'.slice(1)), so the schema cannot show it nor check it " +
        "against the member's constraints (the decoder applies and validates it); write the default as a literal or a const",
    ]);
    expect(missing('computed')).toBe(true);
  });

  it('shows a template literal default without its backquotes (typescript-json-schema wrote "`abc`")', () => {
    expect(errorsOf('template')).toEqual([]);
    expect(schemaOf('template')['properties']).toEqual({ word: { type: 'string', default: 'abc', minLength: 3 } });
    expect(verdicts('template', Template, '{}')).toEqual({ schema: true, decoder: true });
  });

  it('warns that the schema shows no default for an object default (new Paging())', () => {
    expect(errorsOf('with_paging')).toEqual([]);
    expect(warningsOf('with_paging')).toEqual([
      'WithPaging.paging: the default (new Paging()) is not a literal the generator can evaluate, so the schema shows no default ' +
        '(the decoder still applies it); write the default as a literal or a const to show it',
    ]);
    expect(verdicts('with_paging', WithPaging, '{}')).toEqual({ schema: true, decoder: true });
  });
});

describe('review item 3: an index signature fails generation', () => {
  it('refuses [extra: string]: string (the schema admitted extra members, the decoder refuses them)', () => {
    expect(decoderAlone(Indexed, '{"name":"a","x":"y"}')).toMatch(/x/);
    expect(shapeErrors('indexed')).toEqual([
      'Indexed: has an index signature ([extra: string]: string), so the schema would admit members the decoder refuses as ' +
        'unknown; remove the index signature; use a Record member (extra!: Record<string, string>)',
    ]);
    expect(shapeMissing('indexed')).toBe(true);
  });
});

describe('review item 4: a DTO must be constructible without arguments', () => {
  const NEEDS_ARG =
    'NeedsArg: its constructor requires the argument name, but the decoder builds every DTO with new NeedsArg(); a DTO must ' +
    'be constructible without arguments (make the parameter optional or remove the constructor)';

  it('fails generation naming the class, as the input and as a nested DTO', () => {
    expect(shapeErrors('needs_arg')).toEqual([NEEDS_ARG]);
    expect(shapeErrors('holder')).toEqual([NEEDS_ARG]);
    expect(shapeErrors('optional_arg')).toEqual([]);
    expect(shapeMissing('optional_arg')).toBe(false);
  });

  it('is refused by the decoder at bind time with ERR_INVALID_TOOL (it said "a validator or transformer threw" per call)', () => {
    for (const dto of [NeedsArg, Holder] as Array<Parameters<typeof dtoInput>[0]>) {
      let caught: unknown;
      try {
        dtoInput(dto);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ToolError);
      expect((caught as ToolError).code).toBe('ERR_INVALID_TOOL');
      expect((caught as ToolError).message).toMatch(
        /NeedsArg: the constructor throws when called without arguments .*a DTO must be constructible without arguments/,
      );
    }
    expect(decoderAlone(OptionalArg, '{"name":"a"}')).toBe('accepted');
  });
});

describe('review item 5: Map, Set and other non-JSON built-in classes fail generation', () => {
  it('refuses Map<string, number> and Set<string> with the fix, and never emits a __@ member name', () => {
    expect(shapeErrors('with_map')).toEqual([
      'WithMap.counts: a Map is not a JSON value (the schema cannot describe it, and the decoder does not build one from JSON); ' +
        'use a Record<string, T> member (or an array) instead',
    ]);
    expect(shapeErrors('with_set')).toEqual([
      'WithSet.tags: a Set is not a JSON value (the schema cannot describe it, and the decoder does not build one from JSON); ' +
        'use a Record<string, T> member (or an array) instead',
    ]);
    for (const r of [result, shapes]) expect(JSON.stringify(r.manifest)).not.toContain('__@');
  });
});

describe('review item 6: wire names the decoder refuses fail generation', () => {
  it('refuses a member named prototype and a member exposed as constructor', () => {
    expect(decoderAlone(ProtoName, '{"prototype":"a"}')).toMatch(/prototype/);
    expect(shapeErrors('proto_name')).toEqual([
      'ProtoName.prototype: the wire name "prototype" is refused by the decoder in every argument (it could reach an object ' +
        'prototype); rename the member, or give it another wire name with @Expose({ name })',
    ]);
    expect(shapeErrors('proto_wire')).toContain(
      'ProtoWire.parent: the wire name "__proto__" is refused by the decoder in every argument (it could reach an object ' +
        'prototype); rename the member, or give it another wire name with @Expose({ name })',
    );
    expect(shapeErrors('ctor_name')).toEqual([
      'CtorName.maker: the wire name "constructor" is refused by the decoder in every argument (it could reach an object ' +
        'prototype); rename the member, or give it another wire name with @Expose({ name })',
    ]);
  });
});

describe('review item 7: DTO classes inside a namespace', () => {
  const inNamespace = (space: string, name: string): string =>
    `${space}.${name}: is declared inside the namespace ${space}, and the generator finds a DTO class by its name at the top ` +
    `level of a file, so it cannot derive its schema; move the class out of the namespace (export class ${name} at the top ` +
    'level of a module, renamed if the name is taken)';

  it('fails with the fix, for every tool (no error is dropped because another tool had the same text)', () => {
    expect(shapeErrors('refund')).toEqual([inNamespace('Billing', 'Refund')]);
    expect(shapeErrors('create_order')).toEqual([inNamespace('Orders', 'Create')]);
    expect(shapeErrors('create_invoice')).toEqual([inNamespace('Invoices', 'Create')]);
  });

  it('every tool missing from the manifest has an error of its own', () => {
    for (const r of [result, shapes]) {
      const reported = new Set(r.errors.map((e) => e.tool));
      const generated = new Set(r.manifest.tools.map((t) => t.name));
      const declared = r === shapes ? 12 : 25;
      expect(generated.size + reported.size).toBe(declared);
      for (const name of generated) expect(reported.has(name)).toBe(false);
    }
  });
});

describe('review item 8: @Matches flags, @IsEnum of a const object, constant arithmetic in bounds', () => {
  const FLAGS = (where: string, flags: string, fix: string): string =>
    `${where}: @Matches flags "${flags}" cannot be expressed in JSON Schema (patterns always use the u flag); ` +
    `remove the flags and spell the pattern out (${fix})`;

  it('says how to write the pattern without g, s or m', () => {
    expect(errorsOf('global_flag')).toEqual([
      FLAGS(
        'GlobalFlag.code',
        'g',
        'drop the g flag: it only makes the RegExp remember lastIndex between calls, so a repeated value can fail',
      ),
    ]);
    expect(errorsOf('dot_all')).toEqual([
      FLAGS('DotAll.code', 's', 'for the s flag, write [\\s\\S] where the pattern has .'),
    ]);
    expect(errorsOf('multiline')).toEqual([
      FLAGS(
        'Multiline.code',
        'm',
        'for the m flag, write (?:^|\\n) where the pattern has ^ and (?:$|\\n) where it has $',
      ),
    ]);
  });

  it('reads @IsEnum(Color) of a const object as its values', () => {
    expect(errorsOf('const_enum')).toEqual([]);
    expect(schemaOf('const_enum')['properties']).toEqual({ color: { enum: ['red', 'blue'], type: 'string' } });
    expect(verdicts('const_enum', ConstEnum, '{"color":"red"}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('const_enum', ConstEnum, '{"color":"Red"}')).toEqual({ schema: false, decoder: false });
  });

  it('evaluates 60 * 60 * 24, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER and -DEFAULT_LIMIT', () => {
    expect(errorsOf('bounds')).toEqual([]);
    expect(schemaOf('bounds')['properties']).toEqual({
      seconds: { type: 'integer', maximum: 86400 },
      int32: { type: 'integer', maximum: 2147483647 },
      safe: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER, minimum: -20 },
    });
    const ok = '{"seconds":86400,"int32":2147483647,"safe":-20}';
    expect(verdicts('bounds', Bounds, ok)).toEqual({ schema: true, decoder: true });
    expect(verdicts('bounds', Bounds, '{"seconds":86401,"int32":0,"safe":0}')).toEqual({
      schema: false,
      decoder: false,
    });
    expect(verdicts('bounds', Bounds, '{"seconds":0,"int32":2147483648,"safe":0}')).toEqual({
      schema: false,
      decoder: false,
    });
    expect(verdicts('bounds', Bounds, '{"seconds":0,"int32":0,"safe":-21}')).toEqual({ schema: false, decoder: false });
  });
});

describe('review: false refusals of ordinary DTOs', () => {
  it('@ValidateIf with ? or !: not required; the warning says the decoder requires and checks it only when the condition holds', () => {
    // Before: company?: string was refused ("optional in TypeScript (?), but without @IsOptional() the decoder requires it"),
    // and the decoder required company and vat even when hasCompany was false, where class-validator skips them.
    expect(errorsOf('customer')).toEqual([]);
    // @IsDefined still requires region always: class-validator checks it whatever the condition.
    expect(schemaOf('customer')['required']).toEqual(['hasCompany', 'region']);
    const why =
      "the schema cannot express the condition: it accepts the member's absence and applies its checks whenever it is present, " +
      'while the decoder requires and checks the member only when the condition holds';
    expect(warningsOf('customer')).toEqual(
      ['company', 'vat', 'region'].map((m) => `Customer.${m}: @ValidateIf is checked by the decoder only (${why})`),
    );
    expect(verdicts('customer', Customer, '{"hasCompany":false,"region":"eu"}')).toEqual({
      schema: true,
      decoder: true,
    });
    expect(verdicts('customer', Customer, '{"hasCompany":true,"company":"ACME","vat":"X1","region":"eu"}')).toEqual({
      schema: true,
      decoder: true,
    });
    expect(verdicts('customer', Customer, '{"hasCompany":true,"company":5,"vat":"X1","region":"eu"}')).toEqual({
      schema: false,
      decoder: false,
    });
    expect(verdicts('customer', Customer, '{"hasCompany":false}')).toEqual({ schema: false, decoder: false });
    // The condition holds and company is absent: only the decoder can refuse it (what the warning says).
    expect(verdicts('customer', Customer, '{"hasCompany":true,"vat":"X1","region":"eu"}')).toEqual({
      schema: true,
      decoder: false,
    });
    expect(decoderAlone(Customer, '{"hasCompany":false,"region":"eu"}')).toBe('accepted');
  });

  it('@IsIn(Object.values(Status)) is refused with the fix @IsEnum(Status)', () => {
    expect(errorsOf('status_filter')).toEqual([
      'StatusFilter.status: @IsIn(Object.values(Status)) is not evaluated by the generator; write @IsEnum(Status), which accepts the same ' +
        "values (class-validator checks a value against the object's values), or list the values inline",
    ]);
    expect(missing('status_filter')).toBe(true);
  });
});

describe('review: a refused Record member keeps its @IsOptional()', () => {
  const refusals = (cls: string): string[] => [
    `${cls}.byName: Record values of type Address are not checked by the decoder; use string, number, boolean or unknown values ` +
      '(or a union of them, null included), or an array of a nested DTO',
    `${cls}.byName: @Type(() => Address) contradicts the TypeScript type Record<string, Address>: the decoder would take only Address ` +
      'objects where the schema accepts the declared type; make @Type name the declared type, or change the type',
  ];
  it('byName?: Record<string, Address> with @IsOptional(): the two refusals only (it also said "without @IsOptional() the decoder requires it")', () => {
    expect(errorsOf('by_name')).toEqual(refusals('ByName'));
    expect(errorsOf('by_name_required')).toEqual(refusals('ByNameRequired'));
    expect(missing('by_name')).toBe(true);
  });
});

describe('review: Record values of a union of primitive JSON types', () => {
  const NAMES = { not: { enum: ['__proto__', 'constructor', 'prototype'] } };
  it('Record<string, string | number> and <string, string | number | boolean>: additionalProperties lists the types; schema and decoder agree', () => {
    // Before: refused with "Record values of type string | number are not checked by the decoder".
    expect(errorsOf('settings')).toEqual([]);
    expect(warningsOf('settings')).toEqual([]);
    expect((schemaOf('settings')['properties'] as Record<string, unknown>)['settings']).toEqual({
      type: 'object',
      additionalProperties: { type: ['string', 'number'] },
      propertyNames: NAMES,
    });
    expect(verdicts('settings', Settings, '{"settings":{"a":true}}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('settings', Settings, '{"settings":{"a":"x","b":1}}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('settings', Settings, '{"settings":{"a":null}}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('settings', Settings, '{"settings":{"a":{"b":1}}}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('settings', Settings, '{}')).toEqual({ schema: true, decoder: true });

    expect(errorsOf('flags')).toEqual([]);
    expect((schemaOf('flags')['properties'] as Record<string, unknown>)['flags']).toEqual({
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
      propertyNames: NAMES,
    });
    expect(verdicts('flags', Flags, '{"flags":{"a":true,"b":"x","c":1.5}}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('flags', Flags, '{"flags":{"a":[1]}}')).toEqual({ schema: false, decoder: false });
  });

  it('Record<string, number | null>: nullable values', () => {
    expect(errorsOf('nullable_values')).toEqual([]);
    expect((schemaOf('nullable_values')['properties'] as Record<string, unknown>)['values']).toEqual({
      type: 'object',
      additionalProperties: { type: ['number', 'null'] },
      propertyNames: NAMES,
    });
    expect(verdicts('nullable_values', NullableValues, '{"values":{"a":null,"b":2}}')).toEqual({
      schema: true,
      decoder: true,
    });
    expect(verdicts('nullable_values', NullableValues, '{"values":{"a":"2"}}')).toEqual({
      schema: false,
      decoder: false,
    });
  });

  it('a union with a DTO or an array stays refused', () => {
    const fix =
      'use string, number, boolean or unknown values (or a union of them, null included), or an array of a nested DTO';
    expect(errorsOf('mixed_values')).toEqual([
      `MixedValues.values: Record values of type string | Address are not checked by the decoder; ${fix}`,
    ]);
    expect(errorsOf('array_values')).toEqual([
      `ArrayValues.values: Record values of type string | number[] are not checked by the decoder; ${fix}`,
    ]);
    expect(missing('mixed_values')).toBe(true);
    expect(missing('array_values')).toBe(true);
  });
});
