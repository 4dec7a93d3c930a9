/**
 * Shapes where the emitted schema accepted an argument the decoder refused. Each test carries the
 * failing argument and checks that schema and decoder now give one verdict (or that generation
 * refuses the shape with the fix). The zoo (spec/schema/zoo/contract.zoo.ts) keeps the property
 * tests on the same shapes.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import {
  compileSchemaValue,
  ToolError,
  type AdmissionIssue,
  type JsonObject,
  type JsonValue,
} from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';
import { CONSTRAINT_TEXT } from '../../lib/dto/messages';
import { Bounds, Decimals, Free, Moment, NullInts, TwoNots } from './fixtures/contract/contract.tools';
import { reported, located } from './verdicts';

let result: GenerationResult;
const warned: unknown[][] = [];
beforeAll(() => {
  const spy = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args));
  try {
    result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'contract', 'tsconfig.json') });
  } finally {
    spy.mockRestore();
  }
});

function schemaOf(name: string): JsonObject {
  const tool = result.manifest.tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`tool ${name} not generated`);
  return tool.definition.input_schema;
}

/** The schema's and the decoder's verdicts on one JSON text, and the decoder's refusal code and issues. */
function verdicts(
  name: string,
  dto: new () => object,
  json: string,
): { schema: boolean; decoder: boolean; code?: string; issues: readonly AdmissionIssue[] } {
  const schema = schemaOf(name);
  const value = JSON.parse(json) as JsonValue;
  const schemaOk = compileSchemaValue(schema).validate(value).length === 0;
  try {
    dtoInput(dto, { inputSchema: schema }).decode(value);
    return { schema: schemaOk, decoder: true, issues: [] };
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).message).not.toMatch(/validator or transformer threw/);
    return { schema: schemaOk, decoder: false, code: (e as ToolError).code, issues: (e as ToolError).issues };
  }
}

describe('schema and decoder agree', () => {
  it('refuses a matrix of DTOs (Item[][]) with the row-DTO fix, at the member', () => {
    expect(result.errors.map(located)).toContainEqual({
      tool: 'matrix',
      reported: 'Matrix.items: array_of_arrays @ValidateNested',
      file: 'contract.tools.ts',
      line: 13,
    });
  });

  it('refuses matrices of numbers and Dates under @Type, saying to remove @Type or to use a row DTO', () => {
    expect(result.errors.filter((e) => e.tool === 'grids').map(reported)).toEqual([
      'Grids.grid: array_of_arrays @Type',
      'Grids.days: array_of_arrays @Type',
    ]);
  });

  it('refuses every member without a class-validator decorator (@Type alone does not count), naming DTO.member and the fix', () => {
    expect(result.errors.filter((e) => e.tool === 'undecorated').map(reported)).toEqual([
      'Undecorated.count: no_validator',
      'Undecorated.mode: no_validator',
    ]);
  });

  it('reports exactly those errors; the other tools generate', () => {
    expect(result.errors.map((e) => e.tool)).toEqual(['matrix', 'grids', 'grids', 'undecorated', 'undecorated']);
    expect(result.manifest.tools.map((t) => t.name)).toEqual([
      'bounds',
      'decimals',
      'free',
      'moment',
      'null_ints',
      'sizes',
      'two_nots',
    ]);
  });

  it('a bound said twice keeps the tighter one, two divisors their least common multiple (the last decorator used to win)', () => {
    expect(schemaOf('bounds')['properties']).toEqual({
      n: { minimum: 5, type: 'integer', maximum: 8 },
      s: { type: 'string', minLength: 2, maxLength: 5 },
      step: { type: 'integer', multipleOf: 12 },
    });
    // Before: @Min(3) replaced the JSDoc @minimum 5 (both sides took 4), and @Max(10) replaced @Max(8) (the schema took 9).
    expect(verdicts('bounds', Bounds, '{"n":4,"s":"ab","step":12}')).toMatchObject({ schema: false, decoder: false });
    expect(verdicts('bounds', Bounds, '{"n":9,"s":"ab","step":12}')).toMatchObject({ schema: false, decoder: false });
    expect(verdicts('bounds', Bounds, '{"n":6,"s":"abcdef","step":12}')).toMatchObject({
      schema: false,
      decoder: false,
    });
    expect(verdicts('bounds', Bounds, '{"n":8,"s":"abcde","step":24}')).toMatchObject({ schema: true, decoder: true });
    expect(verdicts('bounds', Bounds, '{"n":8,"s":"abcde","step":6}')).toMatchObject({ schema: false, decoder: false });
  });

  it('lists each bound a decorator states and the schema states tighter in mergedBounds (lib/dto/drift.ts skips them)', () => {
    // @Min(3) under the JSDoc @minimum 5, @Max(10) beside @Max(8), @Length(2, 10) beside @MaxLength(5), 4 and 6 as 12.
    const bounds = result.manifest.tools.find((t) => t.name === 'bounds');
    expect(bounds?.mergedBounds).toEqual([
      'Bounds.n.maximum',
      'Bounds.n.minimum',
      'Bounds.s.maxLength',
      'Bounds.step.multipleOf',
    ]);
    // A tool where every decorator's bound is the schema's has none.
    expect(result.manifest.tools.filter((t) => t.mergedBounds !== undefined).map((t) => t.name)).toEqual(['bounds']);
  });

  it("@IsNotIn and @NotEquals on one member: both hold (the second used to overwrite the first's not)", () => {
    expect((schemaOf('two_nots')['properties'] as Record<string, JsonObject>)['label']).toEqual({
      type: 'string',
      not: { anyOf: [{ enum: ['blocked'] }, { const: 'none' }] },
    });
    expect(verdicts('two_nots', TwoNots, '{"label":"blocked"}')).toMatchObject({ schema: false, decoder: false });
    expect(verdicts('two_nots', TwoNots, '{"label":"none"}')).toMatchObject({ schema: false, decoder: false });
    expect(verdicts('two_nots', TwoNots, '{"label":"open"}')).toMatchObject({ schema: true, decoder: true });
  });

  it('keeps the written order of literal unions (typescript-json-schema sorts them), and prints no initializer notice', () => {
    expect(schemaOf('sizes')['properties']).toEqual({
      size: { enum: ['small', 'medium', 'large'], type: 'string' },
      moods: { type: 'array', items: { enum: ['sad', 'happy', 'angry'], type: 'string' } },
      sort: { type: 'string', enum: ['newest', 'oldest'], default: 'oldest' },
    });
    expect(warned).toEqual([]);
  });

  it('(number | null)[] with @IsInt({ each: true }): items are integers only, [1, null] refused by both', () => {
    const props = schemaOf('null_ints')['properties'] as Record<string, JsonObject>;
    expect(props['values']).toEqual({ type: 'array', items: { type: 'integer' } });
    expect((props['things'] as { items: JsonObject }).items).not.toHaveProperty('anyOf');
    expect(verdicts('null_ints', NullInts, '{"values":[1,null],"things":[]}')).toMatchObject({
      schema: false,
      decoder: false,
    });
    expect(verdicts('null_ints', NullInts, '{"values":[1],"things":[null]}')).toMatchObject({
      schema: false,
      decoder: false,
    });
    expect(verdicts('null_ints', NullInts, '{"values":[1,2],"things":[{"name":"a"}]}')).toMatchObject({
      schema: true,
      decoder: true,
    });
  });

  it('a Date member refuses a leap second (a Date cannot hold it) and the separators and offsets a Date cannot parse', () => {
    for (const at of [
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:60.25Z',
      '2024-05-01\t10:00:00Z',
      '2024-05-01T10:00:00+0100',
      '2024-05-01T10:00:00+01',
    ]) {
      expect({ at, ...verdicts('moment', Moment, JSON.stringify({ at })) }).toMatchObject({
        at,
        schema: false,
        decoder: false,
      });
    }
    for (const at of ['2016-12-31T23:59:59.999Z', '2024-05-01 10:00:00z', '2024-05-01t10:00:00+05:30']) {
      expect({ at, ...verdicts('moment', Moment, JSON.stringify({ at })) }).toMatchObject({
        at,
        schema: true,
        decoder: true,
      });
    }
  });

  it("@IsRFC3339 strings: the schema states isRFC3339's shape, so a tab separator or an offset without colon is refused by both", () => {
    const json = (sentAt: string): string => JSON.stringify({ at: '2024-05-01T10:00:00Z', sentAt });
    for (const bad of ['2024-05-01\t10:00:00Z', '2024-05-01T10:00:00+01', '2024-05-01T10:00:00+0100']) {
      expect({ bad, ...verdicts('moment', Moment, json(bad)) }).toMatchObject({ bad, schema: false, decoder: false });
    }
    for (const good of ['2016-12-31T23:59:60Z', '2024-05-01 10:00:00.5z', '2024-05-01T10:00:00-23:59']) {
      expect({ good, ...verdicts('moment', Moment, json(good)) }).toMatchObject({ good, schema: true, decoder: true });
    }
  });

  it('Records and free-form values refuse __proto__ / constructor / prototype at any depth, in the schema too', () => {
    const props = schemaOf('free')['properties'] as Record<string, JsonObject>;
    expect(props['tags']).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
      propertyNames: { not: { enum: ['__proto__', 'constructor', 'prototype'] } },
    });
    // A nullable Record keeps its values' schema (it used to close to additionalProperties: false, taking only {}).
    expect(props['counts']).toEqual({
      anyOf: [
        {
          type: 'object',
          additionalProperties: { type: 'number' },
          propertyNames: { not: { enum: ['__proto__', 'constructor', 'prototype'] } },
        },
        { type: 'null' },
      ],
    });
    expect(verdicts('free', Free, '{"tags":{},"extra":{},"counts":{"a":1}}')).toMatchObject({
      schema: true,
      decoder: true,
    });
    expect(verdicts('free', Free, '{"tags":{},"extra":{},"counts":{"prototype":1}}')).toMatchObject({
      schema: false,
      decoder: false,
    });
    expect(schemaOf('free')['$defs']).toEqual({
      'scope-tool.free-value': {
        propertyNames: { not: { enum: ['__proto__', 'constructor', 'prototype'] } },
        additionalProperties: { $ref: '#/$defs/scope-tool.free-value' },
        items: { $ref: '#/$defs/scope-tool.free-value' },
      },
    });
    for (const json of [
      '{"tags":{"constructor":"x"},"extra":{}}',
      '{"tags":{"__proto__":"x"},"extra":{}}',
      '{"tags":{},"extra":{"prototype":1}}',
      '{"tags":{},"extra":{"a":[{"b":{"constructor":{}}}]}}',
    ]) {
      expect({ json, ...verdicts('free', Free, json) }).toMatchObject({ json, schema: false, decoder: false });
    }
    expect(verdicts('free', Free, '{"tags":{"toString":"x"},"extra":{"a":[{"b":{"c":null}}]}}')).toMatchObject({
      schema: true,
      decoder: true,
    });
  });

  it('@IsNumber({ maxDecimalPlaces }) stays decoder-only (warned), and the decoder counts exponent forms instead of crashing', () => {
    expect(result.warnings.map(reported)).toEqual(['Decimals.amount: decoder_only @IsNumber']);
    const refused = verdicts('decimals', Decimals, '{"amount":1e-7}');
    expect(refused).toMatchObject({ schema: true, decoder: false, code: 'ERR_INVALID_INVOCATION' });
    expect(refused.issues).toEqual([
      { code: 'dto', path: ['amount'], constraint: 'isNumber', message: CONSTRAINT_TEXT.maxDecimalPlaces },
    ]);
    expect(verdicts('decimals', Decimals, '{"amount":0.07}')).toMatchObject({ decoder: true });
    expect(verdicts('decimals', Decimals, '{"amount":1e21}')).toMatchObject({ decoder: true });
  });
});
