import {
  Continuation,
  INPUT_REQUEST_SCHEMA,
  InputRequest,
  InputValidatorError,
  MAX_INPUT_BYTES,
  ToolError,
  hasErrorCode,
  isInputValidatingTool,
} from '../../lib/protocol';
import { thrownBy } from './helpers';
import { missingJsonText, notJsonText } from '../../lib/protocol/messages';

const config = {
  prompt: '"Approve the write?"',
  responseSchema: { type: 'boolean' },
  continuationState: '{"record":"draft"}',
};
const refusal = (fn: () => unknown) => thrownBy(fn) as ToolError;

describe('InputRequest.create', () => {
  it('keeps prompt and state exactly and the schema as authored', () => {
    const request = InputRequest.create({ ...config, prompt: ' "Approve?" ' });
    expect(request.prompt).toBe(' "Approve?" ');
    expect(request.state).toBe('{"record":"draft"}');
    expect(request.responseSchema).toEqual({ type: 'boolean' });
    expect(Object.isFrozen(request.responseSchema)).toBe(true);
  });

  it('requires prompt and state, each one valid JSON text', () => {
    for (const bad of [
      { prompt: undefined },
      { prompt: '' },
      { prompt: 'not json' },
      { continuationState: undefined },
      { continuationState: '{} {}' },
    ]) {
      expect(refusal(() => InputRequest.create({ ...config, ...bad } as never)).code).toBe('ERR_INVALID_INPUT_REQUEST');
    }
    expect(refusal(() => InputRequest.create({ ...config, prompt: '' })).message).toMatch(
      /^tool: invalid input request: prompt must be JSON text/,
    );
  });

  it('says a prompt, state or answer not given is missing, and what to pass (trial 2 finding 12c)', () => {
    // Regression: a missing continuationState was told it `must be a string of JSON text`.
    const { continuationState: _omitted, ...withoutState } = config;
    const err = refusal(() => InputRequest.create(withoutState as never));
    expect(err).toMatchObject({
      code: 'ERR_INVALID_INPUT_REQUEST',
      message: missingJsonText('continuation state').message,
    });
    expect(refusal(() => InputRequest.create({ ...config, prompt: undefined } as never)).message).toBe(
      missingJsonText('prompt').message,
    );
    const request = InputRequest.create(config);
    expect(refusal(() => request.continuation(undefined as never)).message).toBe(missingJsonText('response').message);
    // A value of another type is still told to be a string.
    expect(refusal(() => InputRequest.create({ ...config, continuationState: 3 } as never)).message).not.toBe(
      missingJsonText('continuation state').message,
    );
  });

  it('says how to send a plain-text prompt: JSON.stringify it (issue 15 item 5a)', () => {
    // Was only `... unexpected character "D" at the top level (offset 0); expected a value`.
    const err = refusal(() => InputRequest.create({ ...config, prompt: 'Delete 3 files?' }));
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(err.message).toBe(notJsonText('prompt', 'Delete 3 files?', err.issues[0]).message);
    expect(err.issues[0]).toMatchObject({ code: 'invalid_json', offset: 0 });
    expect(InputRequest.create({ ...config, prompt: JSON.stringify('Delete 3 files?') }).prompt).toBe(
      '"Delete 3 files?"',
    );
  });

  it('bounds prompt and state at MAX_INPUT_BYTES UTF-8 bytes each', () => {
    const exact = `"${'x'.repeat(MAX_INPUT_BYTES - 2)}"`;
    expect(() => InputRequest.create({ ...config, prompt: exact, continuationState: exact })).not.toThrow();
    const over = `"${'x'.repeat(MAX_INPUT_BYTES - 1)}"`;
    expect(refusal(() => InputRequest.create({ ...config, prompt: over })).message).toContain(
      'prompt is 1048577 bytes',
    );
    expect(refusal(() => InputRequest.create({ ...config, continuationState: over })).message).toContain(
      'continuation state is 1048577 bytes',
    );
  });

  it('refuses a response schema that does not compile, keeping the schema error reachable', () => {
    const err = refusal(() => InputRequest.create({ ...config, responseSchema: { type: 'nope' } }));
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(hasErrorCode(err, 'ERR_INVALID_SCHEMA')).toBe(true);
    expect(refusal(() => InputRequest.create({ ...config, responseSchema: [] as never })).message).toContain(
      'response schema',
    );
  });
});

describe('InputRequest.continuation', () => {
  it('validates the answer against this request and freezes state and answer', () => {
    const continuation = InputRequest.create(config).continuation(' true ');
    expect(continuation).toBeInstanceOf(Continuation);
    expect(continuation.state).toBe('{"record":"draft"}');
    expect(continuation.response).toBe(' true ');
    expect(Object.isFrozen(continuation)).toBe(true);
  });

  it('refuses an answer that is not JSON or fails the schema', () => {
    const request = InputRequest.create(config);
    expect(refusal(() => request.continuation('yes')).code).toBe('ERR_INVALID_INPUT_REQUEST');
    const err = refusal(() => request.continuation('"yes"'));
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(err.message).toMatch(/^tool: invalid input request: response: /);
    expect(err.issues[0].keyword).toBe('type');
  });

  it('points at the failing member of an object answer', () => {
    const request = InputRequest.create({
      ...config,
      responseSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    expect(refusal(() => request.continuation('{"ok":1}')).message).toMatch(
      /^tool: invalid input request: response: \/ok: /,
    );
  });

  it('cannot be built without an InputRequest', () => {
    expect(() => new (Continuation as unknown as new (t: symbol) => unknown)(Symbol('input'))).toThrow(ToolError);
  });
});

describe('InputRequest wire form', () => {
  it('uses prompt, response_schema and continuation_state, and round-trips', () => {
    const request = InputRequest.create(config);
    const wire = JSON.stringify(request);
    expect(wire).toBe(
      '{"prompt":"Approve the write?","response_schema":{"type":"boolean"},"continuation_state":{"record":"draft"}}',
    );
    const parsed = InputRequest.parse(wire);
    expect(parsed.prompt).toBe('"Approve the write?"');
    expect(parsed.state).toBe('{"record":"draft"}');
    expect(parsed.continuation('false').response).toBe('false');
  });

  it('parses strictly: all three members, nothing else', () => {
    for (const wire of [
      '{"prompt":"x","response_schema":true}',
      '{"prompt":"x","response_schema":true,"continuation_state":{},"id":1}',
      '[]',
    ]) {
      expect(refusal(() => InputRequest.parse(wire)).code).toBe('ERR_INVALID_INPUT_REQUEST');
    }
  });

  it('publishes the wire schema', () => {
    expect(INPUT_REQUEST_SCHEMA.required).toEqual(['prompt', 'response_schema', 'continuation_state']);
  });
});

describe('InputValidatorError and InputValidatingTool', () => {
  it('formats the thrown value and keeps an Error reachable as cause', () => {
    const bug = new Error('bug');
    const err = new InputValidatorError(bug);
    expect(err.message).toBe('tool: input validation panicked: bug');
    expect(err.thrown).toBe(bug);
    expect(err.cause).toBe(bug);
    const value = new InputValidatorError(42);
    expect(value.message).toBe('tool: input validation panicked: 42');
    expect('cause' in value).toBe(false);
  });

  it('recognizes input-validating tools', () => {
    expect(isInputValidatingTool({ inputValidator: () => undefined })).toBe(true);
    expect(isInputValidatingTool({})).toBe(false);
    expect(isInputValidatingTool(null)).toBe(false);
  });
});
