import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { FuncTool, Registry, ToolError, bind, hasErrorCode } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import {
  AnthropicStreamAssembler,
  anthropicToolResult,
  describeInvalidArguments,
  parseServerSentJson,
  prepareToolCall,
} from '../../lib/providers';
import { assembled, assembledSse, fixtureText } from './fixtures';

describe('AnthropicStreamAssembler on recorded streams', () => {
  it('assembles the recorded complete stream into one get_weather call', () => {
    expect(assembledSse(new AnthropicStreamAssembler(), fixtureText('tool_use_response.sse'))).toEqual([
      {
        id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
        request: { name: 'get_weather', arguments: '{"location": "Paris"}' },
        complete: true,
      },
    ]);
  });

  it('yields the partial arguments of the recorded stream cut off by max_tokens, marked incomplete', () => {
    const [call, ...rest] = assembledSse(
      new AnthropicStreamAssembler(),
      fixtureText('incomplete_partial_json_response.sse'),
    );
    expect(rest).toEqual([]);
    expect(call.id).toBe('toolu_01EKqbqmZrGRXy18eN7m9kvY');
    expect(call.request.name).toBe('make_file');
    expect(call.complete).toBe(false);
    // Every recorded input_json_delta, in order, and nothing else.
    const recorded = (
      parseServerSentJson(fixtureText('incomplete_partial_json_response.sse')) as RawMessageStreamEvent[]
    )
      .flatMap((e) =>
        e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : [],
      )
      .join('');
    expect(recorded).not.toBe('');
    expect(call.request.arguments).toBe(recorded);
    expect(() => JSON.parse(call.request.arguments)).toThrow(SyntaxError);
  });

  it('turns the truncated call into an admission refusal the model is told about (is_error)', () => {
    const [call] = assembledSse(new AnthropicStreamAssembler(), fixtureText('incomplete_partial_json_response.sse'));
    const makeFile = bind(
      FuncTool.create(
        {
          name: 'make_file',
          inputSchema: {
            type: 'object',
            properties: { filename: { type: 'string' }, lines_of_text: { type: 'array', items: { type: 'string' } } },
            required: ['filename', 'lines_of_text'],
          },
          decode: (value: JsonValue) => value,
        },
        () => 'written',
      ),
    );
    let error: unknown;
    try {
      makeFile.contract.prepare(call.request);
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, 'ERR_INVALID_INVOCATION')).toBe(true);
    const block = anthropicToolResult(call, { error });
    expect(block.is_error).toBe(true);
    expect((error as ToolError).issues).toEqual([
      expect.objectContaining({ code: 'invalid_json', path: ['lines_of_text', 4], offset: 136 }),
    ]);
    expect(block.content).toBe(describeInvalidArguments('make_file', error as ToolError));
  });
});

describe('AnthropicStreamAssembler', () => {
  const start = (index: number, id: string): RawMessageStreamEvent => ({
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id, name: 'n', input: {}, caller: { type: 'direct' } },
  });
  const delta = (index: number, partial_json: string): RawMessageStreamEvent => ({
    type: 'content_block_delta',
    index,
    delta: { type: 'input_json_delta', partial_json },
  });
  const stop = (index: number): RawMessageStreamEvent => ({ type: 'content_block_stop', index });
  /** The message's end: without a stop_reason the stream broke off, and no call is complete. */
  const end = { type: 'message_delta', delta: { stop_reason: 'tool_use' } } as RawMessageStreamEvent;

  it('uses the start input when a stopped block streamed no text, as the SDK does', () => {
    expect(assembled(new AnthropicStreamAssembler(), [start(0, 'a'), delta(0, ''), stop(0), end])).toEqual([
      { id: 'a', request: { name: 'n', arguments: '{}' }, complete: true },
    ]);
  });

  it('never turns a start input that is not JSON data into {}, and writes a 5,000-deep one; siblings stand alone', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 5_000; i++) deep = [deep];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const begin = (index: number, id: string, input: unknown): RawMessageStreamEvent =>
      ({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: 'n', input, caller: { type: 'direct' } },
      }) as RawMessageStreamEvent;
    const calls = assembled(new AnthropicStreamAssembler(), [
      begin(0, 'a', cyclic),
      stop(0),
      begin(1, 'b', { deep }),
      stop(1),
      start(2, 'c'),
      stop(2),
      end,
    ]);
    expect(calls[0]).toEqual({
      id: 'a',
      request: { name: 'n', arguments: 'null' },
      complete: true,
      malformed: expect.stringMatching(/^content block 0 input .*\/self: /),
    });
    expect(calls[1].request.arguments).toBe(`{"deep":${'['.repeat(5_000)}0${']'.repeat(5_000)}}`);
    expect(calls[2]).toEqual({ id: 'c', request: { name: 'n', arguments: '{}' }, complete: true });
  });

  it('keeps interleaved parallel blocks apart, ordered by index, and ignores deltas after stop', () => {
    const events = [
      start(2, 'b'),
      start(1, 'a'),
      delta(2, '{"y"'),
      delta(1, '{"x":1}'),
      delta(2, ':2}'),
      stop(1),
      stop(2),
      delta(1, 'late'),
      end,
    ];
    expect(assembled(new AnthropicStreamAssembler(), events)).toEqual([
      { id: 'a', request: { name: 'n', arguments: '{"x":1}' }, complete: true },
      { id: 'b', request: { name: 'n', arguments: '{"y":2}' }, complete: true },
    ]);
  });

  it('never throws on malformed or hostile events', () => {
    const assembler = new AnthropicStreamAssembler();
    const hostile = {
      get type(): string {
        throw new Error('boom');
      },
      index: 0,
    };
    for (const event of [
      null,
      1,
      'x',
      {},
      { type: 'content_block_delta', index: 5 },
      hostile,
      { type: 'content_block_start', index: 0 },
    ]) {
      expect(() => assembler.push(event)).not.toThrow();
    }
    expect(assembler.toolCalls()).toEqual([]);
  });

  // Regression (review b, finding 3): the block that had stopped was complete, and ran, although the
  // model never finished the batch (the OpenAI Chat stream marks every call of such a choice).
  it('marks every call incomplete when the stream broke off before message_delta, stopped blocks too', () => {
    const events = [start(0, 't1'), delta(0, '{}'), stop(0), start(1, 't2'), delta(1, '{"x":')];
    const registry = new Registry(
      FuncTool.create({ name: 'n', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => 'ran'),
    );
    const calls = assembled(new AnthropicStreamAssembler(), events);
    expect(calls.map((c) => [c.id, c.complete])).toEqual([
      ['t1', false],
      ['t2', false],
    ]);
    expect(() => prepareToolCall(registry, calls[0])).toThrow(ToolError);
    // The message_stop alone gives no stop_reason either; message_delta's does.
    const stopped = [...events, stop(1), { type: 'message_stop' } as RawMessageStreamEvent];
    expect(assembled(new AnthropicStreamAssembler(), stopped).map((c) => c.complete)).toEqual([false, false]);
    expect(assembled(new AnthropicStreamAssembler(), [...stopped, end]).map((c) => c.complete)).toEqual([true, true]);
  });

  it('marks every call incomplete when a block never stopped or a stop_reason changed', () => {
    // Regression (second review): block 0 stopped and ran; block 1 never stopped and was refused;
    // then message_delta said tool_use. A batch with a block cut is not run in part.
    const events = [start(0, 't1'), delta(0, '{}'), stop(0), start(1, 't2'), delta(1, '{"x":'), end];
    expect(assembled(new AnthropicStreamAssembler(), events).map((c) => [c.id, c.complete])).toEqual([
      ['t1', false],
      ['t2', false],
    ]);
    // Nor does a later stop_reason undo an earlier one (max_tokens, then tool_use).
    const cut = { type: 'message_delta', delta: { stop_reason: 'max_tokens' } } as RawMessageStreamEvent;
    const whole = [start(0, 't1'), delta(0, '{}'), stop(0)];
    expect(assembled(new AnthropicStreamAssembler(), [...whole, cut, end]).map((c) => c.complete)).toEqual([false]);
    expect(assembled(new AnthropicStreamAssembler(), [...whole, end, end]).map((c) => c.complete)).toEqual([true]);
    // Nor a block after the stop reason, nor a tool_use block without an id (skipped): third review.
    expect(
      assembled(new AnthropicStreamAssembler(), [...whole, end, start(1, 't2'), delta(1, '{}'), stop(1)]).map(
        (c) => c.complete,
      ),
    ).toEqual([false, false]);
    const anonymous = {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', name: 'n', input: {} },
    };
    expect(
      assembled(new AnthropicStreamAssembler(), [...whole, anonymous as RawMessageStreamEvent, stop(1), end]).map(
        (c) => [c.id, c.complete],
      ),
    ).toEqual([['t1', false]]);
  });

  it('still reads the calls after the stream broke off, the cut one marked incomplete', () => {
    function* broken(): Generator<unknown> {
      yield start(0, 'a');
      yield delta(0, '{"a"');
      throw new Error('connection reset');
    }
    const assembler = new AnthropicStreamAssembler();
    expect(() => assembled(assembler, broken())).toThrow('connection reset');
    expect(assembler.toolCalls()).toEqual([{ id: 'a', request: { name: 'n', arguments: '{"a"' }, complete: false }]);
  });
});
