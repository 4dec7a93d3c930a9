/**
 * elicitationForm: an InputRequest's response schema mapped onto MCP's restricted
 * `requestedSchema` (flat object of primitives), refusals naming the place, and answers back.
 */
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import { elicitationForm, elicitationMessage } from '../../lib/mcp';
import { FORM_RULE, fieldTypeNotInForm, formRefused, keywordNotInForm } from '../../lib/mcp/messages';
import type { JsonValue } from '../../lib/protocol';

const valid = (requestedSchema: unknown) =>
  ElicitRequestFormParamsSchema.safeParse({ message: 'm', requestedSchema }).success;

describe('elicitationForm', () => {
  it('maps a flat object schema, keeping what a form shows and dropping what it cannot', () => {
    const form = elicitationForm({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Confirm',
      properties: {
        approve: { type: 'boolean', default: false, description: 'Go ahead?' },
        email: { type: 'string', format: 'email', maxLength: 80 },
        code: { type: 'string', pattern: '^[A-Z]{3}$', format: 'ipv4' },
        seats: { type: 'integer', minimum: 1, maximum: 9, multipleOf: 1 },
        size: { enum: ['s', 'm', 'l'] },
        tier: {
          type: 'string',
          oneOf: [
            { const: 'g', title: 'Gold' },
            { const: 's', title: 'Silver' },
          ],
        },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
      },
      required: ['approve'],
      additionalProperties: false,
    });
    expect(form.requestedSchema).toEqual({
      type: 'object',
      properties: {
        approve: { type: 'boolean', default: false, description: 'Go ahead?' },
        email: { type: 'string', format: 'email', maxLength: 80 },
        code: { type: 'string' },
        seats: { type: 'integer', minimum: 1, maximum: 9 },
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        tier: {
          type: 'string',
          oneOf: [
            { const: 'g', title: 'Gold' },
            { const: 's', title: 'Silver' },
          ],
        },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
      },
      required: ['approve'],
    });
    expect(valid(form.requestedSchema)).toBe(true);
    expect(form.answer({ approve: true, seats: 2 })).toBe('{"approve":true,"seats":2}');
    expect(form.answer(undefined)).toBe('{}');
  });

  it('asks for a primitive response schema as the one field "value"', () => {
    const form = elicitationForm({ type: 'string', enum: ['yes', 'no'] });
    expect(form.requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'string', enum: ['yes', 'no'] } },
      required: ['value'],
    });
    expect(valid(form.requestedSchema)).toBe(true);
    expect(form.answer({ value: 'yes' })).toBe('"yes"');
    expect(form.answer({})).toBe('null');
  });

  it.each<[string, JsonValue, string, string]>([
    [
      'a nested object',
      { type: 'object', properties: { a: { type: 'object', properties: {} } } },
      '/properties/a',
      fieldTypeNotInForm('object'),
    ],
    [
      'an array of objects',
      { type: 'object', properties: { a: { type: 'array', items: { type: 'object' } } } },
      '/properties/a/items',
      FORM_RULE.multiSelect,
    ],
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/$defs/x' } } }, '/properties/a', FORM_RULE.ref],
    ['a top-level combinator', { type: 'object', properties: {}, oneOf: [] }, '', keywordNotInForm('oneOf')],
    [
      'a union type',
      { type: 'object', properties: { a: { type: ['string', 'null'] } } },
      '/properties/a',
      fieldTypeNotInForm(['string', 'null']),
    ],
    ['a boolean schema', true, '', FORM_RULE.notObject],
  ])('refuses %s, naming where and the rule', (_what, schema, where, rule) => {
    expect(() => elicitationForm(schema)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INPUT_REQUEST', message: formRefused(where, rule).message }),
    );
  });

  it('shows a JSON string prompt as text, any other prompt as its JSON', () => {
    expect(elicitationMessage('"File it?"')).toBe('File it?');
    expect(elicitationMessage('{"ask":"File it?"}')).toBe('{"ask":"File it?"}');
  });
});
