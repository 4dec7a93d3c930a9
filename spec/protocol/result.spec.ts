import { InputRequest, Output, ToolError, hasErrorCode, validateResult } from '../../lib/protocol';
import { thrownBy } from './helpers';

const request = () =>
  InputRequest.create({ prompt: '"ok?"', responseSchema: { type: 'boolean' }, continuationState: '{}' });

describe('validateResult', () => {
  it('accepts an output and returns a fresh frozen copy', () => {
    const input = { output: Output.text('done'), extra: 1 };
    const result = validateResult(input);
    expect(result).toEqual({ output: input.output });
    expect(result).not.toBe(input);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('accepts an input request alone or beside the empty output', () => {
    const inputRequest = request();
    expect(validateResult({ inputRequest })).toEqual({ inputRequest });
    expect(validateResult({ inputRequest, output: Output.empty })).toEqual({ inputRequest });
  });

  it('refuses an input request carrying a completed output', () => {
    const err = thrownBy(() => validateResult({ inputRequest: request(), output: Output.text('x') })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_RESULT');
    expect(err.message).toContain('an input request carries no completed output');
  });

  it('refuses non-objects, forged outputs and forged input requests', () => {
    for (const value of [
      undefined,
      null,
      'done',
      {},
      { output: { content: [] } },
      { inputRequest: { prompt: '"x"' } },
    ]) {
      expect((thrownBy(() => validateResult(value)) as ToolError).code).toBe('ERR_INVALID_RESULT');
    }
    expect(
      hasErrorCode(
        thrownBy(() => validateResult({ output: {} })),
        'ERR_INVALID_OUTPUT',
      ),
    ).toBe(true);
  });
});
