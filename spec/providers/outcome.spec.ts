import {
  AuthorizationError,
  CallError,
  Failure,
  FuncTool,
  Guard,
  InputRequest,
  InputValidatorError,
  Output,
  ToolError,
  bind,
} from '../../lib/protocol';
import type { Binding, JsonValue } from '../../lib/protocol';
import {
  anthropicToolResult,
  describeInvalidArguments,
  isSuspendedOutcome,
  openAIToolMessage,
  renderOutcome,
} from '../../lib/providers';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { mediaNote } from '../../lib/providers/outcome';
import type { ToolOutcome } from '../../lib/providers';

const SECRET = 'sk-live-SECRET-4242';

function weatherBinding(authorize: () => unknown = () => true): Binding {
  const tool = FuncTool.create(
    {
      name: 'get_weather',
      inputSchema: {
        type: 'object',
        properties: { location: { type: 'string' }, units: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['location'],
        additionalProperties: false,
      },
      decode: (value: JsonValue) => value as { location: string },
    },
    (input) => `sunny in ${input.location}`,
  );
  return bind(new Guard({ tool, authorizer: authorize as never }));
}

/** Everything the model would see, for both providers. */
function modelTexts(outcome: ToolOutcome, name = 'get_weather'): string {
  const call = { id: 'call_1', request: { name, arguments: '{}' } };
  return JSON.stringify([openAIToolMessage(call, outcome), anthropicToolResult(call, outcome)]);
}

describe('renderOutcome', () => {
  it('renders a completed output as is, not an error', async () => {
    const binding = weatherBinding();
    const result = await binding.call(
      binding.contract.prepare({ name: 'get_weather', arguments: '{"location":"Paris"}' }),
    );
    expect(renderOutcome('get_weather', { result })).toEqual({
      kind: 'completed',
      isError: false,
      output: Output.text('sunny in Paris'),
    });
  });

  it('renders a policy refusal as the Guard failure text, kind rejected', async () => {
    const binding = weatherBinding(() => false);
    const invocation = binding.contract.prepare({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const error = await binding.call(invocation).then(
      () => undefined,
      (e: unknown) => e,
    );
    const rendered = renderOutcome('get_weather', { error });
    expect(rendered.kind).toBe('rejected');
    expect(rendered.isError).toBe(true);
    expect(rendered.output.asText()).toBe(notAuthorizedText('get_weather'));
  });

  it('renders an undecided policy without its cause', async () => {
    const binding = weatherBinding(() => {
      throw new Error(`policy store unreachable, key ${SECRET}`);
    });
    const invocation = binding.contract.prepare({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const error = await binding.call(invocation).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(renderOutcome('get_weather', { error }).output.asText()).toBe(
      'error: authorization for tool "get_weather" could not be decided',
    );
    expect(modelTexts({ error })).not.toContain(SECRET);
  });

  it('renders an abort (by reason identity or by AbortError name) as a cancellation', async () => {
    const controller = new AbortController();
    const reason = new Error(`stopped by ${SECRET}`);
    controller.abort(reason);
    const binding = weatherBinding();
    const invocation = binding.contract.prepare({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const error = await binding.call(invocation, { signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(renderOutcome('get_weather', { error }, { signal: controller.signal })).toMatchObject({
      kind: 'cancelled',
      isError: true,
    });
    expect(renderOutcome('get_weather', { error }, { signal: controller.signal }).output.asText()).toBe(
      'error: the call was cancelled',
    );
    const dom = new DOMException('This operation was aborted', 'AbortError');
    expect(renderOutcome('x', { error: new CallError({ cause: dom }) }).kind).toBe('cancelled');
    expect(renderOutcome('x', { error: new AggregateError([dom, new AuthorizationError('x', 'why')]) }).kind).toBe(
      'cancelled',
    );
  });

  it('renders admission errors from Contract.prepare as actionable invalid arguments', () => {
    const binding = weatherBinding();
    let error: unknown;
    try {
      binding.contract.prepare({ name: 'get_weather', arguments: '{"location":"Paris","units":"kelvin"}' });
    } catch (e) {
      error = e;
    }
    const rendered = renderOutcome('get_weather', { error });
    expect(rendered.kind).toBe('invalid_arguments');
    expect(rendered.isError).toBe(true);
    expect((error as ToolError).issues).toEqual([expect.objectContaining({ path: ['units'], keyword: 'enum' })]);
    expect(rendered.output.asText()).toBe(describeInvalidArguments('get_weather', error as ToolError));
  });

  it('renders truncated arguments (invalid JSON) as a request for one complete JSON object', () => {
    const binding = weatherBinding();
    let error: unknown;
    try {
      binding.contract.prepare({ name: 'get_weather', arguments: '{"location": "Par' });
    } catch (e) {
      error = e;
    }
    expect((error as ToolError).issues).toEqual([
      expect.objectContaining({ code: 'invalid_json', path: ['location'], offset: 13 }),
    ]);
    const rendered = renderOutcome('get_weather', { error });
    expect(rendered.kind).toBe('invalid_arguments');
    expect(rendered.output.asText()).toBe(describeInvalidArguments('get_weather', error as ToolError));
  });

  it('treats a throwing input validator as a defect: generic text, no message', () => {
    const error = new ToolError('ERR_INVALID_INVOCATION', `arguments: validator blew up with ${SECRET}`, {
      cause: new InputValidatorError(new Error(SECRET)),
    });
    expect(renderOutcome('get_weather', { error }).output.asText()).toBe('error: tool "get_weather" failed');
  });

  it('keeps causes, stacks, evidence and messages of other errors out of model text', () => {
    const secretError = new Error(`connect ECONNREFUSED with password ${SECRET}`);
    const errors: unknown[] = [
      secretError,
      new CallError({ cause: secretError, evidence: Output.text(`partial write ${SECRET}`) }),
      new ToolError('ERR_INVALID_RESULT', SECRET, { cause: secretError }),
      `thrown string ${SECRET}`,
      { message: SECRET, stack: SECRET },
      undefined,
    ];
    for (const error of errors) {
      const rendered = renderOutcome('get_weather', { error });
      expect(rendered).toMatchObject({ kind: 'error', isError: true });
      expect(rendered.output.asText()).toBe('error: tool "get_weather" failed');
      const text = modelTexts({ error });
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/\bat .*\.ts:\d+/);
    }
  });

  it('keeps a failure diagnostic cause out of model text', () => {
    const failure = new Failure({
      kind: 'failed',
      output: Output.text('error: upstream unavailable'),
      cause: new Error(SECRET),
    });
    expect(modelTexts({ error: new CallError({ cause: failure }) })).not.toContain(SECRET);
    expect(renderOutcome('get_weather', { error: failure }).output.asText()).toBe('error: upstream unavailable');
  });

  it('quotes a hostile tool name as one JSON string line', () => {
    expect(renderOutcome('a"b\nc', { error: new Error('x') }).output.asText()).toBe('error: tool "a\\"b\\nc" failed');
  });

  it('refuses a suspension, telling the caller to ask the person and resume with the continuation', () => {
    const inputRequest = InputRequest.create({
      prompt: '"Send the note?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{}',
    });
    const outcome: ToolOutcome = { result: { inputRequest } };
    expect(isSuspendedOutcome(outcome)).toBe(true);
    expect(isSuspendedOutcome({ result: { output: Output.empty } })).toBe(false);
    expect(() => renderOutcome('create_note', outcome)).toThrow(
      'tool: invalid result: renderOutcome: tool "create_note" asked for human input (an InputRequest), which is not a tool result; ' +
        'show InputRequest.prompt to a person, then prepare the same call again with InputRequest.continuation(answer) ' +
        'and send the result of that call',
    );
  });
});

describe('mediaNote', () => {
  it('says which media a channel could not carry (the wording, pinned once)', () => {
    expect(mediaNote('image/png')).toBe('[image/png media omitted: this channel cannot carry it]');
  });
});

describe('renderOutcome on values that are not Results', () => {
  it('refuses a result without an Output, saying what to pass', () => {
    expect(() => renderOutcome('t', { result: {} as never })).toThrow(
      'tool: invalid result: renderOutcome: the result of tool "t" holds neither an Output nor an InputRequest; pass the Result that Binding.call returned',
    );
    expect(() => renderOutcome('t', { result: null as never })).toThrow(ToolError);
  });
});
