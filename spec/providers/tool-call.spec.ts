/**
 * Every call id yields exactly one result, and no tool runs on an ambiguous call. Calls sharing an
 * id come back from every reader and stream assembler as ONE call marked `malformed`
 * (`duplicate call id "x": ...`), which prepareToolCall refuses; a stream index that is given a
 * second, different id is malformed under each id it was given. One shared rule: `oneCallPerId`
 * (lib/providers/tool-call.ts).
 */
import {
  AnthropicStreamAssembler,
  OpenAIChatStreamAssembler,
  OpenAIResponsesStreamAssembler,
  anthropicToolCalls,
  anthropicToolResult,
  geminiFunctionCalls,
  openAIChatToolCalls,
  openAIFunctionCallOutput,
  openAIResponsesToolCalls,
  openAIToolMessage,
  prepareToolCall,
} from '../../lib/providers';
import type { AssembledToolCall, ToolOutcome } from '../../lib/providers';
import { FuncTool, Registry, ToolError, hasErrorCode } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';

/** Two open tools, `a` and `b`; `ran` counts every run. */
function tools() {
  const ran = jest.fn(() => 'ran');
  const tool = (name: string) =>
    FuncTool.create({ name, inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, ran);
  return { registry: new Registry(tool('a'), tool('b')), ran };
}

/** Answers every call as a runtime does: prepare, run, or render the refusal. Returns the answered ids. */
async function answerAll(
  registry: Registry,
  calls: readonly AssembledToolCall[],
  answer: (call: AssembledToolCall, outcome: ToolOutcome) => string,
): Promise<string[]> {
  const answered: string[] = [];
  for (const call of calls) {
    try {
      const { binding, invocation } = prepareToolCall(registry, call);
      answered.push(answer(call, { result: await binding.call(invocation) }));
    } catch (error) {
      expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
      expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
      // Regression (new-user trial, finding 14c): the issue code was `invalid_json`.
      expect((error as ToolError).issues.map((i) => i.code)).toEqual(['duplicate_call_id']);
      answered.push(answer(call, { error }));
    }
  }
  return answered;
}

const shape = (calls: readonly AssembledToolCall[]) =>
  calls.map((c) => [c.id, c.request.name, c.malformed?.replace(/:.*/, '')]);

describe('non-stream readers', () => {
  it('OpenAI Chat: two tool_calls with id "dup" are one refused call; the id gets one tool message', async () => {
    const { registry, ran } = tools();
    const completion = {
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            tool_calls: [
              { id: 'dup', type: 'function' as const, function: { name: 'a', arguments: '{}' } },
              { id: 'ok', type: 'function' as const, function: { name: 'a', arguments: '{}' } },
              { id: 'dup', type: 'function' as const, function: { name: 'b', arguments: '{"x":1}' } },
            ],
          },
        },
      ],
    };
    const calls = openAIChatToolCalls(completion);
    expect(shape(calls)).toEqual([
      ['dup', 'a', 'duplicate call id "dup"'],
      ['ok', 'a', undefined],
    ]);
    const messages: { tool_call_id: string; content: unknown }[] = [];
    expect(
      await answerAll(registry, calls, (call, outcome) => {
        const message = openAIToolMessage(call, outcome);
        messages.push(message);
        return message.tool_call_id;
      }),
    ).toEqual(['dup', 'ok']);
    expect(ran).toHaveBeenCalledTimes(1);
    // The one test of the wording the model reads.
    expect(messages[0].content).toBe(
      'error: duplicate call id "dup": 2 calls share it (tools "a", "b"), so none of them ran; ' +
        'make each call again that is still needed',
    );
  });

  it('Anthropic: two tool_use blocks with id "x" are one refused call', async () => {
    const { registry, ran } = tools();
    const calls = anthropicToolCalls({
      stop_reason: 'tool_use',
      content: [
        { type: 'tool_use', id: 'x', name: 'a', input: {} },
        { type: 'tool_use', id: 'x', name: 'a', input: { again: true } },
      ],
    });
    expect(shape(calls)).toEqual([['x', 'a', 'duplicate call id "x"']]);
    expect(
      await answerAll(registry, calls, (call, outcome) => {
        const block = anthropicToolResult(call, outcome);
        expect(block.is_error).toBe(true);
        return block.tool_use_id;
      }),
    ).toEqual(['x']);
    expect(ran).not.toHaveBeenCalled();
  });

  it('OpenAI Responses: two function_call items with one call_id are one refused call', async () => {
    const { registry, ran } = tools();
    const item = (name: string) => ({
      type: 'function_call',
      call_id: 'call_1',
      name,
      arguments: '{}',
      status: 'completed',
    });
    const calls = openAIResponsesToolCalls({ status: 'completed', output: [item('a'), item('b')] });
    expect(shape(calls)).toEqual([['call_1', 'a', 'duplicate call id "call_1"']]);
    expect(
      await answerAll(registry, calls, (call, outcome) => String(openAIFunctionCallOutput(call, outcome).call_id)),
    ).toEqual(['call_1']);
    expect(ran).not.toHaveBeenCalled();
  });

  it('Gemini: calls sharing an id are one; calls without an id (matched by name and order) are kept', () => {
    const parts = (id: string) => [
      { functionCall: { id, name: 'a', args: {} } },
      { functionCall: { id, name: 'a', args: {} } },
    ];
    expect(shape(geminiFunctionCalls({ candidates: [{ content: { parts: parts('fc') } }] }))).toEqual([
      ['fc', 'a', 'duplicate call id "fc"'],
    ]);
    const unnamed = geminiFunctionCalls({
      candidates: [
        { content: { parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'a', args: {} } }] } },
      ],
    });
    expect(shape(unnamed)).toEqual([
      ['', 'a', undefined],
      ['', 'a', undefined],
    ]);
  });
});

describe('stream assemblers', () => {
  const chatChunk = (tool_calls: unknown[], finish_reason: string | null = null) => ({
    choices: [{ index: 0, delta: { tool_calls }, finish_reason }],
  });

  it('OpenAI Chat: index 0 given id "a" then "b", index 1 id "a": ids "a" and "b" each get one refusal, nothing runs', async () => {
    const { registry, ran } = tools();
    const assembler = new OpenAIChatStreamAssembler();
    assembler.push(chatChunk([{ index: 0, id: 'a', type: 'function', function: { name: 'a', arguments: '' } }]));
    assembler.push(chatChunk([{ index: 0, id: 'b', function: { arguments: '{}' } }]));
    assembler.push(chatChunk([{ index: 1, id: 'a', type: 'function', function: { name: 'b', arguments: '{}' } }]));
    assembler.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    const calls = assembler.toolCalls();
    expect(shape(calls)).toEqual([
      ['a', 'a', 'duplicate call id "a"'],
      ['b', 'a', 'duplicate call id "b"'],
    ]);
    expect(calls.every((c) => c.complete)).toBe(true);
    expect(await answerAll(registry, calls, (call, outcome) => openAIToolMessage(call, outcome).tool_call_id)).toEqual([
      'a',
      'b',
    ]);
    expect(ran).not.toHaveBeenCalled();
  });

  it('OpenAI Chat: the same id repeated in every delta of one index is one call, and it runs', async () => {
    const { registry, ran } = tools();
    const assembler = new OpenAIChatStreamAssembler();
    assembler.push(chatChunk([{ index: 0, id: 'a', type: 'function', function: { name: 'a', arguments: '{' } }]));
    assembler.push(chatChunk([{ index: 0, id: 'a', function: { arguments: '}' } }], 'tool_calls'));
    expect(shape(assembler.toolCalls())).toEqual([['a', 'a', undefined]]);
    await answerAll(registry, assembler.toolCalls(), (call) => call.id);
    expect(ran).toHaveBeenCalledTimes(1);
  });

  it('OpenAI Responses: a second item at one output_index with another call_id, and two indexes sharing a call_id', () => {
    const added = (output_index: number, call_id: string) => ({
      type: 'response.output_item.added',
      output_index,
      item: { type: 'function_call', call_id, name: 'a', arguments: '' },
    });
    const done = (output_index: number, call_id: string) => ({
      type: 'response.output_item.done',
      output_index,
      item: { type: 'function_call', call_id, name: 'a', arguments: '{}', status: 'completed' },
    });
    const assembler = new OpenAIResponsesStreamAssembler();
    for (const event of [
      added(0, 'c1'),
      added(0, 'c2'),
      done(0, 'c1'),
      added(1, 'c3'),
      done(1, 'c3'),
      added(2, 'c3'),
      done(2, 'c3'),
    ])
      assembler.push(event);
    expect(shape(assembler.toolCalls())).toEqual([
      ['c1', 'a', 'duplicate call id "c1"'],
      ['c2', 'a', 'duplicate call id "c2"'],
      ['c3', 'a', 'duplicate call id "c3"'],
    ]);
  });

  it('OpenAI Responses: a second item added with the same call_id at the same output_index is one refused call', () => {
    const assembler = new OpenAIResponsesStreamAssembler();
    const item = (name: string, args: string) => {
      const done = { type: 'function_call', call_id: 'c1', name, arguments: args, status: 'completed' };
      assembler.push({ type: 'response.output_item.added', output_index: 0, item: { ...done, arguments: '' } });
      assembler.push({ type: 'response.output_item.done', output_index: 0, item: done });
    };
    item('a', '{"path":"/tmp/a"}');
    item('b', '{"path":"/etc"}');
    assembler.push({ type: 'response.completed', response: { status: 'completed', output: [] } });
    expect(shape(assembler.toolCalls())).toEqual([['c1', 'a', 'duplicate call id "c1"']]);
  });

  // Regression (review b, finding 4): the second start replaced the first block silently, so
  // delete_file ran where the application may have kept read_file.
  it('Anthropic: a second block started with the same id at the same index is one refused call', async () => {
    const { registry, ran } = tools();
    const assembler = new AnthropicStreamAssembler();
    const block = (name: string, json: string) => {
      assembler.push({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name, input: {} },
      });
      assembler.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: json },
      });
      assembler.push({ type: 'content_block_stop', index: 0 });
    };
    block('a', '{"path":"/tmp/a"}');
    block('b', '{"path":"/etc"}');
    assembler.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
    const calls = assembler.toolCalls();
    expect(calls).toEqual([
      {
        id: 't1',
        request: { name: 'a', arguments: 'null' },
        complete: true,
        malformed: 'duplicate call id "t1": 2 calls share it (tools "a", "b"), so none of them ran',
      },
    ]);
    expect(await answerAll(registry, calls, (call, outcome) => anthropicToolResult(call, outcome).tool_use_id)).toEqual(
      ['t1'],
    );
    expect(ran).not.toHaveBeenCalled();
  });

  it('Anthropic: two blocks sharing an id, and one block index given a second id', () => {
    const start = (index: number, id: string) => ({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id, name: 'a', input: {} },
    });
    const stop = (index: number) => ({ type: 'content_block_stop', index });
    const assembler = new AnthropicStreamAssembler();
    for (const event of [start(0, 't1'), stop(0), start(1, 't1'), stop(1), start(2, 't2'), start(2, 't3'), stop(2)])
      assembler.push(event);
    expect(shape(assembler.toolCalls())).toEqual([
      ['t1', 'a', 'duplicate call id "t1"'],
      ['t2', 'a', 'duplicate call id "t2"'],
      ['t3', 'a', 'duplicate call id "t3"'],
    ]);
  });
});
