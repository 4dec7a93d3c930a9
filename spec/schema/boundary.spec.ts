/**
 * Two places where the schema and class-validator parted (fixture spec/schema/fixtures/boundary): a nested DTO without
 * @ValidateNested() (class-validator never checked its members, while the generator said its
 * decorator-only checks ran in the decoder), and @IsDefined() on a type that admits null (the
 * schema's free value admitted null and the decoder dropped class-validator's refusal).
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { dtoInput } from '../../lib/dto';
import { nestedWithoutValidation, notNull } from '../../lib/dto/messages';
import { ToolError } from '../../lib/protocol';
import { decoderRefusal, generated } from './verdicts';
import {
  AllowUnknown,
  Checked,
  DefinedItems,
  DefinedNullable,
  DefinedUnknown,
  InstanceOnly,
  OptionalUnknown,
  Unchecked,
  UncheckedList,
  Untyped,
} from './fixtures/boundary/boundary.tools';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'boundary', 'tsconfig.json') });
});

const { schemaOf, errorsOf, warningsOf, missing, verdicts: verdictsOf } = generated(() => result);
const verdicts = (name: string, dto: new () => object, json: string) => verdictsOf(name, dto, { json });

/** The decoder's refusal of a null at `path`: isDefined, "must not be null". */
const notNullAt = (path: (string | number)[]) => ({
  code: 'ERR_INVALID_INVOCATION',
  issues: [{ code: 'dto', path, constraint: 'isDefined', message: notNull() }],
});

/** The ERR_INVALID_TOOL message dtoInput throws at bind, or 'bound'. */
function bindError(dto: new () => object): string {
  try {
    dtoInput(dto);
    return 'bound';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_TOOL');
    return (e as ToolError).message;
  }
}

describe('a nested DTO member needs @ValidateNested()', () => {
  it.each([
    ['unchecked', 'Unchecked.label', 13],
    ['unchecked_list', 'UncheckedList.labels', 17],
    ['instance_only', 'InstanceOnly.label', 21],
    ['untyped', 'Untyped.label', 25],
  ])(
    '%s: generation fails naming %s (Label.name was reported as "checked by the decoder only")',
    (tool, member, line) => {
      expect(errorsOf(tool)).toEqual([`${member}: nested_unchecked @ValidateNested`]);
      expect(result.errors.find((e) => e.tool === tool)?.line).toBe(line);
      expect(missing(tool)).toBe(true);
    },
  );

  it.each([
    [Unchecked, 'label', false],
    [UncheckedList, 'labels', true],
    [InstanceOnly, 'label', false],
    [Untyped, 'label', false],
  ])('dtoInput refuses %p at bind with ERR_INVALID_TOOL naming the member', (dto, member, array) => {
    // Before: bound, and with the manifest's schema it accepted {"label":{"name":"ab1"}} (@IsAlpha never ran).
    expect(bindError(dto)).toBe(nestedWithoutValidation(dto.name, member, 'Label', array).message);
  });

  it('with @ValidateNested() the decoder-only check the generator reports does run in the decoder', () => {
    expect(errorsOf('checked')).toEqual([]);
    expect(warningsOf('checked')).toEqual(['Label.name: decoder_only @IsAlpha']);
    expect(verdicts('checked', Checked, '{"label":{"name":"ab1"}}')).toEqual({ schema: true, decoder: false });
    expect(verdicts('checked', Checked, '{"label":{"name":"ab"},"more":[{"name":"c2"}]}')).toEqual({
      schema: true,
      decoder: false,
    });
    expect(verdicts('checked', Checked, '{"label":{"name":"ab"},"more":[{"name":"cd"}]}')).toEqual({
      schema: true,
      decoder: true,
    });
  });
});

describe('@IsDefined() refuses null in the schema and the decoder', () => {
  it('@IsDefined() value!: unknown: null refused by both (it was accepted by both); any other value accepted', () => {
    expect((schemaOf('defined_unknown')['properties'] as Record<string, unknown>)['value']).toEqual({
      not: { type: 'null' },
      $ref: '#/$defs/scope-tool.free-value',
    });
    expect(verdicts('defined_unknown', DefinedUnknown, '{"value":null}')).toEqual({ schema: false, decoder: false });
    for (const v of ['0', '""', 'false', '{}', '[null]', '{"a":null}']) {
      expect([v, verdicts('defined_unknown', DefinedUnknown, `{"value":${v}}`)]).toEqual([
        v,
        { schema: true, decoder: true },
      ]);
    }
    expect(decoderRefusal(DefinedUnknown, '{"value":null}')).toEqual(notNullAt(['value']));
    expect((dtoInput(DefinedUnknown).inputSchema['properties'] as Record<string, unknown>)['value']).toEqual({
      not: { type: 'null' },
    });
  });

  it('@IsDefined() on T | null: the member is no longer nullable', () => {
    expect((schemaOf('defined_nullable')['properties'] as Record<string, unknown>)['note']).toEqual({ type: 'string' });
    expect(verdicts('defined_nullable', DefinedNullable, '{"note":null}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('defined_nullable', DefinedNullable, '{"note":"n"}')).toEqual({ schema: true, decoder: true });
  });

  it('@IsDefined({ each: true }) on unknown[]: null items refused by both', () => {
    expect(verdicts('defined_items', DefinedItems, '{"values":[1,null]}')).toEqual({ schema: false, decoder: false });
    expect(verdicts('defined_items', DefinedItems, '{"values":[1,{}]}')).toEqual({ schema: true, decoder: true });
    expect(decoderRefusal(DefinedItems, '{"values":[1,null]}')).toEqual(notNullAt(['values', 1]));
  });

  it('@IsOptional() value?: unknown and @Allow() value!: unknown still take null (class-validator skips or checks nothing)', () => {
    expect(verdicts('optional_unknown', OptionalUnknown, '{"value":null}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('optional_unknown', OptionalUnknown, '{}')).toEqual({ schema: true, decoder: true });
    expect(verdicts('allow_unknown', AllowUnknown, '{"value":null}')).toEqual({ schema: true, decoder: true });
  });
});
