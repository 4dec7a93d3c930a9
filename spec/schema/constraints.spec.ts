/**
 * Decorator constraints the schema and the decoder read differently (one contract: both must give
 * one verdict): each case is a DTO in spec/schema/fixtures/constraints whose schema accepted an
 * argument the decoder refused (or the other way round), with no error and no warning. Each test now either checks both verdicts
 * on the failing argument, or that generation refuses the member, naming `Dto.member` and the fix.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { compileSchemaValue, type JsonObject, type JsonValue } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
import { notDateTime } from '../../lib/dto/messages';
import { generated } from './verdicts';
import {
  EachConst,
  KeptChecks,
  LinearPatterns,
  NoUnicodeFlag,
  TwoLists,
  UnicodeFlag,
  UnionKind,
  UnitRuns,
  When,
} from './fixtures/constraints/constraints.tools';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'constraints', 'tsconfig.json') });
});

const { schemaOf, errorsOf, verdicts } = generated(() => result);

function propsOf(name: string): Record<string, JsonObject> {
  return schemaOf(name)['properties'] as Record<string, JsonObject>;
}

/** Both verdicts equal `accepted` (the argument is in the failure message). */
function agree(name: string, dto: new () => object, value: JsonValue, accepted: boolean): void {
  expect({ value, ...verdicts(name, dto, value) }).toEqual({ value, schema: accepted, decoder: accepted });
}

describe("@IsIn / @IsEnum combine with the member's other checks", () => {
  it('two @IsIn keep the values both allow (the last list used to win: "c" was accepted by the schema only)', () => {
    expect(propsOf('two_lists')['v']).toEqual({ type: 'string', enum: ['b'] });
    agree('two_lists', TwoLists, { v: 'c' }, false);
    agree('two_lists', TwoLists, { v: 'a' }, false);
    agree('two_lists', TwoLists, { v: 'b' }, true);
  });

  it('checks written before @IsIn / @IsEnum stay in the schema (they used to be erased)', () => {
    const props = propsOf('kept_checks');
    expect(props['role']).toEqual({ type: 'string', not: { const: 'admin' }, enum: ['admin', 'user'] });
    expect(props['code']).toEqual({ type: 'string', minLength: 1, enum: ['', 'a'] });
    expect(props['short']).toEqual({ type: 'string', maxLength: 3, enum: ['a', 'bbbb'] });
    expect(props['lower']).toEqual({ type: 'string', pattern: '^[a-z]$', enum: ['a', 'B'] });
    expect(props['notX']).toEqual({ type: 'string', not: { enum: ['x'] }, enum: ['x', 'y'] });
    expect(props['size']).toEqual({ type: 'string', enum: ['m', 'l'] });
    const ok = {
      role: 'user',
      code: 'a',
      short: 'a',
      lower: 'a',
      notX: 'y',
      size: 'm',
      tags: ['a'],
      maybe: null,
      orNull: null,
    };
    agree('kept_checks', KeptChecks, ok, true);
    for (const bad of [
      { role: 'admin' },
      { code: '' },
      { short: 'bbbb' },
      { lower: 'B' },
      { notX: 'x' },
      { size: 's' },
      { tags: ['c'] },
      { maybe: 'b' },
      { orNull: 'b' },
    ]) {
      agree('kept_checks', KeptChecks, { ...ok, ...bad }, false);
    }
  });

  it('the type comes from the TypeScript type: an each list constrains the items, a nullable member keeps null', () => {
    const props = propsOf('kept_checks');
    expect(props['tags']).toEqual({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } });
    expect(props['maybe']).toEqual({ type: ['null', 'string'], enum: ['a', null] });
    // A list may hold null (it used to fail generation as "needs an array literal of strings or numbers").
    expect(props['orNull']).toEqual({ type: ['null', 'string'], enum: ['a', null] });
  });

  it('refuses a list on an array member without each, values the type cannot hold, and lists with no common value', () => {
    expect(errorsOf('list_mismatch')).toEqual([
      'ListMismatch.tags: each_missing @IsIn',
      'ListMismatch.colors: each_missing @IsEnum',
      'ListMismatch.s: value_not_in_type @IsIn',
      'ListMismatch.size: value_not_in_type @IsIn',
      'ListMismatch.none: lists_disjoint @IsIn',
    ]);
  });
});

describe('@Equals', () => {
  it('refuses a value the TypeScript type cannot hold (the schema said { type: number, const: "x" }, accepting nothing)', () => {
    expect(errorsOf('equals_mismatch')).toEqual(['EqualsMismatch.n: value_not_in_type @Equals']);
  });
});

describe("a check for another JSON type than the member's", () => {
  it('fails generation, saying what to write (each: true, or the decorator for that type)', () => {
    expect(errorsOf('wrong_kind')).toEqual([
      'WrongKind.code: wrong_value_kind @Max',
      'WrongKind.qty: wrong_value_kind @MaxLength',
      'WrongKind.slugs: each_missing @Matches',
      'WrongKind.name: wrong_value_kind @ArrayMaxSize',
    ]);
  });

  it('on a union, narrows the schema to the type the check applies to (5 was accepted by the schema, refused by the decoder)', () => {
    expect(propsOf('union_kind')['id']).toEqual({ type: 'string', minLength: 2, maxLength: 4 });
    agree('union_kind', UnionKind, { id: 5 }, false);
    agree('union_kind', UnionKind, { id: 'ab' }, true);
    agree('union_kind', UnionKind, { id: 'abcde' }, false);
  });
});

describe('@Matches runs on RE2 in the schema and the decoder, with or without the u flag', () => {
  it('takes a pattern without u, and both read it by code point: an emoji is one character', () => {
    expect(errorsOf('no_unicode_flag')).toEqual([]);
    expect(propsOf('no_unicode_flag')).toEqual({
      dot: { type: 'string', pattern: '^.{1,3}$' },
      negated: { type: 'string', pattern: '^[^,]{2,}$' },
      string: { type: 'string', pattern: '^\\S$' },
      adjacent: { type: 'string', pattern: '^\\S+\\S+$' },
    });
    const ok = { dot: '😀😀😀', negated: '😀😀', string: '😀', adjacent: 'a😀' };
    agree('no_unicode_flag', NoUnicodeFlag, ok, true);
    for (const bad of [
      { dot: '😀😀😀😀' },
      { negated: '😀' },
      { string: '😀😀' },
      { adjacent: '😀' },
      { string: '\u00a0' },
    ]) {
      agree('no_unicode_flag', NoUnicodeFlag, { ...ok, ...bad }, false);
    }
  });

  it('fails generation for a pattern RE2 cannot run, naming the member, the pattern and the fix', () => {
    expect(errorsOf('not_re2')).toEqual([
      'NotRe2.backref: pattern_not_re2 @Matches',
      'NotRe2.lookahead: pattern_not_re2 @Matches',
      'NotRe2.surrogates: pattern_not_re2 @Matches',
    ]);
  });

  it('fails generation for a JSDoc @pattern RE2 cannot run, naming the member', () => {
    expect(errorsOf('tagged_not_re2')).toEqual(['TaggedNotRe2.tagged: schema_does_not_compile']);
  });

  it('takes ^([a-z0-9]+-?)+$, which backtracks exponentially on a RegExp, and both refuse the 42-byte input', () => {
    expect(errorsOf('linear_patterns')).toEqual([]);
    expect(propsOf('linear_patterns')).toEqual({ slug: { type: 'string', pattern: '^([a-z0-9]+-?)+$' } });
    agree('linear_patterns', LinearPatterns, { slug: 'abc-def-1' }, true);
    agree('linear_patterns', LinearPatterns, { slug: `${'a'.repeat(41)}!` }, false);
  });

  it('with the u flag (or an ASCII-only pattern) both count an emoji as one character', () => {
    expect(propsOf('unicode_flag')).toEqual({
      short: { type: 'string', pattern: '^.{1,3}$' },
      plain: { type: 'string', pattern: '^[\\w.-]{1,8}$' },
    });
    agree('unicode_flag', UnicodeFlag, { short: '😀😀', plain: 'a.b' }, true);
    agree('unicode_flag', UnicodeFlag, { short: '😀😀😀😀', plain: 'a.b' }, false);
    agree('unicode_flag', UnicodeFlag, { short: 'ab', plain: '😀' }, false);
  });

  it('accepts ., \\S, \\W, \\D and [^...] under an unbounded + or * without u: one or more code units is one or more code points', () => {
    expect(errorsOf('unit_runs')).toEqual([]);
    expect(propsOf('unit_runs')).toEqual({
      token: { type: 'string', pattern: '^[^\\s]+$' },
      item: { type: 'string', pattern: '^[^,]+$' },
      line: { type: 'string', pattern: '^.+$' },
      word: { type: 'string', pattern: '^\\S*$' },
      email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
      lazy: { type: 'string', pattern: '^(?:\\W+?|\\D*)x$' },
    });
    const ok = { token: '😀', item: 'a😀b', line: '😀😀', word: '', email: '😀@b😀.c', lazy: '😀x' };
    agree('unit_runs', UnitRuns, ok, true);
    agree('unit_runs', UnitRuns, { ...ok, word: 'a😀b' }, true);
    for (const bad of [
      { token: '😀 ' },
      { item: '😀,' },
      { line: '' },
      { word: ' 😀' },
      { email: '😀@b' },
      { lazy: 'a1x' },
    ]) {
      agree('unit_runs', UnitRuns, { ...ok, ...bad }, false);
    }
  });
});

describe('@ValidateNested needs a DTO class', () => {
  it('refuses an interface-typed member (the decoder refused every value as "an unknown value") and a primitive', () => {
    expect(errorsOf('interface_nested')).toEqual([
      'InterfaceNested.addr: nested_not_class @ValidateNested',
      'InterfaceNested.name: nested_not_class @ValidateNested',
    ]);
  });
});

describe('@Type must name the declared type', () => {
  it('refuses @Type to another type, saying what to write', () => {
    expect(errorsOf('type_mismatch')).toEqual([
      'TypeMismatch.v: type_target_mismatch @Type',
      'TypeMismatch.ids: type_target_mismatch @Type',
      'TypeMismatch.item: type_target_mismatch @Type',
    ]);
  });
});

describe('each: true through a const', () => {
  it('reads a const options object (and spreads of one): the bound applies to the items, not the array', () => {
    expect(propsOf('each_const')).toEqual({
      tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
      codes: { type: 'array', items: { type: 'string', minLength: 2 } },
    });
    agree('each_const', EachConst, { tags: ['abc', 'abc', 'abc', 'abc'], codes: ['ab'] }, true);
    agree('each_const', EachConst, { tags: ['abcd'], codes: ['ab'] }, false);
    agree('each_const', EachConst, { tags: [], codes: ['a'] }, false);
  });

  it('refuses options it cannot read', () => {
    expect(errorsOf('each_call')).toEqual(['EachCall.tags: unreadable_options @MaxLength']);
  });
});

describe('decorator arguments JSON Schema cannot carry', () => {
  it('refuses a negative divisor and negative or fractional lengths and sizes (the manifest used to fail at run time with ERR_INVALID_SCHEMA)', () => {
    expect(errorsOf('bad_bounds')).toEqual([
      'BadBounds.n: divisor_negative @IsDivisibleBy',
      'BadBounds.s: bound_not_count @MaxLength',
      'BadBounds.t: bound_not_count @MinLength',
      'BadBounds.a: bound_not_count @ArrayMaxSize',
    ]);
  });
});

describe('class JSDoc tags, and every schema compiles before it is written', () => {
  it('drops the keyword of a class @ignore tag (it was "ignore": "and", refused by strict mode)', () => {
    expect(schemaOf('ignored_tag')).toEqual({
      description: 'A note.',
      type: 'object',
      properties: { title: { type: 'string' } },
      additionalProperties: false,
      required: ['title'],
    });
  });

  it('refuses a class tag that would become a constraint the decoder does not check', () => {
    expect(errorsOf('constraint_tag')).toEqual(['ConstraintTag: class_tag_keyword']);
  });

  it('a schema that does not compile fails generation naming the member (an unknown JSDoc @format)', () => {
    expect(errorsOf('unknown_format')).toEqual(['UnknownFormat.tel: schema_does_not_compile']);
  });

  it('every schema of the manifest compiles', () => {
    for (const tool of result.manifest.tools)
      expect(() => compileSchemaValue(tool.definition.input_schema)).not.toThrow();
  });
});

describe('unions with DTO classes', () => {
  it('refuses a union of DTOs or of a DTO and another type, with the fix', () => {
    expect(errorsOf('dto_union')).toEqual(['DtoUnion.method: dto_union', 'DtoUnion.where: dto_union']);
  });

  it('refuses a class-transformer discriminator', () => {
    expect(errorsOf('discriminated')).toEqual(['Discriminated.method: type_discriminator @Type']);
  });
});

describe('generic DTOs', () => {
  it('refuses a generic input class (its items were { type: object, additionalProperties: false }, refusing everything)', () => {
    expect(errorsOf('generic')).toEqual(['Page: generic_class']);
  });
});

describe('Date members take date-time strings only', () => {
  it('a date alone is refused by the generated schema, the decoder and the derived schema alike (the decoder and its message used to take it)', () => {
    agree('when', When, { at: '2024-05-01' }, false);
    agree('when', When, { at: '2024-05-01T10:00:00Z' }, true);
    const derived = dtoInput(When);
    expect(compileSchemaValue(derived.inputSchema).validate({ at: '2024-05-01' })).not.toEqual([]);
    let refusal: unknown;
    try {
      derived.decode({ at: '2024-05-01' });
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toMatchObject({
      code: 'ERR_INVALID_INVOCATION',
      issues: [{ code: 'dto', path: ['at'], message: notDateTime('another string') }],
    });
    expect(derived.decode({ at: '2024-05-01T10:00:00Z' })).toBeInstanceOf(When);
  });
});

describe('the fixture as a whole', () => {
  it('generates exactly the tools without a refused member, and no warnings', () => {
    expect(result.manifest.tools.map((t) => t.name)).toEqual([
      'each_const',
      'ignored_tag',
      'kept_checks',
      'linear_patterns',
      'no_unicode_flag',
      'two_lists',
      'unicode_flag',
      'union_kind',
      'unit_runs',
      'when',
    ]);
    expect(result.warnings).toEqual([]);
  });
});
