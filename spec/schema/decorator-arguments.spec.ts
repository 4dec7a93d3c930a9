/**
 * Decorator uses the generator refuses or reports by their arguments and options (lib/schema/keywords.ts,
 * lib/schema/member-checks.ts, lib/schema/constraints.ts), by code and place; and the schema of the
 * argument forms it maps (several UUID versions, a divisor beside a fractional @multipleOf).
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { generated } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'arguments', 'tsconfig.json') });
});
const { schemaOf, errorsOf, warningsOf, missing } = generated(() => result);

describe('decorator arguments and options the schema cannot say', () => {
  it.each([
    ['each_on_scalar', 'EachOnScalar.name: each_needs_array @IsString'],
    ['groups', 'Groups.name: groups_option @IsString'],
    ['date_on_string', 'DateOnString.when: date_type_contradiction @IsDate'],
    ['expose_options', 'RenamedWithOptions.name: expose_options @Expose'],
    ['empty_number', 'EmptyNumber.count: empty_on_non_string @IsEmpty'],
    ['contains_not_literal', 'ContainsNotLiteral.tags: array_literal_needed @ArrayContains'],
    ['uuid_unknown_version', 'UuidUnknownVersion.id: uuid_version @IsUUID'],
  ])('%s fails generation: %s', (tool, issue) => {
    expect(errorsOf(tool)).toEqual([issue]);
    expect(missing(tool)).toBe(true);
  });

  it.each([
    ['own_decorator', 'OwnDecorator.slug: unknown_decorator @IsSlug'],
    ['unique_by_selector', 'UniqueBySelector.tags: decoder_only @ArrayUnique'],
    ['nullable_object', 'NullableObject.meta: decoder_only @IsNotEmptyObject'],
  ])('%s is generated with a warning: %s', (tool, issue) => {
    expect(warningsOf(tool)).toContain(issue);
    expect(missing(tool)).toBe(false);
  });
});

describe('argument forms the schema says', () => {
  it('@IsUUID with two versions: one pattern of either version', () => {
    const id = (schemaOf('uuid_versions') as { properties: { id: { pattern: string } } }).properties.id;
    const pattern = new RegExp(id.pattern, 'u');
    expect(pattern.test('123e4567-e89b-42d3-a456-426614174000')).toBe(true);
    expect(pattern.test('01890a5d-ac96-774b-bcce-b302099a8057')).toBe(true);
    expect(pattern.test('123e4567-e89b-12d3-a456-426614174000')).toBe(false);
  });

  it('@IsDivisibleBy(3) beside @multipleOf 0.5: both hold, the fractional one under allOf', () => {
    expect(schemaOf('fractional_divisor')).toMatchObject({
      properties: { step: { multipleOf: 3, allOf: [{ multipleOf: 0.5 }] } },
    });
  });
});
