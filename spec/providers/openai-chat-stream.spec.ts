import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { OpenAIChatStreamAssembler } from '../../lib/providers';
import { assembled, assembledSse } from './fixtures';

function chunk(
  toolCalls: ChatCompletionChunk.Choice.Delta.ToolCall[],
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
  index = 0,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-4o-mini',
    choices: [{ index, delta: { tool_calls: toolCalls }, finish_reason: finish }],
  };
}

describe('OpenAIChatStreamAssembler', () => {
  it('concatenates argument fragments per index and orders parallel calls by index', () => {
    const chunks = [
      chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_current_weather', arguments: '' } }]),
      chunk([
        { index: 1, id: 'call_b', type: 'function', function: { name: 'get_current_weather', arguments: '{"loc' } },
      ]),
      chunk([{ index: 0, function: { arguments: '{\n"location": ' } }]),
      chunk([
        { index: 0, function: { arguments: '"Boston, MA"\n}' } },
        { index: 1, function: { arguments: 'ation":"Paris"}' } },
      ]),
      chunk([], 'tool_calls'),
    ];
    expect(assembled(new OpenAIChatStreamAssembler(), chunks)).toEqual([
      {
        id: 'call_a',
        request: { name: 'get_current_weather', arguments: '{\n"location": "Boston, MA"\n}' },
        complete: true,
      },
      { id: 'call_b', request: { name: 'get_current_weather', arguments: '{"location":"Paris"}' }, complete: true },
    ]);
  });

  it('yields partial arguments, marked incomplete, when the stream stops for length', () => {
    const chunks = [
      chunk([
        { index: 0, id: 'call_a', type: 'function', function: { name: 'make_file', arguments: '{"filename": "ta' } },
      ]),
      chunk([], 'length'),
    ];
    expect(assembled(new OpenAIChatStreamAssembler(), chunks)).toEqual([
      { id: 'call_a', request: { name: 'make_file', arguments: '{"filename": "ta' }, complete: false },
    ]);
  });

  it('leaves the calls incomplete when call text or another reason follows the finish reason', () => {
    // Regression (second review): `length`, then `tool_calls` with the rest of the arguments, gave a
    // complete call; the choice had ended at `length`.
    const first = chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a":' } }]);
    const verdict = (...chunks: ChatCompletionChunk[]) =>
      assembled(new OpenAIChatStreamAssembler(), [first, ...chunks]).map((c) => c.complete);
    expect(verdict(chunk([], 'length'), chunk([{ index: 0, function: { arguments: '1}' } }], 'tool_calls'))).toEqual([
      false,
    ]);
    expect(verdict(chunk([{ index: 0, function: { arguments: '1}' } }], 'tool_calls'), chunk([], 'length'))).toEqual([
      false,
    ]);
    expect(verdict(chunk([], 'tool_calls'), chunk([{ index: 0, function: { arguments: ' ' } }]))).toEqual([false]);
    // The reason in the chunk with the last text, or said twice, is a finish.
    expect(
      verdict(chunk([{ index: 0, function: { arguments: '1}' } }], 'tool_calls'), chunk([], 'tool_calls')),
    ).toEqual([true]);
  });

  it('follows only the requested choice and never throws on malformed chunks', () => {
    const assembler = new OpenAIChatStreamAssembler(1);
    for (const bad of [
      null,
      'x',
      { choices: 'no' },
      { choices: [null, { index: 1, delta: { tool_calls: [{ index: 'x' }] } }] },
    ]) {
      expect(() => assembler.push(bad)).not.toThrow();
    }
    assembler.push(chunk([{ index: 0, id: 'other', function: { name: 'x', arguments: '{}' } }], 'tool_calls', 0));
    assembler.push(chunk([{ index: 0, id: 'mine', function: { name: 'y', arguments: '{}' } }], 'stop', 1));
    // The entry of the followed choice without index nor id belongs to no call: it holds the batch.
    expect(assembler.toolCalls()).toEqual([{ id: 'mine', request: { name: 'y', arguments: '{}' }, complete: false }]);
    const clean = new OpenAIChatStreamAssembler(1);
    clean.push(chunk([{ index: 0, id: 'other', function: { name: 'x', arguments: '{}' } }], 'tool_calls', 0));
    clean.push(chunk([{ index: 0, id: 'mine', function: { name: 'y', arguments: '{}' } }], 'stop', 1));
    expect(clean.toolCalls()).toEqual([{ id: 'mine', request: { name: 'y', arguments: '{}' }, complete: true }]);
  });

  it('skips a call that never got a string id, and holds its batch (a call with id 7 vanished, its sibling ran)', () => {
    // Regression (third review, findings 4 and 7).
    const sibling = chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }]);
    for (const odd of [
      chunk([{ index: 1, id: 7, type: 'function', function: { name: 'wipe', arguments: '{}' } } as never]),
      chunk([{ index: 1, type: 'function', function: { name: 'no_id', arguments: '{}' } }]),
    ]) {
      expect(assembled(new OpenAIChatStreamAssembler(), [sibling, odd, chunk([], 'tool_calls')])).toEqual([
        { id: 'call_a', request: { name: 'f', arguments: '{}' }, complete: false },
      ]);
    }
  });

  it('marks a finished call whose deltas never carried arguments text, and keeps a call that never got a name', () => {
    const chunks = [
      chunk([
        {
          index: 0,
          id: 'call_a',
          type: 'function',
          function: { name: 'get_current_weather', arguments: null },
        } as never,
      ]),
      chunk([{ index: 1, id: 'call_b', type: 'function', function: { arguments: '{}' } }]),
      chunk([], 'tool_calls'),
    ];
    expect(assembled(new OpenAIChatStreamAssembler(), chunks)).toEqual([
      {
        id: 'call_a',
        request: { name: 'get_current_weather', arguments: 'null' },
        complete: true,
        malformed: expect.stringContaining('no function.arguments text'),
      },
      { id: 'call_b', request: { name: '', arguments: '{}' }, complete: true },
    ]);
    // Cut off before the arguments: incomplete wins (prepareToolCall says the stream ended).
    expect(assembled(new OpenAIChatStreamAssembler(), [chunks[0], chunk([], 'length')])).toEqual([
      { id: 'call_a', request: { name: 'get_current_weather', arguments: '' }, complete: false },
    ]);
  });

  // Regression (review b, finding 1): entries without `index` (Gemini's OpenAI-compatible endpoint)
  // were dropped, so the model's call was never answered.
  it('reads entries without index: each with an id is a call, one without continues the last', () => {
    const gemini =
      'data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\\"location\\":\\"Sydney\\"}"}}]}}]}\n\n' +
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    expect(assembledSse(new OpenAIChatStreamAssembler(), gemini)).toEqual([
      { id: 'call_1', request: { name: 'get_weather', arguments: '{"location":"Sydney"}' }, complete: true },
    ]);
    const unindexed = (id: string | undefined, name: string | undefined, args: string) =>
      ({ ...(id === undefined ? {} : { id }), type: 'function', function: { name, arguments: args } }) as never;
    const orphan = chunk([unindexed(undefined, undefined, '{"orphan":1}')]);
    const chunks = [
      chunk([unindexed('b', 'f', '{"x"'), unindexed(undefined, undefined, ':1}')]),
      chunk([{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }]),
      chunk([unindexed('c', 'f', '{}'), unindexed('c', 'f', '{}')]),
      chunk([], 'tool_calls'),
    ];
    expect(assembled(new OpenAIChatStreamAssembler(), chunks)).toEqual([
      { id: 'a', request: { name: 'f', arguments: '{}' }, complete: true },
      { id: 'b', request: { name: 'f', arguments: '{"x":1}' }, complete: true },
      {
        id: 'c',
        request: { name: 'f', arguments: 'null' },
        complete: true,
        malformed: expect.stringMatching(/^duplicate call id "c": 2 calls share it/),
      },
    ]);
    // An entry before any call it could continue belongs to none: skipped, and it holds the batch.
    expect(assembled(new OpenAIChatStreamAssembler(), [orphan, ...chunks]).map((c) => c.complete)).toEqual([
      false,
      false,
      false,
    ]);
  });

  // Regression (review b, finding 5): a later delta naming another function was ignored, so the
  // call ran as read_file while the openai SDK's accumulator keeps the last name, delete_file.
  it('makes a call the stream gave two tool names malformed; the same name repeated is one name', () => {
    const chunks = [
      chunk([{ index: 0, id: 'c1', type: 'function', function: { name: 'read_file', arguments: '' } }]),
      chunk([{ index: 0, function: { name: 'delete_file', arguments: '{"p":"/x"}' } }]),
      chunk([{ index: 1, id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{' } }]),
      chunk([{ index: 1, function: { name: 'read_file', arguments: '}' } }]),
      chunk([], 'tool_calls'),
    ];
    expect(assembled(new OpenAIChatStreamAssembler(), chunks)).toEqual([
      {
        id: 'c1',
        request: { name: 'read_file', arguments: 'null' },
        complete: true,
        // The wording of conflictingNameCall (lib/providers/tool-call.ts), pinned here once.
        malformed:
          'duplicate call id "c1": the stream gave it the tool names "read_file", "delete_file", so the call did not run',
      },
      { id: 'c2', request: { name: 'read_file', arguments: '{}' }, complete: true },
    ]);
  });

  it('assembles a recorded SSE text ending with [DONE]', () => {
    const sse = [
      chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a"' } }]),
      chunk([{ index: 0, function: { arguments: ':1}' } }], 'tool_calls'),
    ]
      .map((c) => `data: ${JSON.stringify(c)}\n\n`)
      .join('');
    expect(assembledSse(new OpenAIChatStreamAssembler(), `${sse}data: [DONE]\n\n`)).toEqual([
      { id: 'call_a', request: { name: 'f', arguments: '{"a":1}' }, complete: true },
    ]);
  });
});
