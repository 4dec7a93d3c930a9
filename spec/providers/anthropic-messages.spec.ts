import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
  ToolResultBlockParam,
  ToolUnion,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import { CallError, Failure, FuncTool, InputRequest, Output, Registry, ToolError } from '../../lib/protocol';
import type { Definition, JsonValue } from '../../lib/protocol';
import {
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
  prepareToolCall,
} from '../../lib/providers';
import { mediaNote } from '../../lib/providers/outcome';
import { fixtureJson } from './fixtures';

const testTool: Definition = {
  name: 'test_tool',
  description: 'A test tool',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { value: { type: 'string' } },
    required: ['value'],
    additionalProperties: false,
  },
};

describe('anthropicTools', () => {
  it('projects a definition to the tools entry of the recorded request (which adds type "custom")', () => {
    const request = fixtureJson<MessageCreateParamsNonStreaming>('messages_request_with_tools.json');
    const tools: ToolUnion[] = anthropicTools([testTool]);
    const { type, ...recorded } = request.tools?.[0] as Tool;
    expect(type).toBe('custom');
    expect(tools).toEqual([recorded]);
  });

  it('omits the description when absent and refuses a non-object schema', () => {
    expect(anthropicTools([{ name: 'ping', inputSchema: { type: 'object' } }])).toEqual([
      { name: 'ping', input_schema: { type: 'object' } },
    ]);
    expect(() => anthropicTools([{ name: 'odd', inputSchema: {} }])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_DEFINITION', message: expect.stringContaining('tool "odd"') }),
    );
  });
});

describe('anthropicToolCalls', () => {
  it('reads the single recorded tool_use, serializing its input once', () => {
    const message = fixtureJson<Message>('messages_response_tool_use.json');
    expect(anthropicToolCalls(message)).toEqual([
      {
        id: 'toolu_011LF2VkWpAfJnTKJcmh1PNf',
        request: { name: 'test_tool', arguments: '{"value":"test"}' },
        complete: true,
      },
    ]);
  });

  it('reads the recorded parallel pair in order', () => {
    const message = fixtureJson<Message>('messages_response_parallel_tool_use.json');
    expect(anthropicToolCalls(message)).toEqual([
      {
        id: 'toolu_01L8GVQapA1HmggQcrwboukH',
        request: { name: 'test_tool', arguments: '{"count":1}' },
        complete: true,
      },
      {
        id: 'toolu_01J5Fvzxu7DP1Uh59c1kr5JD',
        request: { name: 'test_tool', arguments: '{"count":2}' },
        complete: true,
      },
    ]);
  });

  it('marks an input that is not JSON data as malformed, naming the block, and keeps its siblings', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const message = {
      content: [
        { type: 'text' },
        { type: 'tool_use', id: 'toolu_x', name: 'n', input: cyclic },
        { type: 'tool_use', id: 'toolu_y', name: 'n', input: { v: Infinity } },
        { type: 'tool_use', id: 'toolu_z', name: 'n', input: { v: 1 } },
      ],
    };
    expect(anthropicToolCalls(message)).toEqual([
      {
        id: 'toolu_x',
        request: { name: 'n', arguments: 'null' },
        malformed: expect.stringMatching(/^content\[1\]\.input .*\/self: /),
        complete: true,
      },
      {
        id: 'toolu_y',
        request: { name: 'n', arguments: 'null' },
        malformed: expect.stringMatching(/^content\[2\]\.input .*\/v: /),
        complete: true,
      },
      { id: 'toolu_z', request: { name: 'n', arguments: '{"v":1}' }, complete: true },
    ]);
  });

  it('reads an input nested 5,000 deep beside valid siblings; each call stands alone', async () => {
    // The recorded parallel pair, the first input replaced by one JSON.stringify overflows on.
    const message = fixtureJson<Message>('messages_response_parallel_tool_use.json');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5_000; i++) deep = { d: deep };
    let tooDeep: unknown = 0;
    for (let i = 0; i < 10_001; i++) tooDeep = [tooDeep];
    const [first, second] = message.content.filter((b) => b.type === 'tool_use') as ToolUseBlock[];
    message.content = [
      { ...first, input: { count: 1, deep } },
      second,
      { ...first, id: 'toolu_deeper', input: { count: 3, deep: tooDeep } },
    ];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);

    const ran = jest.fn((input: { count: number }) => `count ${input.count}`);
    const counter = FuncTool.create(
      {
        name: 'test_tool',
        inputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
        decode: (v: JsonValue) => v as { count: number },
      },
      ran,
    );
    const registry = new Registry(counter);
    const calls = anthropicToolCalls(message);
    expect(calls.map((c) => c.id)).toEqual([first.id, second.id, 'toolu_deeper']);
    expect(calls[0].request.arguments.startsWith('{"count":1,"deep":{"d":{"d":')).toBe(true);
    expect(calls[1]).toEqual({
      id: second.id,
      request: { name: 'test_tool', arguments: '{"count":2}' },
      complete: true,
    });
    // Which field, and the JSON Pointer clipped around `...`.
    expect(calls[2].malformed).toMatch(/^content\[2\]\.input /);
    expect(calls[2].malformed).toMatch(/\/deep\/0\/0\/.*\.\.\./);
    expect(calls[2].malformed!.length).toBeLessThan(300);

    const results: ToolResultBlockParam[] = [];
    for (const call of calls) {
      try {
        const { binding, invocation } = prepareToolCall(registry, call);
        results.push(anthropicToolResult(call, { result: await binding.call(invocation) }));
      } catch (error) {
        results.push(anthropicToolResult(call, { error }));
      }
    }
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      [first.id, false],
      [second.id, false],
      ['toolu_deeper', true],
    ]);
    expect(ran.mock.calls.map(([input]) => input.count)).toEqual([1, 2]);
  });
});

describe('anthropicToolResult', () => {
  const call = { id: 'toolu_011LF2VkWpAfJnTKJcmh1PNf', request: { name: 'test_tool', arguments: '{"value":"test"}' } };

  it('answers the recorded call exactly as the recorded follow-up request does', () => {
    const request = fixtureJson<MessageCreateParamsNonStreaming>('messages_request_with_tool_result.json');
    const message: MessageParam = anthropicToolResultMessage([
      anthropicToolResult(call, { result: { output: Output.text('Tool result') } }),
    ]);
    expect(message).toEqual(request.messages[2]);
    const params: MessageCreateParamsNonStreaming = {
      model: request.model,
      max_tokens: request.max_tokens,
      messages: [...request.messages.slice(0, 2), message],
      tools: anthropicTools([testTool]),
    };
    expect(params.messages).toHaveLength(3);
  });

  it('marks a failure as is_error with its output text', () => {
    const failure = new Failure({
      kind: 'failed',
      output: Output.text('error: no such city'),
      cause: new Error('secret'),
    });
    const block: ToolResultBlockParam = anthropicToolResult(call, { error: failure });
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: 'error: no such city',
      is_error: true,
    });
  });

  it('renders an empty failure output as "tool: <kind>"', () => {
    expect(anthropicToolResult(call, { error: new Failure({ kind: 'rejected' }) }).content).toBe('tool: rejected');
  });

  it('keeps a CallError message, cause and evidence out of the result', () => {
    const error = new CallError({
      cause: new Error('token sk-SECRET-123 rejected'),
      evidence: Output.text('wrote row 7 with sk-SECRET-123'),
    });
    const block = anthropicToolResult(call, { error });
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: 'error: tool "test_tool" failed',
      is_error: true,
    });
  });

  it('sends images as image blocks and other media as a note', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'two charts' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } } },
        { kind: 'media', media: { mime: 'image/jpeg', source: { kind: 'uri', uri: 'https://example.com/a.jpg' } } },
        { kind: 'media', media: { mime: 'application/pdf', source: { kind: 'reference', ref: 'file-1' } } },
      ],
    });
    expect(anthropicToolResult(call, { result: { output } })).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: [
        { type: 'text', text: 'two charts' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        { type: 'text', text: mediaNote('application/pdf') },
      ],
    });
  });

  it('refuses a suspended call (an InputRequest is not a tool result)', () => {
    const inputRequest = InputRequest.create({
      prompt: '"Approve?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{}',
    });
    expect(() => anthropicToolResult(call, { result: { inputRequest } })).toThrow(ToolError);
    expect(() => anthropicToolResult(call, { result: { inputRequest } })).toThrow(
      /InputRequest\.continuation\(answer\)/,
    );
  });
});
