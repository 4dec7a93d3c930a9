import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import { Failure, FuncTool, Output, Registry, ToolError, hasErrorCode, isAdmissionRefusal } from '../../lib/protocol';
import type { Definition, JsonValue } from '../../lib/protocol';
import {
  describeInvalidArguments,
  openAIChatToolCalls,
  openAIChatTools,
  openAIMessageToolCalls,
  openAIToolMessage,
  prepareToolCall,
} from '../../lib/providers';
import { mediaNote } from '../../lib/providers/outcome';
import { fixtureJson } from './fixtures';

const weather: Definition = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
};

describe('openAIChatTools', () => {
  it('projects a definition to exactly the tools entry of the recorded request', () => {
    const request = fixtureJson<ChatCompletionCreateParamsNonStreaming>('chat_completions_functions.request.json');
    const tools: ChatCompletionTool[] = openAIChatTools([weather]);
    expect(tools).toEqual(request.tools);
  });

  it('omits the description when the definition has none and copies the schema deeply', () => {
    const definition: Definition = { name: 'ping', inputSchema: { type: 'object', properties: {} } };
    const [tool] = openAIChatTools([definition]);
    expect(tool).toEqual({
      type: 'function',
      function: { name: 'ping', parameters: { type: 'object', properties: {} } },
    });
    expect('description' in tool.function).toBe(false);
    (tool.function.parameters as { properties: Record<string, unknown> }).properties.x = 1;
    expect(definition.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('refuses a schema that is not an object schema, naming the tool and the fix', () => {
    const definition: Definition = { name: 'odd', inputSchema: { type: 'array' } };
    expect(() => openAIChatTools([definition])).toThrow(ToolError);
    expect(() => openAIChatTools([definition])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_DEFINITION', message: expect.stringContaining('tool "odd"') }),
    );
  });
});

describe('openAIChatToolCalls', () => {
  it('reads the recorded call with its arguments string kept byte for byte', () => {
    const completion = fixtureJson<ChatCompletion>('chat_completions_functions.response.json');
    expect(openAIChatToolCalls(completion)).toEqual([
      {
        id: 'call_abc123',
        request: { name: 'get_current_weather', arguments: '{\n"location": "Boston, MA"\n}' },
        complete: true,
      },
    ]);
  });

  it('keeps parallel calls in order, skips custom tool calls and entries without an id, marks the rest', () => {
    const message = {
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'one', arguments: ' {"x":1} ' } },
        { id: 'c', type: 'custom', custom: { name: 'free', input: 'text' } },
        { id: 'd', type: 'function', function: { name: 'bad', arguments: { x: 1 } } },
        { type: 'function', function: { name: 'no_id', arguments: '{}' } },
        { id: 'e', function: { arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'two', arguments: '' } },
      ],
    } as never;
    expect(openAIMessageToolCalls(message)).toEqual([
      { id: 'a', request: { name: 'one', arguments: ' {"x":1} ' }, complete: true },
      {
        id: 'd',
        request: { name: 'bad', arguments: 'null' },
        // The wording of a malformed call, built in lib/providers/openai-chat.ts, pinned here once.
        malformed: 'function.arguments is an object, not a string of JSON text',
        complete: true,
      },
      { id: 'e', request: { name: '', arguments: '{}' }, complete: true },
      { id: 'b', request: { name: 'two', arguments: '' }, complete: true },
    ]);
  });

  it('never drops a call whose arguments are null or missing: every call id gets exactly one tool message', async () => {
    // The recorded completion, with two more parallel calls as OpenAI-compatible servers send them.
    const completion = fixtureJson<ChatCompletion>('chat_completions_functions.response.json');
    const [recorded] = completion.choices[0].message.tool_calls as ChatCompletionMessageFunctionToolCall[];
    const nulled = { ...recorded, id: 'call_null', function: { name: recorded.function.name, arguments: null } };
    const missing = { ...recorded, id: 'call_missing', function: { name: recorded.function.name } };
    completion.choices[0].message.tool_calls = [recorded, nulled, missing] as never;

    const ran = jest.fn((input: unknown) => `weather for ${JSON.stringify(input)}`);
    const registry = new Registry(FuncTool.create({ ...weather, decode: (value: JsonValue) => value }, ran));
    const calls = openAIChatToolCalls(completion);
    expect(calls.map((c) => c.id)).toEqual(['call_abc123', 'call_null', 'call_missing']);
    expect(calls[1]).toEqual({
      id: 'call_null',
      request: { name: 'get_current_weather', arguments: 'null' },
      malformed: expect.stringMatching(/^function\.arguments is null\b/),
      complete: true,
    });
    expect(calls[2].malformed).toMatch(/^function\.arguments is missing\b/);

    const messages: ChatCompletionToolMessageParam[] = [];
    const errors: ToolError[] = [];
    for (const call of calls) {
      try {
        const { binding, invocation } = prepareToolCall(registry, call);
        messages.push(openAIToolMessage(call, { result: await binding.call(invocation) }));
      } catch (error) {
        expect(error).toBeInstanceOf(ToolError);
        expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
        expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
        expect((error as ToolError).issues).toMatchObject([{ code: 'invalid_json', path: [] }]);
        errors.push(error as ToolError);
        messages.push(openAIToolMessage(call, { error }));
      }
    }
    expect(messages.map((m) => m.tool_call_id)).toEqual(['call_abc123', 'call_null', 'call_missing']);
    expect(ran).toHaveBeenCalledTimes(1);
    // The model reads why: the malformed field, in the one refusal text.
    expect(errors[0].issues[0].message).toContain(calls[1].malformed);
    expect(messages[1].content).toBe(describeInvalidArguments('get_current_weather', errors[0]));
    // A caller that skips prepareToolCall is refused too: `null` is no arguments object.
    expect(() => registry.resolve('get_current_weather')!.contract.prepare(calls[2].request)).toThrow(ToolError);
  });

  // Regression (hostile review, item 3): a number id dropped the call silently.
  it('keeps a call whose id is a number as a malformed call with that id as text, never run', () => {
    const ran = jest.fn(() => 'ran');
    const registry = new Registry(
      FuncTool.create({ name: 'one', inputSchema: { type: 'object' }, decode: (value: JsonValue) => value }, ran),
    );
    const message = {
      tool_calls: [
        { id: 7, type: 'function', function: { name: 'one', arguments: '{}' } },
        { id: null, type: 'function', function: { name: 'one', arguments: '{}' } },
        { id: 'a', type: 'function', function: { name: 'one', arguments: '{}' } },
      ],
    } as never;
    const calls = openAIMessageToolCalls(message);
    expect(calls.map((c) => [c.id, c.malformed === undefined])).toEqual([
      ['7', false],
      ['a', true],
    ]);
    expect(calls[0].request).toEqual({ name: 'one', arguments: 'null' });
    let refusal: unknown;
    try {
      prepareToolCall(registry, calls[0]);
    } catch (e) {
      refusal = e;
    }
    expect(isAdmissionRefusal(refusal)).toBe(true);
    expect(openAIToolMessage(calls[0], { error: refusal }).tool_call_id).toBe('7');
    expect(ran).not.toHaveBeenCalled();
  });

  it('returns no calls for a message without tool calls or a missing choice', () => {
    expect(openAIChatToolCalls({ choices: [] })).toEqual([]);
    expect(openAIChatToolCalls({ choices: [{ index: 0, message: { tool_calls: undefined } }] })).toEqual([]);
    expect(openAIChatToolCalls({ choices: [{ index: 0, message: {} }] }, 1)).toEqual([]);
  });
});

describe('openAIToolMessage', () => {
  const call = { id: 'call_abc123', request: { name: 'get_current_weather', arguments: '{}' } };

  it('sends a completed output as its text, typed as the SDK tool message', () => {
    const message: ChatCompletionToolMessageParam = openAIToolMessage(call, {
      result: { output: Output.json('{"temp":22}') },
    });
    expect(message).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: '{"temp":22}' });
  });

  it('builds a follow-up request the SDK types accept', () => {
    const completion = fixtureJson<ChatCompletion>('chat_completions_functions.response.json');
    const [proposed] = openAIChatToolCalls(completion);
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'What is the weather like in Boston today?' },
      { role: 'assistant', content: null, tool_calls: completion.choices[0].message.tool_calls },
      openAIToolMessage(proposed, { result: { output: Output.text('Sunny, 22 C') } }),
    ];
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-5.4',
      messages,
      tools: openAIChatTools([weather]),
    };
    expect(params.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: 'Sunny, 22 C' });
  });

  it('sends a failure as its output text (no error flag exists in this format)', () => {
    const failure = new Failure({
      kind: 'failed',
      output: Output.text('error: city not found'),
      cause: new Error('db password=hunter2'),
    });
    const message = openAIToolMessage(call, { error: failure });
    expect(message.content).toBe('error: city not found');
    expect(JSON.stringify(message)).not.toContain('hunter2');
  });

  it('explains media it cannot carry instead of dropping the message', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'chart: ' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } } },
      ],
    });
    expect(openAIToolMessage(call, { result: { output } }).content).toBe(`chart: ${mediaNote('image/png')}`);
  });
});
