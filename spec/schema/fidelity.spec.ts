/**
 * DTO shapes where the schema and the decoder disagreed and the generator said nothing: optional
 * members, inheritance, members the generator cannot read, JSDoc @default. Each test names the DTO
 * and the argument; the generator now either makes the schema say what the decoder does, or refuses
 * the shape naming `Dto.member` and the fix.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import type { JsonObject } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
import { REQUIRED } from '../../lib/dto/messages';
import { generated, decoderAlone, decoderRefusal, reported } from './verdicts';
import {
  ConditionalOptional,
  Computed,
  DefinedOptional,
  Getter,
  Ignored,
  InitDefault,
  JsDocDefault,
  L2,
  L3,
  NoOptional,
  Numeric,
  PlainGetter,
  ProperOptional,
  UndefinedUnion,
} from './fixtures/fidelity/fidelity.tools';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'fidelity', 'tsconfig.json') });
});

const { schemaOf, verdicts: verdictsOf } = generated(() => result);
/** The schema's and the decoder's verdicts on one JSON text. */
const verdicts = (name: string, dto: new () => object, json: string) => verdictsOf(name, dto, { json });

/** The decoder's refusal of an absent member `name`: isDefined, "is required". */
const required = (name: string) => ({
  code: 'ERR_INVALID_INVOCATION',
  issues: [{ code: 'dto', path: [name], constraint: 'isDefined', message: REQUIRED }],
});

/** The errors of one tool: what was reported and on which line. */
function errorsOf(tool: string): Array<{ reported: string; line?: number }> {
  return result.errors.filter((e) => e.tool === tool).map((e) => ({ reported: reported(e), line: e.line }));
}

describe('optional members', () => {
  it('refuses x?: T without @IsOptional(): the schema did not require it, the decoder does', () => {
    // Before: the schema took {"name":"a"}, the decoder said /nickname: is required (isDefined).
    expect(decoderRefusal(NoOptional, '{"name":"a"}')).toEqual(required('nickname'));
    expect(errorsOf('no_optional')).toEqual([{ reported: 'NoOptional.nickname: optional_without_decorator', line: 9 }]);
  });

  it('refuses @IsDefined() with ?, saying to remove the ?', () => {
    expect(decoderRefusal(DefinedOptional, '{}')).toEqual(required('x'));
    expect(errorsOf('defined_optional')).toEqual([
      {
        reported: 'DefinedOptional.x: defined_but_optional @IsDefined',
        line: 14,
      },
    ]);
  });

  it('T | undefined without ? is required by both (typescript-json-schema requires it too)', () => {
    expect(schemaOf('undefined_union')['required']).toEqual(['maybe']);
    expect(verdicts('undefined_union', UndefinedUnion, '{}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('undefined_union', UndefinedUnion, '{"maybe":"m"}')).toEqual({ schema: true, decoder: true });
  });

  it('@ValidateIf() with ?: not required; the decoder requires and checks the member only when the condition holds', () => {
    // Before: refused as "optional in TypeScript (?), but without @IsOptional() the decoder requires it", and the
    // decoder said /detail: is required (isDefined) to {"kind":"b"}, where class-validator skips the member.
    expect(errorsOf('conditional_optional')).toEqual([]);
    expect(schemaOf('conditional_optional')['required']).toEqual(['kind']);
    expect(result.warnings.filter((w) => w.tool === 'conditional_optional').map(reported)).toEqual([
      'ConditionalOptional.detail: decoder_only @ValidateIf',
    ]);
    expect(verdicts('conditional_optional', ConditionalOptional, '{"kind":"b"}')).toEqual({
      schema: true,
      decoder: true,
    });
    expect(verdicts('conditional_optional', ConditionalOptional, '{"kind":"a","detail":"d"}')).toEqual({
      schema: true,
      decoder: true,
    });
    // The condition holds: the decoder requires the member (the schema cannot say so: the warning above).
    expect(verdicts('conditional_optional', ConditionalOptional, '{"kind":"a"}')).toEqual({
      schema: true,
      decoder: false,
    });
    expect(decoderAlone(ConditionalOptional, '{"kind":"b"}')).toBe('accepted');
  });

  it('@IsOptional() with ?, or an initializer: absent is fine for both', () => {
    expect(schemaOf('proper_optional')).not.toHaveProperty('required');
    expect(verdicts('proper_optional', ProperOptional, '{}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('proper_optional', ProperOptional, '{"nickname":"n","limit":3}')).toEqual({
      schema: true,
      decoder: true,
    });
  });
});

describe('inheritance', () => {
  it('L3 extends L2 extends L1: the schema holds L1 @MaxLength(5) and L2 @MinLength(2), as class-validator applies both', () => {
    expect((schemaOf('levels')['properties'] as Record<string, JsonObject>)['code']).toEqual({
      type: 'string',
      minLength: 2,
      maxLength: 5,
    });
    // Before: the schema had only minLength 2 and took "abcdef", which the decoder refused (maxLength).
    expect(verdicts('levels', L3, '{"code":"abcdef","n":1}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('levels', L3, '{"code":"a","n":1}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('levels', L3, '{"code":"abc","n":1}')).toEqual({ schema: true, decoder: true });
  });

  it("L2 validated itself: its own @MinLength shadows L1's @IsString and @MaxLength (same record type)", () => {
    expect((schemaOf('level_two')['properties'] as Record<string, JsonObject>)['code']).toEqual({
      type: 'string',
      minLength: 2,
    });
    expect(verdicts('level_two', L2, '{"code":"abcdef"}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('level_two', L2, '{"code":"a"}')).toEqual({ schema: false, decoder: false });
  });
});

describe('members the generator cannot read', () => {
  it('refuses a class-factory base (extends Timestamped(Plain)) naming the DTO and the fix (its members used to get bare types)', () => {
    expect(errorsOf('mixed')).toEqual([
      {
        reported: 'Mixed: mixin_base',
        line: 56,
      },
    ]);
  });

  it('refuses JSDoc @ignore on a checked member: the schema dropped it, the decoder requires it', () => {
    expect(decoderRefusal(Ignored, '{"name":"a"}')).toEqual(required('secret'));
    expect(errorsOf('ignored')).toEqual([
      {
        reported: 'Ignored.secret: member_left_out',
        line: 64,
      },
    ]);
  });

  it('refuses a decorated getter: the schema required it and the decoder dropped its value', () => {
    expect(errorsOf('getter')).toEqual([
      {
        reported: 'Getter.upper: decorated_accessor',
        line: 95,
      },
    ]);
    // The decoder takes {"name":"a","upper":"B"} and drops "B": the getter computes its own value.
    expect((dtoInput(Getter).decode({ name: 'a', upper: 'B' }) as Getter).upper).toBe('A');
  });

  it('leaves an undecorated getter out of the schema: the decoder refuses it as an unknown member', () => {
    expect(schemaOf('plain_getter')).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      additionalProperties: false,
      required: ['name'],
    });
    expect(verdicts('plain_getter', PlainGetter, '{"name":"a","upper":"B"}')).toEqual({
      schema: false,
      decoder: false,
    });
    expect(verdicts('plain_getter', PlainGetter, '{"name":"a"}')).toEqual({ schema: true, decoder: true });
  });

  it('numeric member names (42, 0x10 named 16) keep their decorators (they used to be bare numbers)', () => {
    expect(schemaOf('numeric')['properties']).toEqual({
      '16': { type: 'integer', minimum: 1 },
      '42': { type: 'integer', maximum: 9 },
    });
    expect(schemaOf('numeric')['required']).toEqual(['42', '16']);
    expect(verdicts('numeric', Numeric, '{"42":50,"16":1}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('numeric', Numeric, '{"42":1.5,"16":1}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('numeric', Numeric, '{"42":5,"16":0}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('numeric', Numeric, '{"42":5,"16":1}')).toEqual({ schema: true, decoder: true });
  });

  it('a computed name of a string constant ([LABEL]) keeps its decorators', () => {
    expect(schemaOf('computed')['properties']).toEqual({ label: { type: 'string', maxLength: 3 } });
    expect(verdicts('computed', Computed, '{"label":"abcd"}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('computed', Computed, '{"label":"abc"}')).toEqual({ schema: true, decoder: true });
  });
});

describe('JSDoc @default', () => {
  it('refuses @default without an initializer: the schema showed default 10, the tool received undefined', () => {
    expect(dtoInput(JsDocDefault).decode({})).toEqual({});
    expect(errorsOf('jsdoc_default')).toEqual([
      {
        reported: 'JsDocDefault.limit: jsdoc_default_without_initializer',
        line: 69,
      },
    ]);
  });

  it('refuses @default that disagrees with the initializer the tool receives', () => {
    expect(errorsOf('disagreeing_default')).toEqual([
      {
        reported: 'DisagreeingDefault.sort: jsdoc_default_disagrees',
        line: 88,
      },
    ]);
  });

  it('an initializer (with a @default that says the same) gives the default to both', () => {
    expect((schemaOf('init_default')['properties'] as Record<string, JsonObject>)['limit']).toEqual({
      description: 'Page size.',
      default: 10,
      type: 'integer',
    });
    expect(dtoInput(InitDefault, { inputSchema: schemaOf('init_default') }).decode({})).toEqual({ limit: 10 });
  });
});

describe('the fidelity fixture as a whole', () => {
  it('reports exactly these errors and generates the other tools', () => {
    expect(result.errors.map((e) => e.tool)).toEqual([
      'no_optional',
      'defined_optional',
      'mixed',
      'ignored',
      'jsdoc_default',
      'disagreeing_default',
      'getter',
    ]);
    expect(result.manifest.tools.map((t) => t.name)).toEqual([
      'computed',
      'conditional_optional',
      'init_default',
      'level_two',
      'levels',
      'numeric',
      'plain_getter',
      'proper_optional',
      'undefined_union',
    ]);
  });
});
