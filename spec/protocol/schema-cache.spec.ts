/**
 * The compiled-validator cache is keyed on the canonical schema without pure annotations:
 * schemas that differ only in annotations share a validator and validate identically, and nothing
 * else is ever shared.
 */
import {
  FuncTool,
  ToolError,
  bind,
  hasErrorCode,
  canonicalJson,
  compileSchemaValue,
  type JsonObject,
  type JsonValue,
} from '../../lib/protocol';
import { validationKey } from '../../lib/protocol/schema';
import { thrownBy } from './helpers';

const keyOf = (schema: JsonValue): string => validationKey(schema, canonicalJson(schema));

function note(annotations: Record<string, JsonValue>): JsonObject {
  return {
    type: 'object',
    ...annotations,
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 20, ...annotations },
      tags: { type: 'array', items: { type: 'string', ...annotations }, maxItems: 2, ...annotations },
      when: { type: 'string', format: 'date', ...annotations },
      pick: {
        oneOf: [
          { const: 1, ...annotations },
          { type: 'string', ...annotations },
        ],
      },
    },
    required: ['title'],
    additionalProperties: false,
  } as JsonObject;
}

const plain = note({});
const annotated = note({
  title: 'A title',
  description: 'Says what it is.',
  $comment: 'for maintainers',
  examples: [{ title: 'x' }, 'y'],
  default: { title: 'default' },
  deprecated: true,
  readOnly: false,
  writeOnly: false,
});
const instances: JsonValue[] = [
  { title: 'ok' },
  { title: '' },
  { title: 'ok', tags: ['a', 'b', 'c'] },
  { title: 'ok', tags: [1] },
  { title: 'ok', when: '2024-02-30' },
  { title: 'ok', when: '2024-02-03' },
  { title: 'ok', pick: 2 },
  { title: 'ok', pick: 'x' },
  { title: 'ok', extra: true },
  {},
  [],
];

describe('schemas that differ only in annotations', () => {
  it('share one cache key', () => {
    expect(keyOf(annotated)).toBe(keyOf(plain));
    expect(keyOf(note({ description: 'another text' }))).toBe(keyOf(plain));
  });

  it('validate identically, with identical issues, in either compile order', () => {
    for (const order of [
      [plain, annotated],
      [annotated, plain],
    ]) {
      const [first, second] = order.map((schema) =>
        compileSchemaValue(JSON.parse(JSON.stringify(schema)) as JsonValue),
      );
      for (const instance of instances) expect(second.validate(instance)).toEqual(first.validate(instance));
    }
    expect(compileSchemaValue(annotated).validate({ title: 'ok', tags: ['a', 'b', 'c'] })[0].message).toBe(
      '/tags: must NOT have more than 2 items',
    );
  });

  it('keep their own annotations in the compiled value and the contract definition', () => {
    const compiled = compileSchemaValue(annotated);
    expect(canonicalJson(compiled.value)).toBe(canonicalJson(annotated));
    const schema = note({ description: 'tool specific' });
    const binding = bind(FuncTool.create({ name: 't', inputSchema: schema, decode: (v: JsonValue) => v }, () => 1));
    expect(binding.contract.definition().inputSchema).toEqual(schema);
  });
});

describe('what is never shared', () => {
  it('keeps annotation-named members that are data or names, not annotations', () => {
    const a = { type: 'object', const: { description: 'a' } };
    const b = { type: 'object', const: { description: 'b' } };
    expect(keyOf(a)).not.toBe(keyOf(b));
    expect(compileSchemaValue(a).validate({ description: 'a' })).toEqual([]);
    expect(compileSchemaValue(b).validate({ description: 'a' })).toHaveLength(1);
    const named = (type: string) => ({
      type: 'object',
      properties: { description: { type } },
      required: ['description'],
    });
    expect(keyOf(named('string'))).not.toBe(keyOf(named('number')));
    expect(compileSchemaValue(named('string')).validate({ description: 1 })).toHaveLength(1);
    expect(compileSchemaValue(named('number')).validate({ description: 1 })).toEqual([]);
    const enums = (v: string) => ({ type: 'object', properties: { x: { enum: [{ title: v }] } } });
    expect(keyOf(enums('a'))).not.toBe(keyOf(enums('b')));
  });

  it('strips nothing from a schema with references, which may point into an annotation', () => {
    const viaDefault = (type: string) => ({
      type: 'object',
      properties: { a: { default: { type } }, b: { $ref: '#/properties/a/default' } },
    });
    expect(keyOf(viaDefault('string'))).toBe(canonicalJson(viaDefault('string')));
    expect(keyOf(viaDefault('string'))).not.toBe(keyOf(viaDefault('number')));
    expect(compileSchemaValue(viaDefault('string')).validate({ b: 1 })).toHaveLength(1);
    expect(compileSchemaValue(viaDefault('number')).validate({ b: 1 })).toEqual([]);
  });

  it('keeps an annotation that breaks the metaschema in the key, so it is still refused at bind', () => {
    compileSchemaValue(plain);
    for (const bad of [
      { description: 5 },
      { title: null },
      { examples: 'one' },
      { deprecated: 'yes' },
      { readOnly: 1 },
      { $comment: [] },
    ]) {
      const schema = note(bad as unknown as Record<string, JsonValue>);
      expect(keyOf(schema)).not.toBe(keyOf(plain));
      const err = thrownBy(() =>
        bind(FuncTool.create({ name: 't', inputSchema: schema, decode: (v: JsonValue) => v }, () => 1)),
      ) as ToolError;
      expect(err.code).toBe('ERR_INVALID_TOOL');
      expect(hasErrorCode(err, 'ERR_INVALID_SCHEMA')).toBe(true);
      expect(err.message).toContain('"t"');
    }
  });

  it('still refuses at bind what only the compiler catches, after an annotated twin compiled', () => {
    compileSchemaValue(note({ description: 'fine' }));
    const broken: JsonObject[] = [
      { ...note({ description: 'x' }), unknownKeyword: true },
      { type: 'object', description: 'x', properties: { a: { type: 'string', pattern: '(' } } },
      { type: 'object', description: 'x', properties: { a: { type: 'string', format: 'no-such-format' } } },
      { type: 'object', description: 'x', properties: { a: { $ref: '#/$defs/missing' } } },
    ];
    for (const schema of broken) {
      const err = thrownBy(() =>
        bind(FuncTool.create({ name: 't', inputSchema: schema, decode: (v: JsonValue) => v }, () => 1)),
      ) as ToolError;
      expect(err).toBeInstanceOf(ToolError);
      expect(err.code).toBe('ERR_INVALID_TOOL');
    }
  });

  it('keeps the dialect apart', () => {
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...plain };
    expect(keyOf(draft07)).not.toBe(keyOf(plain));
    const tuple = (description: string): JsonObject => ({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string', description }, { type: 'number' }] as JsonValue[],
      additionalItems: false,
    });
    expect(keyOf(tuple('a'))).toBe(keyOf(tuple('b')));
    expect(compileSchemaValue(tuple('b')).validate(['x', 1, 2])).toHaveLength(1);
    expect(compileSchemaValue(tuple('a')).validate(['x', 1])).toEqual([]);
  });
});
