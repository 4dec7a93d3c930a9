import { MAX_INPUT_BYTES, ToolError, validateRequest } from '../../lib/protocol';
import { thrownBy } from './helpers';

const message = (value: unknown) => (thrownBy(() => validateRequest(value)) as ToolError).message;

describe('validateRequest', () => {
  it('accepts a name and any argument text (JSON is checked later, by prepare)', () => {
    expect(() => validateRequest({ name: 'x', arguments: 'not json' })).not.toThrow();
  });

  it('refuses what is not a request, with ERR_INVALID_REQUEST', () => {
    expect((thrownBy(() => validateRequest(null)) as ToolError).code).toBe('ERR_INVALID_REQUEST');
    expect(message({ name: '', arguments: '{}' })).toBe(
      'tool: invalid request: name must not be empty; send the name of a defined tool',
    );
    expect(message({ name: 'x', arguments: {} })).toBe(
      'tool: invalid request: arguments of "x" must be a string of JSON text',
    );
    expect(message({ name: 'x\ud800', arguments: '{}' })).toContain('valid UTF-8');
  });

  it('bounds the arguments at MAX_INPUT_BYTES UTF-8 bytes', () => {
    expect(() => validateRequest({ name: 'x', arguments: 'x'.repeat(MAX_INPUT_BYTES) })).not.toThrow();
    expect(message({ name: 'x', arguments: 'x'.repeat(MAX_INPUT_BYTES + 1) })).toContain('1048577 bytes');
  });
});
