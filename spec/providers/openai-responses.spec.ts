import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { Failure, FuncTool, Output, Registry, ToolError } from '../../lib/protocol';
import type { Definition, JsonValue } from '../../lib/protocol';
import {
  OpenAIResponsesStreamAssembler,
  describeInvalidArguments,
  openAIFunctionCallOutput,
  openAIResponsesToolCalls,
  openAIResponsesTools,
  prepareToolCall,
  renderOutcome,
} from '../../lib/providers';
import { mediaNote } from '../../lib/providers/outcome';
import { conflictingNameCall } from '../../lib/providers/tool-call';
import { assembledSse, fixtureJson } from './fixtures';

const weather: Definition = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location', 'unit'],
  },
};

describe('openAIResponsesTools', () => {
  it('projects a definition to the recorded request entry, plus an explicit strict: false', () => {
    const request = fixtureJson<ResponseCreateParamsNonStreaming>('responses_functions.request.json');
    expect(openAIResponsesTools([weather])).toEqual([{ ...(request.tools?.[0] as object), strict: false }]);
  });

  it('exports in strict mode the schema the recorded response echoes, closed to other members', () => {
    const response = fixtureJson<Response>('responses_functions.response.json');
    const echoed = response.tools[0] as { parameters: Record<string, unknown> };
    const [tool] = openAIResponsesTools([weather], { strict: true });
    expect(tool.strict).toBe(true);
    expect(tool.parameters).toEqual({ ...echoed.parameters, additionalProperties: false });
  });
});

describe('openAIResponsesToolCalls', () => {
  it('reads the recorded function_call item: call_id as id, arguments kept exactly', () => {
    const response = fixtureJson<Response>('responses_functions.response.json');
    const item = response.output.find((i) => i.type === 'function_call') as ResponseFunctionToolCall;
    expect(openAIResponsesToolCalls(response)).toEqual([
      { id: item.call_id, request: { name: 'get_current_weather', arguments: item.arguments }, complete: true },
    ]);
    expect(item.call_id).toBe('call_unLAR8MvFNptuiZK6K6HCy5k');
  });

  it('marks calls of an incomplete response or item incomplete and skips other items', () => {
    const output = [
      { type: 'message', id: 'm', content: [] },
      { type: 'function_call', call_id: 'a', name: 'one', arguments: '{"x":1}', status: 'completed' },
      { type: 'function_call', call_id: 'b', name: 'two', arguments: '{"x":', status: 'incomplete' },
      { type: 'function_call', call_id: 'c', name: 'bad', arguments: { x: 1 } },
    ];
    // One item cut (b): no call of the batch is complete; without it, the others are.
    expect(openAIResponsesToolCalls({ output } as never).map((c) => [c.id, c.complete])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
    ]);
    const finished = output.filter((item) => item.type !== 'function_call' || item.call_id !== 'b');
    expect(openAIResponsesToolCalls({ output: finished } as never).map((c) => [c.id, c.complete])).toEqual([
      ['a', true],
      ['c', true],
    ]);
    expect(openAIResponsesToolCalls({ status: 'incomplete', output } as never).every((c) => !c.complete)).toBe(true);
    expect(openAIResponsesToolCalls({} as never)).toEqual([]);
  });
});

describe('openAIFunctionCallOutput', () => {
  const call = { id: 'call_unLAR8MvFNptuiZK6K6HCy5k', request: { name: 'get_current_weather', arguments: '{}' } };

  it('answers with a function_call_output input item the SDK types accept', () => {
    const item: ResponseInputItem = openAIFunctionCallOutput(call, { result: { output: Output.text('Sunny, 22 C') } });
    expect(item).toEqual({
      type: 'function_call_output',
      call_id: 'call_unLAR8MvFNptuiZK6K6HCy5k',
      output: 'Sunny, 22 C',
    });
    const params: ResponseCreateParamsNonStreaming = {
      model: 'gpt-5.4',
      input: [item],
      tools: openAIResponsesTools([weather]),
    };
    expect(params.input).toHaveLength(1);
  });

  it('sends images as input_image content and other media as a note', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'chart: ' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } } },
        { kind: 'media', media: { mime: 'audio/wav', source: { kind: 'uri', uri: 'https://example.com/a.wav' } } },
      ],
    });
    expect(openAIFunctionCallOutput(call, { result: { output } }).output).toEqual([
      { type: 'input_text', text: 'chart: ' },
      { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'input_text', text: mediaNote('audio/wav') },
    ]);
  });

  it('renders errors for the model without causes or stacks', () => {
    const failure = new Failure({
      kind: 'failed',
      output: Output.text('error: city not found'),
      cause: new Error('db password=hunter2'),
    });
    const item = openAIFunctionCallOutput(call, { error: failure });
    expect(item.output).toBe('error: city not found');
    const crash = openAIFunctionCallOutput(call, { error: new Error('secret stack detail') });
    const rendered = renderOutcome('get_current_weather', { error: new Error('secret stack detail') });
    expect(rendered.kind).toBe('error');
    expect(crash.output).toBe(rendered.output.asText());
    expect(JSON.stringify([item, crash])).not.toMatch(/hunter2|secret|at Object/);
  });
});

describe('Responses round trip', () => {
  it('admits the recorded call through the registry and answers it', async () => {
    const tool = FuncTool.create(
      {
        name: 'get_current_weather',
        inputSchema: weather.inputSchema,
        decode: (v: JsonValue) => v as { location: string },
      },
      (input: { location: string }) => `Sunny in ${input.location}`,
    );
    const registry = new Registry(tool);
    const [call] = openAIResponsesToolCalls(fixtureJson<Response>('responses_functions.response.json'));
    const { binding, invocation } = prepareToolCall(registry, call);
    const item = openAIFunctionCallOutput(call, { result: await binding.call(invocation) });
    expect(item).toEqual({ type: 'function_call_output', call_id: call.id, output: 'Sunny in Boston, MA' });
  });
});

describe('Responses calls without arguments text', () => {
  it('never drops a function_call whose arguments are null or missing: every call_id gets one output', async () => {
    const response = fixtureJson<Response>('responses_functions.response.json');
    const recorded = response.output.find((item) => item.type === 'function_call') as ResponseFunctionToolCall;
    const nulled = { ...recorded, id: 'fc_null', call_id: 'call_null', arguments: null };
    const { arguments: _dropped, ...missing } = { ...recorded, id: 'fc_missing', call_id: 'call_missing' };
    const withBoth = { ...response, output: [recorded, nulled, missing] } as never;

    const ran = jest.fn(() => 'Sunny');
    const registry = new Registry(FuncTool.create({ ...weather, decode: (v: JsonValue) => v }, ran));
    const calls = openAIResponsesToolCalls(withBoth);
    expect(calls.map((c) => [c.id, c.complete, c.malformed])).toEqual([
      ['call_unLAR8MvFNptuiZK6K6HCy5k', true, undefined],
      // The wording of a malformed call, built in lib/providers/openai-responses.ts, pinned here once.
      ['call_null', true, 'arguments is null, not a string of JSON text'],
      ['call_missing', true, expect.stringMatching(/^arguments is missing\b/)],
    ]);
    const items: ResponseInputItem.FunctionCallOutput[] = [];
    const errors: ToolError[] = [];
    for (const call of calls) {
      try {
        const { binding, invocation } = prepareToolCall(registry, call);
        items.push(openAIFunctionCallOutput(call, { result: await binding.call(invocation) }));
      } catch (error) {
        expect((error as ToolError).issues).toMatchObject([{ code: 'invalid_json', path: [] }]);
        errors.push(error as ToolError);
        items.push(openAIFunctionCallOutput(call, { error }));
      }
    }
    expect(items.map((i) => i.call_id)).toEqual(calls.map((c) => c.id));
    expect(ran).toHaveBeenCalledTimes(1);
    expect(errors[1].issues[0].message).toContain(calls[2].malformed);
    expect(items[2].output).toBe(describeInvalidArguments('get_current_weather', errors[1]));
  });

  it('marks a streamed call whose events never carried arguments text, and keeps its nameless sibling', () => {
    const sse = [
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_current_weather', arguments: null },
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'function_call', call_id: 'call_1', name: 'get_current_weather', status: 'completed' },
      },
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { type: 'function_call', id: 'fc_2', call_id: 'call_2', arguments: '' },
      },
      { type: 'response.function_call_arguments.done', output_index: 1, item_id: 'fc_2', arguments: '{}' },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { type: 'function_call', call_id: 'call_2', arguments: '{}', status: 'completed' },
      },
      { type: 'response.completed', response: { status: 'completed' } },
    ]
      .map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
      .join('');
    const calls = assembledSse(new OpenAIResponsesStreamAssembler(), sse);
    expect(calls).toEqual([
      {
        id: 'call_1',
        request: { name: 'get_current_weather', arguments: 'null' },
        complete: true,
        malformed: 'the stream carried no arguments text for this call',
      },
      { id: 'call_2', request: { name: '', arguments: '{}' }, complete: true },
    ]);
    const registry = new Registry(FuncTool.create({ ...weather, decode: (v: JsonValue) => v }, () => 'x'));
    for (const call of calls) expect(() => prepareToolCall(registry, call)).toThrow(ToolError);
  });
});

describe('OpenAIResponsesStreamAssembler', () => {
  const events = (withDone: boolean) =>
    [
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_current_weather', arguments: '' },
      },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{"location":' },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '"Boston, MA"}' },
      ...(withDone
        ? [
            {
              type: 'response.function_call_arguments.done',
              output_index: 0,
              item_id: 'fc_1',
              arguments: '{"location":"Boston, MA"}',
            },
            {
              type: 'response.output_item.done',
              output_index: 0,
              item: {
                type: 'function_call',
                call_id: 'call_1',
                name: 'get_current_weather',
                arguments: '{"location":"Boston, MA"}',
                status: 'completed',
              },
            },
            { type: 'response.completed', response: { status: 'completed' } },
          ]
        : []),
    ]
      .map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
      .join('');

  it('assembles delta events into one complete call', () => {
    expect(assembledSse(new OpenAIResponsesStreamAssembler(), events(true))).toEqual([
      {
        id: 'call_1',
        request: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' },
        complete: true,
      },
    ]);
  });

  it('makes a call whose done item names another tool one malformed call (it ran the added name)', () => {
    // Regression (second review, finding 3): added `get_current_weather`, done `refund_all`; the
    // SDK's final response keeps the done item, scope-tool ran the first name.
    const renamed = events(true).replace(
      /("type":"response.output_item.done".*?"name":)"get_current_weather"/,
      '$1"refund_all"',
    );
    const [call] = assembledSse(new OpenAIResponsesStreamAssembler(), renamed);
    expect([call.id, call.complete, call.malformed]).toEqual([
      'call_1',
      true,
      conflictingNameCall('call_1', ['get_current_weather', 'refund_all'], true).malformed,
    ]);
  });

  it('reports a stream cut mid-arguments as an admission error for the model, not a crash', () => {
    const [call] = assembledSse(new OpenAIResponsesStreamAssembler(), events(false).replace(/"Boston, MA"\}/, '"Bos'));
    expect(call.complete).toBe(false);
    const registry = new Registry(
      FuncTool.create(
        { name: 'get_current_weather', inputSchema: weather.inputSchema, decode: (v: JsonValue) => v },
        () => 'x',
      ),
    );
    expect(() => prepareToolCall(registry, call)).toThrow(ToolError);
    const error = captured(() => prepareToolCall(registry, call)) as ToolError;
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_json' })]);
    expect(openAIFunctionCallOutput(call, { error }).output).toBe(
      describeInvalidArguments('get_current_weather', error),
    );
  });
});

// Regression (review b, finding 2): terminal events carry no output_index and were ignored, so a
// response cut by max_output_tokens ran its finished call; the whole reader refused both.
describe('Responses: the status the response ended with, whole and streamed', () => {
  const items = [
    { type: 'function_call', call_id: 'a', name: 'one', arguments: '{}', status: 'completed' },
    { type: 'function_call', call_id: 'b', name: 'two', arguments: '{"x":', status: 'incomplete' },
  ];
  const streamed = (terminal: unknown[]) => {
    const assembler = new OpenAIResponsesStreamAssembler();
    items.forEach((item, output_index) => {
      assembler.push({ type: 'response.output_item.added', output_index, item: { ...item, arguments: '' } });
      assembler.push({ type: 'response.function_call_arguments.delta', output_index, delta: item.arguments });
      assembler.push({ type: 'response.output_item.done', output_index, item });
    });
    for (const event of terminal) assembler.push(event);
    return assembler.toolCalls().map((c) => c.complete);
  };
  const whole = (status: string) => openAIResponsesToolCalls({ status, output: items } as never).map((c) => c.complete);

  // Item b ended `incomplete`: no call of the batch runs, whatever the response's status (second
  // review: a completed response ran item a while b was cut).
  it.each([
    ['response.completed', 'completed', [false, false]],
    ['response.incomplete', 'incomplete', [false, false]],
    ['response.failed', 'failed', [false, false]],
  ])('%s: the same verdict as the whole response with status %p', (type, status, verdict) => {
    expect(whole(status)).toEqual(verdict);
    expect(streamed([{ type, response: { status, output: items } }])).toEqual(verdict);
    expect(streamed([{ type }])).toEqual(verdict); // a terminal event without its response
  });

  it('a completed response whose items all completed runs them all, whole and streamed', () => {
    const done = items.map((item) => ({ ...item, arguments: '{}', status: 'completed' }));
    expect(openAIResponsesToolCalls({ status: 'completed', output: done } as never).map((c) => c.complete)).toEqual([
      true,
      true,
    ]);
    const assembler = new OpenAIResponsesStreamAssembler();
    done.forEach((item, output_index) => {
      assembler.push({ type: 'response.output_item.added', output_index, item });
      assembler.push({ type: 'response.output_item.done', output_index, item });
    });
    assembler.push({ type: 'response.completed', response: { status: 'completed' } });
    expect(assembler.toolCalls().map((c) => c.complete)).toEqual([true, true]);
    // An item added and never done: the batch was cut, though the response says completed.
    const cut = new OpenAIResponsesStreamAssembler();
    cut.push({ type: 'response.output_item.added', output_index: 0, item: done[0] });
    cut.push({ type: 'response.output_item.done', output_index: 0, item: done[0] });
    cut.push({ type: 'response.output_item.added', output_index: 1, item: done[1] });
    cut.push({ type: 'response.completed', response: { status: 'completed' } });
    expect(cut.toolCalls().map((c) => c.complete)).toEqual([false, false]);
  });

  it('a second terminal status, output after the terminal event, or a call without call_id holds the batch', () => {
    // Regressions (third review, findings 5, 6, 7): each ran the calls as a whole turn.
    const item = { type: 'function_call', call_id: 'a', name: 'one', arguments: '{}', status: 'completed' };
    const verdict = (...events: unknown[]) => {
      const assembler = new OpenAIResponsesStreamAssembler();
      assembler.push({ type: 'response.output_item.added', output_index: 0, item });
      assembler.push({ type: 'response.output_item.done', output_index: 0, item });
      for (const event of events) assembler.push(event);
      return assembler.toolCalls().map((c) => [c.id, c.complete]);
    };
    const completed = { type: 'response.completed', response: { status: 'completed' } };
    const later = { ...item, call_id: 'b' };
    expect(verdict(completed)).toEqual([['a', true]]);
    expect(verdict(completed, completed)).toEqual([['a', true]]);
    expect(verdict({ type: 'response.incomplete', response: { status: 'incomplete' } }, completed)).toEqual([
      ['a', false],
    ]);
    expect(
      verdict(
        completed,
        { type: 'response.output_item.added', output_index: 1, item: later },
        { type: 'response.output_item.done', output_index: 1, item: later },
      ),
    ).toEqual([
      ['a', false],
      ['b', false],
    ]);
    const anonymous = { ...item, call_id: undefined };
    expect(verdict({ type: 'response.output_item.added', output_index: 1, item: anonymous }, completed)).toEqual([
      ['a', false],
    ]);
  });

  it('a stream that ended without a terminal event broke off: every call is incomplete', () => {
    expect(streamed([])).toEqual([false, false]);
    expect(streamed([{ type: 'error', code: 'server_error', message: 'x' }])).toEqual([false, false]);
    // The terminal event's response says the status, as the whole reader reads it.
    expect(streamed([{ type: 'response.completed', response: { status: 'incomplete' } }])).toEqual([false, false]);
  });

  it.each([['cancelled'], ['in_progress'], ['queued'], ['something_new']])(
    'a whole response with status %p is not a whole turn either',
    (status) => {
      expect(whole(status)).toEqual([false, false]);
    },
  );
});

function captured(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
}
