import {
  CallError,
  Failure,
  Output,
  ToolError,
  classifyFailure,
  findError,
  hasErrorCode,
  isError,
} from '../../lib/protocol';
import { thrownBy } from './helpers';

describe('Failure', () => {
  it('requires a cause for kind failed', () => {
    const err = thrownBy(() => new Failure({ kind: 'failed' })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_FAILURE');
    expect(err.message).toBe(
      'tool: invalid failure: failed outcome requires a cause; pass the error that ended the call',
    );
  });

  it.each(['', 'refused', undefined])('refuses kind %p', (kind) => {
    const err = thrownBy(() => new Failure({ kind: kind as never, cause: new Error('x') })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_FAILURE');
    expect(err.message).toContain('kind "');
  });

  it('refuses an output that is not an Output', () => {
    const err = thrownBy(() => new Failure({ kind: 'rejected', output: { asText: () => 'x' } as never })) as ToolError;
    expect(err.message).toMatch(/^tool: invalid failure: output: /);
  });

  it('allows a rejection without a cause: message `tool: rejected`, empty output', () => {
    const failure = new Failure({ kind: 'rejected', cause: null });
    expect(failure.message).toBe('tool: rejected');
    expect(failure.output).toBe(Output.empty);
    expect(failure.diagnosticCause).toBeUndefined();
    expect(failure).toBeInstanceOf(Error);
  });

  it("takes the cause's message but hides the cause from chain walkers", () => {
    const cause = new ToolError('ERR_INVALID_OUTPUT', 'inner');
    const failure = new Failure({ kind: 'failed', cause, output: Output.text('could not save') });
    expect(failure.message).toBe('tool: invalid output: inner');
    expect(failure.diagnosticCause).toBe(cause);
    expect('cause' in failure).toBe(false);
    expect(isError(failure, cause)).toBe(false);
    expect(hasErrorCode(failure, 'ERR_INVALID_OUTPUT')).toBe(false);
    expect(findError(failure, ToolError)).toBeUndefined();
  });
});

describe('classifyFailure', () => {
  const failure = new Failure({ kind: 'failed', cause: new Error('disk full'), output: Output.text('not saved') });

  it('finds a Failure itself and through single cause links', () => {
    expect(classifyFailure(failure)).toBe(failure);
    const wrapped = new Error('outer', { cause: new Error('middle', { cause: failure }) });
    expect(classifyFailure(wrapped)).toBe(failure);
  });

  it('finds a Failure inside a CallError (transparent)', () => {
    expect(classifyFailure(new CallError({ cause: failure }))).toBe(failure);
  });

  it('returns undefined for nothing, plain errors and non-errors', () => {
    expect(classifyFailure(undefined)).toBeUndefined();
    expect(classifyFailure(null)).toBeUndefined();
    expect(classifyFailure(new Error('plain'))).toBeUndefined();
    expect(classifyFailure('text')).toBeUndefined();
  });

  it('treats an AggregateError holding a Failure as a boundary: undefined', () => {
    expect(classifyFailure(new AggregateError([failure]))).toBeUndefined();
    expect(classifyFailure(new AggregateError([failure, new Error('other')]))).toBeUndefined();
    expect(classifyFailure(new Error('outer', { cause: new AggregateError([failure]) }))).toBeUndefined();
  });

  it('treats any error carrying an `errors` array as a boundary', () => {
    const joined = Object.assign(new Error('joined'), { errors: [failure] });
    expect(classifyFailure(joined)).toBeUndefined();
  });

  it("never searches a Failure's diagnostic cause: the outer Failure wins", () => {
    const inner = new Failure({ kind: 'rejected' });
    const outer = new Failure({ kind: 'failed', cause: new AggregateError([new Error('deadline'), inner]) });
    expect(classifyFailure(outer)).toBe(outer);
  });

  it('returns undefined for a forged Failure and for a cause cycle', () => {
    const forged = Object.create(Failure.prototype) as Failure;
    expect(classifyFailure(forged)).toBeUndefined();
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(classifyFailure(a)).toBeUndefined();
  });
});
