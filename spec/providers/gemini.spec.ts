import type { Content, GenerateContentParameters, GenerateContentResponse, Part } from '@google/genai';
import { Failure, FuncTool, Output, Registry, ToolError } from '../../lib/protocol';
import type { Definition, JsonValue } from '../../lib/protocol';
import {
  describeInvalidArguments,
  exportGeminiFunctionDeclarations,
  geminiFunctionCalls,
  geminiFunctionResponse,
  geminiFunctionResponseContent,
  geminiTools,
  prepareToolCall,
} from '../../lib/providers';

const weather: Definition = {
  name: 'get_weather',
  description: 'Weather for a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
    additionalProperties: false,
  },
};

const response = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris', days: 2 } } },
          { functionCall: { name: 'get_weather' } },
        ],
      },
    },
  ],
} as GenerateContentResponse;

describe('geminiTools', () => {
  it('projects definitions to functionDeclarations with parametersJsonSchema, typed as the SDK request', () => {
    const tools = geminiTools([weather]);
    expect(tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather for a city', parametersJsonSchema: weather.inputSchema },
        ],
      },
    ]);
    const params: GenerateContentParameters = {
      model: 'gemini-2.5-flash',
      contents: 'Weather in Paris?',
      config: { tools },
    };
    expect(params.config?.tools).toBe(tools);
  });

  it('reports the keywords Gemini ignores, with the tool and the pointer', () => {
    const { notes } = exportGeminiFunctionDeclarations([weather]);
    expect(notes.map((n) => [n.pointer, n.keyword, n.action])).toEqual([['/properties/city', 'minLength', 'ignored']]);
    expect(notes[0].message).toMatch(/^tool "get_weather": /);
    expect(notes[0].message).toContain('/properties/city: ');
    expect(notes[0].message).toContain('"minLength"');
  });

  it.each([
    [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, 'oneOf'],
    [{ enum: ['a', true] }, 'enum'],
    [{ $ref: '#/$defs/X', minLength: 2 }, '$ref'],
    [{ type: 'object', allOf: [{ properties: { a: { type: 'string' } } }] }, 'allOf'],
  ])('refuses a schema Gemini would misread at export time (%#)', (member, keyword) => {
    const definition: Definition = {
      name: 'odd',
      inputSchema: { type: 'object', properties: { v: member }, $defs: { X: { type: 'string' } } },
    };
    expect(() => geminiTools([definition])).toThrow(ToolError);
    // Which tool, where in its schema, and which keyword.
    expect(() => geminiTools([definition])).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_DEFINITION',
        message: expect.stringContaining(`tool "odd": /properties/v: keyword "${keyword}"`),
      }),
    );
  });
});

describe('geminiFunctionCalls', () => {
  it('serializes object args once and keeps order; a missing id is empty and missing args are {}', () => {
    expect(geminiFunctionCalls(response)).toEqual([
      { id: 'fc-1', request: { name: 'get_weather', arguments: '{"city":"Paris","days":2}' }, complete: true },
      { id: '', request: { name: 'get_weather', arguments: '{}' }, complete: true },
    ]);
    expect(geminiFunctionCalls({})).toEqual([]);
    expect(geminiFunctionCalls(response, 3)).toEqual([]);
  });

  it('marks args that are not JSON data as malformed, naming the part, and keeps its siblings', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = {
      candidates: [
        {
          content: {
            parts: [{ functionCall: { name: 'n', args: cyclic } }, { functionCall: { name: 'n', args: {} } }],
          },
        },
      ],
    };
    expect(geminiFunctionCalls(bad)).toEqual([
      {
        id: '',
        request: { name: 'n', arguments: 'null' },
        malformed: expect.stringContaining('parts[0].functionCall.args'),
        complete: true,
      },
      { id: '', request: { name: 'n', arguments: '{}' }, complete: true },
    ]);
  });

  it('reads args nested 5,000 deep beside a valid sibling, and admits both', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = [deep];
    const parts = [
      { functionCall: { id: 'fc-deep', name: 'probe', args: { deep } } },
      { functionCall: { id: 'fc-flat', name: 'probe', args: { deep: 2 } } },
    ];
    const calls = geminiFunctionCalls({ candidates: [{ content: { parts } }] });
    expect(calls.map((c) => [c.id, c.malformed])).toEqual([
      ['fc-deep', undefined],
      ['fc-flat', undefined],
    ]);
    expect(calls[0].request.arguments).toBe(`{"deep":${'['.repeat(5_000)}1${']'.repeat(5_000)}}`);
    const ran = jest.fn(() => 'ok');
    const registry = new Registry(
      FuncTool.create({ name: 'probe', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, ran),
    );
    for (const call of calls) {
      const { binding, invocation } = prepareToolCall(registry, call);
      await binding.call(invocation);
    }
    expect(ran).toHaveBeenCalledTimes(2);
  });
});

describe('geminiFunctionResponse', () => {
  const call = { id: 'fc-1', request: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

  it('answers with output (text, or details as JSON) and echoes id and name', () => {
    expect(geminiFunctionResponse(call, { result: { output: Output.text('Sunny') } })).toEqual({
      functionResponse: { id: 'fc-1', name: 'get_weather', response: { output: 'Sunny' } },
    });
    expect(geminiFunctionResponse({ ...call, id: '' }, { result: { output: Output.json('{"temp": 22}') } })).toEqual({
      functionResponse: { name: 'get_weather', response: { output: { temp: 22 } } },
    });
  });

  it('sends media as function response parts', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'chart' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } } },
        { kind: 'media', media: { mime: 'application/pdf', source: { kind: 'uri', uri: 'gs://bucket/r.pdf' } } },
      ],
    });
    expect(geminiFunctionResponse(call, { result: { output } }).functionResponse).toEqual({
      id: 'fc-1',
      name: 'get_weather',
      response: { output: 'chart' },
      parts: [
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://bucket/r.pdf' } },
      ],
    });
  });

  it('puts errors under response.error, without causes or stacks', () => {
    const failure = new Failure({
      kind: 'rejected',
      output: Output.text('error: not allowed'),
      cause: new Error('token=s3cret'),
    });
    const part: Part = geminiFunctionResponse(call, { error: failure });
    expect(part.functionResponse?.response).toEqual({ error: 'error: not allowed' });
    expect(JSON.stringify(geminiFunctionResponse(call, { error: new Error('s3cret') }))).not.toContain('s3cret');
  });

  it('round-trips a call through admission into the user turn that answers it', async () => {
    const tool = FuncTool.create(
      { name: 'get_weather', inputSchema: weather.inputSchema, decode: (v: JsonValue) => v as { city: string } },
      (i: { city: string }) => `Sunny in ${i.city}`,
    );
    const registry = new Registry(tool);
    const parts: Part[] = [];
    const errors: ToolError[] = [];
    for (const proposed of geminiFunctionCalls(response)) {
      try {
        const { binding, invocation } = prepareToolCall(registry, proposed);
        parts.push(geminiFunctionResponse(proposed, { result: await binding.call(invocation) }));
      } catch (error) {
        errors.push(error as ToolError);
        parts.push(geminiFunctionResponse(proposed, { error }));
      }
    }
    expect(errors.map((e) => e.issues)).toEqual([
      [expect.objectContaining({ keyword: 'required', params: { missingProperty: 'city' } })],
    ]);
    const turn: Content = geminiFunctionResponseContent(parts);
    expect(turn.role).toBe('user');
    expect(turn.parts?.map((p) => p.functionResponse?.response)).toEqual([
      { output: 'Sunny in Paris' },
      { error: describeInvalidArguments('get_weather', errors[0]) },
    ]);
  });
});
