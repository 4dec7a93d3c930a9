import { CallError, Failure, Output, ToolError, classifyFailure, findError, isError } from '../../lib/protocol';
import { thrownBy } from './helpers';

describe('CallError', () => {
  it('requires a cause', () => {
    for (const cause of [undefined, null]) {
      const err = thrownBy(() => new CallError({ cause })) as ToolError;
      expect(err.code).toBe('ERR_INVALID_CALL_ERROR');
      expect(err.message).toBe('tool: invalid call error: cause is required; pass the error being annotated');
    }
  });

  it('refuses evidence that is not an Output', () => {
    const err = thrownBy(
      () => new CallError({ cause: new Error('x'), evidence: 'wrote 2 rows' as never }),
    ) as ToolError;
    expect(err.message).toMatch(/^tool: invalid call error: evidence: /);
  });

  it("is transparent: the cause's message, the cause reachable", () => {
    const deadline = new Error('deadline exceeded');
    const callError = new CallError({ cause: deadline, evidence: Output.text('sent 2 of 3 emails') });
    expect(callError.message).toBe('deadline exceeded');
    expect(callError.cause).toBe(deadline);
    expect(isError(new Error('wrapped', { cause: callError }), deadline)).toBe(true);
    expect(callError.evidence.asText()).toBe('sent 2 of 3 emails');
  });

  it('defaults the evidence to Output.empty and is not a Failure', () => {
    const callError = new CallError({ cause: 'string cause' });
    expect(callError.evidence).toBe(Output.empty);
    expect(callError.message).toBe('string cause');
    expect(classifyFailure(callError)).toBeUndefined();
    expect(findError(callError, Failure)).toBeUndefined();
  });
});
