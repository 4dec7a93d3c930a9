/**
 * acceptsNull: whether a schema accepts null decides whether strict export makes an optional member
 * nullable and whether the model's null is restored to "absent" (spec/providers/strict.spec.ts).
 * Every keyword that can refuse null counts (a typed enum holding null, `not: { type: "null" }`).
 */
import type { JsonObject } from '../../lib/protocol';
import { acceptsNull } from '../../lib/providers/schema-keywords';

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
