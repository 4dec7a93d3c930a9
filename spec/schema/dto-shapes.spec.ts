/**
 * DTO shapes where the schema and the decoder disagreed and generation said nothing: defaults,
 * class shapes (index signatures, constructors, built-ins, wire names, namespaces), flags and
 * Record values. Each test names the DTO and the argument; the generator now makes the schema say
 * what the decoder does, warns naming `Dto.member`, or fails naming the fix.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { ToolError } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
import { constructorThrows } from '../../lib/dto/messages';
import { generated, decoderAlone, reported } from './verdicts';
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
} from './fixtures/dto-shapes/dto-shapes.tools';
import { Holder, Indexed, NeedsArg, OptionalArg, ProtoName } from './fixtures/class-shapes/shapes.tools';

let result: GenerationResult;
let shapes: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'dto-shapes', 'tsconfig.json') });
  shapes = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'class-shapes', 'tsconfig.json') });
});

const { schemaOf, errorsOf, warningsOf, missing, verdicts: verdictsOf } = generated(() => result);
/** The schema's and the decoder's verdicts on one JSON text. */
const verdicts = (name: string, dto: new () => object, json: string) => verdictsOf(name, dto, { json });

function shapeErrors(tool: string): string[] {
  return shapes.errors.filter((e) => e.tool === tool).map(reported);
}

function shapeMissing(tool: string): boolean {
  return !shapes.manifest.tools.some((t) => t.name === tool);
}

const QTY = 'OrderLine.qty: default_breaks_constraints';

/** What a constructor throws when called without arguments. */
function reasonOf(dto: new (...args: never[]) => object): string {
  try {
    new (dto as new () => object)();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${dto.name} constructed without arguments`);
}

describe('defaults are checked per DTO class, wherever the class appears', () => {
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
    expect(errorsOf('tree')).toEqual(['Tree.weight: default_breaks_constraints']);
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

describe('a default the generator cannot evaluate is never dropped silently', () => {
  it('evaluates a member of a const object (DEFAULTS.order) and checks it against @IsIn', () => {
    expect(decoderAlone(ConstMember, '{}')).toMatch(/order/);
    expect(errorsOf('const_member')).toEqual(['ConstMember.order: default_breaks_constraints']);
    expect(schemaOf('const_member_ok')['properties']).toEqual({
      size: { type: 'integer', default: 10 },
      order: { type: 'string', default: 'asc', enum: ['asc', 'desc'] },
    });
    expect(verdicts('const_member_ok', ConstMemberOk, '{"order":"ASC"}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('const_member_ok', ConstMemberOk, '{}')).toEqual({ schema: true, decoder: true });
  });

  it('evaluates constant arithmetic (-DEFAULT_LIMIT - 1, 60 * 60 * 24)', () => {
    expect(errorsOf('arith')).toEqual(['Arith.limit: default_breaks_constraints']);
    expect(schemaOf('arith_ok')['properties']).toEqual({
      seconds: { type: 'integer', default: 86400, maximum: 86400 },
    });
    expect(verdicts('arith_ok', ArithOk, '{}')).toEqual({ schema: true, decoder: true });
  });

  it("fails generation on a default it cannot evaluate ('ab'.slice(1)), with the fix", () => {
    expect(errorsOf('computed')).toEqual(['Computed.code: default_unreadable']);
    expect(missing('computed')).toBe(true);
  });

  it('shows a template literal default without its backquotes (typescript-json-schema wrote "`abc`")', () => {
    expect(errorsOf('template')).toEqual([]);
    expect(schemaOf('template')['properties']).toEqual({ word: { type: 'string', default: 'abc', minLength: 3 } });
    expect(verdicts('template', Template, '{}')).toEqual({ schema: true, decoder: true });
  });

  it('warns that the schema shows no default for an object default (new Paging())', () => {
    expect(errorsOf('with_paging')).toEqual([]);
    expect(warningsOf('with_paging')).toEqual(['WithPaging.paging: default_not_shown']);
    expect(verdicts('with_paging', WithPaging, '{}')).toEqual({ schema: true, decoder: true });
  });
});

describe('an index signature fails generation', () => {
  it('refuses [extra: string]: string (the schema admitted extra members, the decoder refuses them)', () => {
    expect(decoderAlone(Indexed, '{"name":"a","x":"y"}')).toMatch(/x/);
    expect(shapeErrors('indexed')).toEqual(['Indexed: index_signature']);
    expect(shapeMissing('indexed')).toBe(true);
  });
});

describe('a DTO must be constructible without arguments', () => {
  const NEEDS_ARG = 'NeedsArg: constructor_arguments';

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
      expect((caught as ToolError).message).toBe(constructorThrows('NeedsArg', reasonOf(NeedsArg)).message);
    }
    expect(decoderAlone(OptionalArg, '{"name":"a"}')).toBe('accepted');
  });
});

describe('Map, Set and other non-JSON built-in classes fail generation', () => {
  it('refuses Map<string, number> and Set<string> with the fix, and never emits a __@ member name', () => {
    expect(shapeErrors('with_map')).toEqual(['WithMap.counts: not_json_builtin']);
    expect(shapeErrors('with_set')).toEqual(['WithSet.tags: not_json_builtin']);
    for (const r of [result, shapes]) expect(JSON.stringify(r.manifest)).not.toContain('__@');
  });
});

describe('wire names the decoder refuses fail generation', () => {
  it('refuses a member named prototype and a member exposed as constructor', () => {
    expect(decoderAlone(ProtoName, '{"prototype":"a"}')).toMatch(/prototype/);
    expect(shapeErrors('proto_name')).toEqual(['ProtoName.prototype: forbidden_wire_name']);
    expect(shapeErrors('proto_wire')).toContain('ProtoWire.parent: forbidden_wire_name');
    expect(shapeErrors('ctor_name')).toEqual(['CtorName.maker: forbidden_wire_name']);
  });
});

describe('DTO classes inside a namespace', () => {
  const inNamespace = (space: string, name: string): string => `${space}.${name}: namespaced_class`;

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

describe('@Matches flags, @IsEnum of a const object, constant arithmetic in bounds', () => {
  it('refuses the g, s and m flags (the fix per flag is spec/schema/messages.spec.ts)', () => {
    expect(errorsOf('global_flag')).toEqual(['GlobalFlag.code: pattern_flags @Matches']);
    expect(errorsOf('dot_all')).toEqual(['DotAll.code: pattern_flags @Matches']);
    expect(errorsOf('multiline')).toEqual(['Multiline.code: pattern_flags @Matches']);
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

describe('false refusals of ordinary DTOs', () => {
  it('@ValidateIf with ? or !: not required; the warning says the decoder requires and checks it only when the condition holds', () => {
    // Before: company?: string was refused ("optional in TypeScript (?), but without @IsOptional() the decoder requires it"),
    // and the decoder required company and vat even when hasCompany was false, where class-validator skips them.
    expect(errorsOf('customer')).toEqual([]);
    // @IsDefined still requires region always: class-validator checks it whatever the condition.
    expect(schemaOf('customer')['required']).toEqual(['hasCompany', 'region']);
    expect(warningsOf('customer')).toEqual(
      ['company', 'vat', 'region'].map((m) => `Customer.${m}: decoder_only @ValidateIf`),
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
    expect(errorsOf('status_filter')).toEqual(['StatusFilter.status: object_values_list @IsIn']);
    expect(missing('status_filter')).toBe(true);
  });
});

describe('a refused Record member keeps its @IsOptional()', () => {
  const refusals = (cls: string): string[] => [
    `${cls}.byName: record_values`,
    `${cls}.byName: type_target_mismatch @Type`,
  ];
  it('byName?: Record<string, Address> with @IsOptional(): the two refusals only (it also said "without @IsOptional() the decoder requires it")', () => {
    expect(errorsOf('by_name')).toEqual(refusals('ByName'));
    expect(errorsOf('by_name_required')).toEqual(refusals('ByNameRequired'));
    expect(missing('by_name')).toBe(true);
  });
});

describe('Record values of a union of primitive JSON types', () => {
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
    expect(errorsOf('mixed_values')).toEqual(['MixedValues.values: record_values']);
    expect(errorsOf('array_values')).toEqual(['ArrayValues.values: record_values']);
    expect(missing('mixed_values')).toBe(true);
    expect(missing('array_values')).toBe(true);
  });
});
