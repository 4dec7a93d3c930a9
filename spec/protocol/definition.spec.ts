import {
  DEFINITION_SCHEMA,
  MAX_INPUT_BYTES,
  ToolError,
  decodeDefinition,
  encodeDefinition,
  validateDefinition,
} from '../../lib/protocol';
import { thrownBy } from './helpers';

const obj = { type: 'object' };
const message = (fn: () => unknown) => (thrownBy(fn) as ToolError).message;

describe('validateDefinition', () => {
  it.each(['read', 'mcp__read-1', '1_lookup', 'a'.repeat(64)])('accepts the name %s', (name) => {
    expect(() => validateDefinition({ name, inputSchema: obj })).not.toThrow();
  });

  it.each(['a'.repeat(65), 'bad name', '.bad', '', 'naïve', 'read\n'])('refuses the name %p', (name) => {
    const err = thrownBy(() => validateDefinition({ name, inputSchema: obj })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_DEFINITION');
    expect(err.message).toContain('must match ^[A-Za-z0-9_-]{1,64}$');
  });

  it('checks description, presence, object-ness and type, in that order', () => {
    expect(message(() => validateDefinition({ name: 'x', description: '\ud800', inputSchema: obj }))).toContain(
      'description must be valid UTF-8',
    );
    expect(message(() => validateDefinition({ name: 'x' } as never))).toContain('missing input schema');
    expect(message(() => validateDefinition({ name: 'x', inputSchema: [] as never }))).toContain(
      'input schema must be a JSON object',
    );
    expect(message(() => validateDefinition({ name: 'x', inputSchema: { type: 'object', n: NaN } }))).toContain(
      '/n: NaN is not representable',
    );
    for (const type of [['object'], 'array', undefined]) {
      expect(message(() => validateDefinition({ name: 'x', inputSchema: { type } as never }))).toContain(
        'input schema type must be "object"',
      );
    }
  });

  it('refuses an input schema over MAX_INPUT_BYTES', () => {
    const inputSchema = { type: 'object', description: 'x'.repeat(MAX_INPUT_BYTES) };
    expect(message(() => validateDefinition({ name: 'x', inputSchema }))).toContain(`exceeds ${MAX_INPUT_BYTES} bytes`);
  });

  it('refuses a cyclic schema', () => {
    const inputSchema: Record<string, unknown> = { type: 'object' };
    inputSchema.self = inputSchema;
    expect(message(() => validateDefinition({ name: 'x', inputSchema: inputSchema as never }))).toContain('cyclic');
  });
});

describe('encodeDefinition / decodeDefinition', () => {
  it('writes name, description, input_schema in that order, keeping schema member order', () => {
    const wire = encodeDefinition({
      name: 'x',
      description: 'd',
      inputSchema: { type: 'object', properties: { z: {}, a: {} } },
    });
    expect(wire).toBe('{"name":"x","description":"d","input_schema":{"type":"object","properties":{"z":{},"a":{}}}}');
    expect(encodeDefinition({ name: 'x', description: '', inputSchema: obj })).toBe(
      '{"name":"x","input_schema":{"type":"object"}}',
    );
  });

  it('round-trips and decodes to a deep-frozen definition', () => {
    const definition = decodeDefinition(
      '{"name":"x","description":"d","input_schema":{"type":"object","properties":{"__proto__":{}}}}',
    );
    expect(definition.name).toBe('x');
    expect(Object.keys(definition.inputSchema.properties as object)).toEqual(['__proto__']);
    expect(Object.isFrozen(definition.inputSchema)).toBe(true);
    expect(decodeDefinition(encodeDefinition(definition))).toEqual(definition);
  });

  it('decodes strictly', () => {
    for (const wire of [
      '{"name":"x","input_schema":{"type":"object"},"extra":1}',
      '[]',
      '{',
      '{"name":"x"}',
      '{"name":"x","description":1,"input_schema":{"type":"object"}}',
    ]) {
      expect((thrownBy(() => decodeDefinition(wire)) as ToolError).code).toBe('ERR_INVALID_DEFINITION');
    }
  });

  it('publishes the wire schema', () => {
    expect(DEFINITION_SCHEMA.required).toEqual(['name', 'input_schema']);
  });
});
