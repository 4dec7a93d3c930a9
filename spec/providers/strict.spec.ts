import { ToolError } from '../../lib/protocol';
import type { Definition, JsonObject } from '../../lib/protocol';
import {
  exportOpenAIChatTools,
  exportOpenAIResponsesTools,
  restoreOptionalMembers,
  strictInputSchema,
} from '../../lib/providers';

function def(inputSchema: JsonObject, name = 'tool_x'): Definition {
  return { name, inputSchema };
}

function strictError(inputSchema: JsonObject): string {
  try {
    strictInputSchema(def(inputSchema), 'openAIChatTools');
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_DEFINITION');
    return (e as ToolError).message;
  }
  throw new Error('strict export accepted the schema');
}

describe('strictInputSchema', () => {
  it('makes every property required, closes every object and exports optional ones as nullable', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'city' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1 },
        where: { type: 'object', properties: { lat: { type: 'number' }, note: { type: 'string' } }, required: ['lat'] },
      },
      required: ['location'],
    };
    expect(strictInputSchema(def(schema)).schema).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'city' },
        unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
        days: { type: ['integer', 'null'], minimum: 1 },
        where: {
          anyOf: [
            {
              type: 'object',
              properties: { lat: { type: 'number' }, note: { type: ['string', 'null'] } },
              required: ['lat', 'note'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
      },
      required: ['location', 'unit', 'days', 'where'],
      additionalProperties: false,
    });
  });

  it('leaves a property that already accepts null as it is (its null is a value, not absence)', () => {
    const schema: JsonObject = { type: 'object', properties: { note: { type: ['string', 'null'] } } };
    expect(strictInputSchema(def(schema)).schema.properties).toEqual({ note: { type: ['string', 'null'] } });
  });

  it('wraps a referenced optional member in anyOf with null and keeps its description outside', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { tag: { $ref: '#/$defs/Tag', description: 'one tag' } },
      $defs: { Tag: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } },
    };
    const strict = strictInputSchema(def(schema)).schema;
    expect(strict.properties).toEqual({
      tag: { description: 'one tag', anyOf: [{ $ref: '#/$defs/Tag' }, { type: 'null' }] },
    });
    expect(strict.$defs).toEqual({
      Tag: {
        type: 'object',
        properties: { label: { type: 'string' } },
        required: ['label'],
        additionalProperties: false,
      },
    });
  });

  it('removes keywords strict mode refuses that only narrow, and reports each with its pointer', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', format: 'iri' }, uniqueItems: true } },
      required: ['tags'],
      additionalProperties: false,
    };
    const { schema: strict, removed } = strictInputSchema(def(schema));
    expect(strict.properties).toEqual({ tags: { type: 'array', items: { type: 'string' } } });
    expect(removed).toEqual([
      { pointer: '/properties/tags/items', keyword: 'format' },
      { pointer: '/properties/tags', keyword: 'uniqueItems' },
    ]);
  });

  it('does not change the definition it exports', () => {
    const schema: JsonObject = { type: 'object', properties: { a: { type: 'string' } } };
    const before = JSON.stringify(schema);
    strictInputSchema(def(schema));
    expect(JSON.stringify(schema)).toBe(before);
  });

  it.each([
    [
      { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } },
      '/properties/m: keyword "additionalProperties"',
    ],
    [
      { type: 'object', properties: { m: { type: 'object' } } },
      '/properties/m: keyword "properties": an object with no declared members',
    ],
    [{ type: 'object', properties: { v: {} } }, '/properties/v: keyword "type": this schema accepts any JSON value'],
    [
      { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
      '/properties/v: keyword "oneOf": strict mode does not support oneOf; use anyOf',
    ],
    [{ type: 'object', allOf: [{ properties: { a: { type: 'string' } } }] }, '(root): keyword "allOf"'],
    [
      {
        type: 'object',
        properties: { t: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } } },
      },
      '/properties/t: keyword "prefixItems"',
    ],
    [
      { type: 'object', properties: { t: { type: 'array' } } },
      '/properties/t: keyword "items": strict mode needs an items schema',
    ],
    [{ type: 'object', patternProperties: { '^x-': { type: 'string' } } }, '(root): keyword "patternProperties"'],
    [
      {
        type: 'object',
        properties: { v: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }] } },
        required: ['v'],
      },
      '/properties/v/anyOf/0/properties/a: keyword "required": an optional member inside an anyOf branch',
    ],
  ])('refuses a schema strict mode would misread, naming the tool, pointer and keyword (%#)', (schema, expected) => {
    const message = strictError(schema as JsonObject);
    expect(message.startsWith('tool: invalid definition: openAIChatTools: tool "tool_x": ')).toBe(true);
    expect(message).toContain(expected);
  });

  it('refuses a union branch that reaches an optional member through a reference', () => {
    const message = strictError({
      type: 'object',
      properties: { v: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } },
      required: ['v'],
      $defs: { A: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    // The pointer and keyword of the branch, the reference followed, and the optional member.
    expect(message).toContain('/properties/v/anyOf/0: keyword "$ref"');
    expect(message).toContain('"#/$defs/A"');
    expect(message).toContain('member "a"');
  });
});

describe('strict exports to OpenAI', () => {
  const weather: Definition = {
    name: 'get_weather',
    description: 'Weather',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1, not: { const: '' } } },
      required: ['city'],
    },
  };

  it('marks Chat Completions functions strict and reports removed keywords', () => {
    const { tools, notes } = exportOpenAIChatTools([weather], { strict: true });
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string', minLength: 1 } },
            required: ['city'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
    expect(notes).toEqual([
      {
        provider: 'openai-chat',
        tool: 'get_weather',
        pointer: '/properties/city',
        keyword: 'not',
        action: 'removed',
        message: expect.stringMatching(/^tool "get_weather": .*"not"/),
      },
    ]);
  });

  it('marks Responses functions strict: true, and strict: false explicitly otherwise', () => {
    expect(exportOpenAIResponsesTools([weather], { strict: true }).tools[0].strict).toBe(true);
    const loose = exportOpenAIResponsesTools([weather]);
    expect(loose.tools[0]).toEqual({
      type: 'function',
      name: 'get_weather',
      description: 'Weather',
      parameters: weather.inputSchema,
      strict: false,
    });
    expect(loose.notes).toEqual([]);
  });

  it('reports nothing and sends no strict member for a non-strict Chat export', () => {
    const { tools, notes } = exportOpenAIChatTools([weather]);
    expect('strict' in tools[0].function).toBe(false);
    expect(notes).toEqual([]);
  });
});

// Whether a member accepts null is acceptsNull's verdict (spec/providers/schema-keywords.spec.ts); a
// `required` that only a `$ref`'s sibling states is reported as removed rather than dropped silently.
describe('strict export and restore with null-refusing keywords', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      size: { type: 'string', enum: ['s', null] },
      code: { not: { type: 'null' }, type: ['string', 'null'] },
    },
    additionalProperties: false,
  };

  it('exports an optional member whose enum holds null but whose type refuses it as nullable, and restores its null to absent', () => {
    const { schema: strict } = strictInputSchema(def(schema));
    expect((strict.properties as Record<string, JsonObject>)['size']).toEqual({
      type: ['string', 'null'],
      enum: ['s', null],
    });
    // `not` is removed (reported); the member was optional and refused null, so null now means absent.
    expect((strict.properties as Record<string, JsonObject>)['code']).toEqual({
      anyOf: [{ type: ['string', 'null'] }, { type: 'null' }],
    });
    expect(JSON.parse(restoreOptionalMembers(def(schema), '{"size":null,"code":null}'))).toEqual({});
  });

  it('reports a required that only sits next to a $ref as removed', () => {
    const withRef: JsonObject = {
      type: 'object',
      properties: { where: { $ref: '#/$defs/Place', required: ['name'] } },
      required: ['where'],
      additionalProperties: false,
      $defs: { Place: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
    };
    expect(strictInputSchema(def(withRef)).removed).toContainEqual({
      pointer: '/properties/where',
      keyword: 'required',
    });
  });
});
