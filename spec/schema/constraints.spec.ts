/**
 * Regressions of the constraint review (issue 7, DESIGN.md section 4 "One contract"): each finding
 * is a DTO in spec/schema/fixtures/constraints whose schema accepted an argument the decoder refused
 * (or the other way round), with no error and no warning. Each test now either checks both verdicts
 * on the failing argument, or that generation refuses the member, naming `Dto.member` and the fix.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { compileSchemaValue, type JsonObject, type JsonValue } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
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

describe("5. @IsIn / @IsEnum combine with the member's other checks", () => {
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
      'ListMismatch.tags: @IsIn checks the whole value, but the member is an array (string[]); add { each: true } to check every item',
      'ListMismatch.colors: @IsEnum checks the whole value, but the member is an array (Color[]); add { each: true } to check every item',
      'ListMismatch.s: @IsIn lists no value of the TypeScript type string (1, 2), so the member would accept nothing; list values of the type, or change the type',
      'ListMismatch.size: @IsIn lists "xl", which the TypeScript type Size does not hold; list only values of the type, or change the type',
      'ListMismatch.none: @IsIn shares no value with the values the member already allows ("a"), so it would accept nothing; keep one value list',
    ]);
  });
});

describe('16. @Equals', () => {
  it('refuses a value the TypeScript type cannot hold (the schema said { type: number, const: "x" }, accepting nothing)', () => {
    expect(errorsOf('equals_mismatch')).toEqual([
      'EqualsMismatch.n: @Equals("x") is not a value of the TypeScript type number, so the member would accept nothing; change the value or the type',
    ]);
  });
});

describe("6. a check for another JSON type than the member's", () => {
  it('fails generation, saying what to write (each: true, or the decorator for that type)', () => {
    expect(errorsOf('wrong_kind')).toEqual([
      'WrongKind.code: @Max checks numbers only, but the member is string: the decoder would refuse every value the schema accepts; ' +
        'for string lengths use @MinLength / @MaxLength instead, or declare the member as a number',
      'WrongKind.qty: @MaxLength checks strings only, but the member is number: the decoder would refuse every value the schema accepts; ' +
        'for numbers use @Min / @Max instead, or declare the member as a string',
      'WrongKind.slugs: @Matches checks strings, but the member is an array (string[]); add { each: true } to check every item',
      'WrongKind.name: @ArrayMaxSize checks arrays only, but the member is string: the decoder would refuse every value the schema accepts; ' +
        'for string lengths use @MinLength / @MaxLength instead, or declare the member as an array',
    ]);
  });

  it('on a union, narrows the schema to the type the check applies to (5 was accepted by the schema, refused by the decoder)', () => {
    expect(propsOf('union_kind')['id']).toEqual({ type: 'string', minLength: 2, maxLength: 4 });
    agree('union_kind', UnionKind, { id: 5 }, false);
    agree('union_kind', UnionKind, { id: 'ab' }, true);
    agree('union_kind', UnionKind, { id: 'abcde' }, false);
  });
});

describe('7. @Matches runs on RE2 in the schema and the decoder, with or without the u flag', () => {
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
      'NotRe2.backref: @Matches pattern "(a)\\\\1" uses a backreference (\\1, \\k<name>), which RE2 syntax lacks (patterns run on RE2, in ' +
        'linear time); rewrite the pattern without it; the input schema and the decoder both run @Matches on RE2',
      'NotRe2.lookahead: @Matches pattern "(?=x)x" uses lookaround ((?=, (?!, (?<=, (?<!), which RE2 syntax lacks (patterns run on RE2, ' +
        'in linear time); rewrite the pattern without it; the input schema and the decoder both run @Matches on RE2',
      'NotRe2.surrogates: @Matches pattern "^[^\\\\ud800-\\\\udfff]+$" escapes a lone surrogate (\\ud800), which no admitted string holds ' +
        '(admission refuses lone surrogates); write the character itself or its pair; the input schema and the decoder both run @Matches on RE2',
    ]);
  });

  it('fails generation for a JSDoc @pattern RE2 cannot run, naming the member', () => {
    const errors = errorsOf('tagged_not_re2');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^TaggedNotRe2\.tagged: the generated schema does not compile \(pattern "\^\(\?!a\)b" uses lookaround/,
    );
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

describe('9. @ValidateNested needs a DTO class', () => {
  it('refuses an interface-typed member (the decoder refused every value as "an unknown value") and a primitive', () => {
    expect(errorsOf('interface_nested')).toEqual([
      'InterfaceNested.addr: @ValidateNested() needs a DTO class member, but Addr is not a class (an interface or object type), so ' +
        'class-validator has no checks for it and refuses every value ("an unknown value was passed to the validate function") while the ' +
        'schema accepts it; declare Addr as a class with class-validator decorators and add @Type(() => Addr)',
      'InterfaceNested.name: @ValidateNested() needs a DTO class member, but string is not a DTO class, so the decoder refuses every value ' +
        'the schema accepts; remove @ValidateNested()',
    ]);
  });
});

describe('10. @Type must name the declared type', () => {
  it('refuses @Type to another type, saying what to write', () => {
    expect(errorsOf('type_mismatch')).toEqual([
      'TypeMismatch.v: @Type(() => Number) contradicts the TypeScript type unknown: the decoder would take only number values where the ' +
        'schema accepts the declared type; declare the member as number and remove @Type (a number member needs none)',
      'TypeMismatch.ids: @Type(() => String) contradicts the TypeScript type number[]: the decoder would take only string values as items ' +
        'where the schema accepts the declared type; remove @Type (number items need none)',
      'TypeMismatch.item: @Type(() => Other) contradicts the TypeScript type Item: the decoder would take only Other objects where the ' +
        'schema accepts the declared type; write @Type(() => Item)',
    ]);
  });
});

describe('11. each: true through a const', () => {
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
    expect(errorsOf('each_call')).toEqual([
      'EachCall.tags: @MaxLength takes validation options the generator cannot read (eachOptions()), so it cannot tell whether each: true ' +
        'applies; write the options inline ({ each: true }) or as a const object literal',
    ]);
  });
});

describe('13. decorator arguments JSON Schema cannot carry', () => {
  it('refuses a negative divisor and negative or fractional lengths and sizes (the manifest used to fail at run time with ERR_INVALID_SCHEMA)', () => {
    expect(errorsOf('bad_bounds')).toEqual([
      'BadBounds.n: @IsDivisibleBy(-5) cannot be said in JSON Schema (multipleOf must be a positive number); write @IsDivisibleBy(5), which validator.js reads the same',
      'BadBounds.s: @MaxLength bound -1 is not a whole number of characters (JSON Schema maxLength must be an integer of at least 0); write a whole number of at least 0',
      'BadBounds.t: @MinLength bound 1.5 is not a whole number of characters (JSON Schema minLength must be an integer of at least 0); write a whole number of at least 0',
      'BadBounds.a: @ArrayMaxSize bound -2 is not a whole number of items (JSON Schema maxItems must be an integer of at least 0); write a whole number of at least 0',
    ]);
  });
});

describe('14. class JSDoc tags, and every schema compiles before it is written', () => {
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
    expect(errorsOf('constraint_tag')).toEqual([
      'ConstraintTag: the class JSDoc tag @maxProperties would become the JSON Schema keyword "maxProperties" on the whole object, which the ' +
        'decoder does not check; remove the tag (put constraints on the members, with their decorators)',
    ]);
  });

  it('a schema that does not compile fails generation naming the member (an unknown JSDoc @format)', () => {
    expect(errorsOf('unknown_format')).toEqual([
      'UnknownFormat.tel: the generated schema does not compile (unknown format "phone" ignored in schema at path "#/properties/tel"); ' +
        'change the decorator arguments or JSDoc tags of that member so that they say a valid JSON Schema',
    ]);
  });

  it('every schema of the manifest compiles', () => {
    for (const tool of result.manifest.tools)
      expect(() => compileSchemaValue(tool.definition.input_schema)).not.toThrow();
  });
});

describe('8. unions with DTO classes', () => {
  it('refuses a union of DTOs or of a DTO and another type, with the fix', () => {
    expect(errorsOf('dto_union')).toEqual([
      'DtoUnion.method: the type Card | Bank is a union with the DTO classes Card, Bank: the decoder builds one class per member and refuses ' +
        'the other types, which the schema would accept; declare one DTO type per member (for example card?: Card, bank?: Bank)',
      'DtoUnion.where: the type string | Card is a union with the DTO class Card: the decoder builds one class per member and refuses the ' +
        'other types, which the schema would accept; declare one DTO type per member (for example card?: Card and a separate member for the other type)',
    ]);
  });

  it('refuses a class-transformer discriminator', () => {
    expect(errorsOf('discriminated')).toEqual([
      'Discriminated.method: @Type with a discriminator (or options the generator cannot read) is not supported: the schema cannot say which ' +
        'class a value becomes; declare one DTO type per member (one optional member per class)',
    ]);
  });
});

describe('15. generic DTOs', () => {
  it('refuses a generic input class (its items were { type: object, additionalProperties: false }, refusing everything)', () => {
    expect(errorsOf('generic')).toEqual([
      'Page: a generic class (Page<T>) cannot describe a tool input: decorator metadata erases T, so the decoder cannot check what the schema ' +
        'says about it; declare a non-generic DTO class that names its member types (for example class ItemPage { ' +
        '@ValidateNested({ each: true }) @Type(() => Item) items!: Item[] })',
    ]);
  });
});

describe('21. Date members take date-time strings only', () => {
  it('a date alone is refused by the generated schema, the decoder and the derived schema alike (the decoder and its message used to take it)', () => {
    agree('when', When, { at: '2024-05-01' }, false);
    agree('when', When, { at: '2024-05-01T10:00:00Z' }, true);
    const derived = dtoInput(When);
    expect(compileSchemaValue(derived.inputSchema).validate({ at: '2024-05-01' })).not.toEqual([]);
    expect(() => derived.decode({ at: '2024-05-01' })).toThrow(
      '/at: must be an RFC 3339 date-time string (2024-05-01T12:00:00Z), received another string',
    );
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
