/**
 * Issue 3 review, strict export: whether a member accepts null decides whether an optional member
 * is exported as nullable and whether the model's null is restored to "absent". Every keyword that
 * can refuse null counts (a typed enum holding null, `not: { type: "null" }`), and a `required` that
 * only a `$ref`'s sibling states is reported as removed rather than dropped silently.
 */
import type { Definition, JsonObject } from '../../lib/protocol';
import { restoreOptionalMembers, strictInputSchema } from '../../lib/providers';
import { acceptsNull } from '../../lib/providers/schema-keywords';

function def(inputSchema: JsonObject): Definition {
  return { name: 'tool_x', inputSchema };
}

describe('acceptsNull', () => {
  it.each([
    [{ type: 'string', enum: ['a', null] }, false],
    [{ enum: ['a', null] }, true],
    [{ type: ['string', 'null'], enum: ['a', null] }, true],
    [{ type: ['string', 'null'], enum: ['a'] }, false],
    [{ not: { type: 'null' } }, false],
    [{ not: { type: 'string' } }, true],
    [{ not: { not: { type: 'null' } } }, true],
    [{ const: null, type: 'string' }, false],
    [{}, true],
  ] as [JsonObject, boolean][])('%j accepts null: %s', (schema, expected) => {
    expect(acceptsNull(schema, schema)).toBe(expected);
  });
});

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
