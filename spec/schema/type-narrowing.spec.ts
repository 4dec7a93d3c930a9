/**
 * A type check narrows a union member's schema to its kind (lib/schema/value-rules.ts narrowTypes),
 * two patterns both hold (addPattern), and a string check reads the JSON types of an enum
 * (lib/schema/schema-types.ts jsonTypes): the schema and the decoder give the same verdicts.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { generated } from './verdicts';
import { EnumNotEmpty, LiteralsAndNumber, StringOrNumbers, TwoPatterns } from './fixtures/narrowing/narrowing.tools';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'narrowing', 'tsconfig.json') });
});
const { schemaOf, verdicts } = generated(() => result);
const both = (ok: boolean) => ({ schema: ok, decoder: ok });

describe('a type check on a union member', () => {
  it('keeps only the enum values of its kind (@IsString on a | b | 1)', () => {
    expect(schemaOf('literals_and_number')).toMatchObject({ properties: { code: { enum: ['a', 'b'] } } });
    expect(verdicts('literals_and_number', LiteralsAndNumber, { code: 'a' })).toEqual(both(true));
    expect(verdicts('literals_and_number', LiteralsAndNumber, { code: 1 })).toEqual(both(false));
  });

  it('drops the anyOf members of other kinds (@IsString on string | number[])', () => {
    expect(schemaOf('string_or_numbers')).toMatchObject({ properties: { value: { type: 'string' } } });
    expect(verdicts('string_or_numbers', StringOrNumbers, { value: 'x' })).toEqual(both(true));
    expect(verdicts('string_or_numbers', StringOrNumbers, { value: [1] })).toEqual(both(false));
  });
});

describe('string keywords beside other keywords', () => {
  it('a second pattern goes under allOf: both must match', () => {
    expect(schemaOf('two_patterns')).toMatchObject({
      properties: { word: { pattern: '^a', allOf: [{ pattern: 'z' }] } },
    });
    expect(verdicts('two_patterns', TwoPatterns, { word: 'abz' })).toEqual(both(true));
    expect(verdicts('two_patterns', TwoPatterns, { word: 'ab' })).toEqual(both(false));
    expect(verdicts('two_patterns', TwoPatterns, { word: 'za' })).toEqual(both(false));
  });

  it('@IsNotEmpty on a string enum member says minLength 1', () => {
    expect(schemaOf('enum_not_empty')).toMatchObject({
      properties: { size: { enum: ['small', 'large'], minLength: 1 } },
    });
    expect(verdicts('enum_not_empty', EnumNotEmpty, { size: 'small' })).toEqual(both(true));
  });
});
