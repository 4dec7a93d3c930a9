import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { FuncTool, InputRequest, Registry, ToolError, hasErrorCode, isAdmissionRefusal } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import {
  AnthropicStreamAssembler,
  MAX_LISTED_TOOLS,
  OpenAIChatStreamAssembler,
  anthropicToolCalls,
  anthropicToolResult,
  describeInvalidArguments,
  openAIToolMessage,
  prepareToolCall,
  renderOutcome,
} from '../../lib/providers';
import type { AssembledToolCall, ProviderToolCall } from '../../lib/providers';
import { assembled, assembledSse, fixtureText } from './fixtures';

/** A tool whose schema has no required members: `{}` is valid arguments for it. */
function noRequiredTool(name: string, fn: (input: unknown) => string = () => 'ran') {
  return FuncTool.create(
    {
      name,
      inputSchema: { type: 'object', properties: { verbose: { type: 'boolean' } }, additionalProperties: false },
      decode: (value: JsonValue) => value,
    },
    fn,
  );
}

function thrown(f: () => unknown): ToolError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return e as ToolError;
  }
  throw new Error('expected a ToolError');
}

const anthropicEvents = (id: string, name: string, fragments: string[], stop: boolean): RawMessageStreamEvent[] => [
  {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id, name, input: {}, caller: { type: 'direct' } },
  },
  ...fragments.map((partial_json): RawMessageStreamEvent => ({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json },
  })),
  // Stopped: the block, then the message (a stream without a stop_reason broke off).
  ...(stop
    ? [
        { type: 'content_block_stop', index: 0 } as RawMessageStreamEvent,
        { type: 'message_delta', delta: { stop_reason: 'tool_use' } } as RawMessageStreamEvent,
      ]
    : []),
];

describe('prepareToolCall on a stream that ended mid-arguments', () => {
  it('never runs a tool without required members on a truncated Anthropic call with empty partial_json', async () => {
    const fn = jest.fn(() => 'deleted everything');
    const registry = new Registry(noRequiredTool('purge_cache', fn));
    const [call] = assembled(new AnthropicStreamAssembler(), anthropicEvents('toolu_1', 'purge_cache', [''], false));
    expect(call).toEqual({ id: 'toolu_1', request: { name: 'purge_cache', arguments: '' }, complete: false });

    // The gap: Contract.prepare alone admits the blank arguments as {}.
    expect(registry.resolve('purge_cache')!.contract.prepare(call.request).arguments).toBe('{}');

    let outcome: { error: unknown } | undefined;
    try {
      const { binding, invocation } = prepareToolCall(registry, call);
      await binding.call(invocation);
    } catch (error) {
      outcome = { error };
    }
    expect(fn).not.toHaveBeenCalled();
    const error = outcome?.error as ToolError;
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(error.message).toContain('(0 characters received)');
    // Regression (new-user review): the message said "tool: invalid invocation: tool: invalid request:".
    expect(error.message.startsWith('tool: invalid invocation: invalid request: ')).toBe(true);
    // The wording of the incomplete-stream issue, built in lib/providers/prepare.ts, pinned here once.
    expect(error.issues).toEqual([
      {
        code: 'invalid_json',
        path: [],
        offset: 0,
        message: 'the stream ended before the arguments were complete (offset 0)',
      },
    ]);
    expect(anthropicToolResult(call, outcome!)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: describeInvalidArguments('purge_cache', error),
      is_error: true,
    });
  });

  it('refuses a truncated Anthropic call with no delta at all, and one with blank text', () => {
    const fn = jest.fn(() => 'ran');
    const registry = new Registry(noRequiredTool('purge_cache', fn));
    for (const fragments of [[], ['  ', '\n']]) {
      const [call] = assembled(
        new AnthropicStreamAssembler(),
        anthropicEvents('toolu_2', 'purge_cache', fragments, false),
      );
      expect(call.complete).toBe(false);
      const error = thrown(() => prepareToolCall(registry, call));
      expect(error.issues[0].code).toBe('invalid_json');
      expect(renderOutcome('purge_cache', { error })).toMatchObject({ kind: 'invalid_arguments', isError: true });
    }
    expect(fn).not.toHaveBeenCalled();
  });

  it('refuses a truncated OpenAI call (finish_reason length) whose arguments never arrived', () => {
    const fn = jest.fn(() => 'ran');
    const registry = new Registry(noRequiredTool('purge_cache', fn));
    const chunk = (
      tool_calls: ChatCompletionChunk.Choice.Delta.ToolCall[],
      finish_reason: ChatCompletionChunk.Choice['finish_reason'],
    ): ChatCompletionChunk => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { tool_calls }, finish_reason }],
    });
    const [call] = assembled(new OpenAIChatStreamAssembler(), [
      chunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'purge_cache', arguments: '' } }], null),
      chunk([], 'length'),
    ]);
    expect(call).toEqual({ id: 'call_1', request: { name: 'purge_cache', arguments: '' }, complete: false });
    const error = thrown(() => prepareToolCall(registry, call));
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_json', path: [], offset: 0 })]);
    expect(openAIToolMessage(call, { error })).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: describeInvalidArguments('purge_cache', error),
    });
    expect(fn).not.toHaveBeenCalled();
  });

  it('refuses an incomplete call even when its partial text happens to be a valid object', () => {
    const registry = new Registry(noRequiredTool('purge_cache'));
    const call: AssembledToolCall = {
      id: 'c',
      request: { name: 'purge_cache', arguments: '{"verbose":true}' },
      complete: false,
    };
    const error = thrown(() => prepareToolCall(registry, call));
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_json', path: [], offset: 16 })]);
  });

  it('says where the recorded max_tokens stream broke off', () => {
    const [call] = assembledSse(new AnthropicStreamAssembler(), fixtureText('incomplete_partial_json_response.sse'));
    const makeFile = FuncTool.create(
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
    );
    const error = thrown(() => prepareToolCall(new Registry(makeFile), call));
    expect(error.issues).toEqual([
      expect.objectContaining({ code: 'invalid_json', path: ['lines_of_text', 4], offset: 149 }),
    ]);
    expect(anthropicToolResult(call, { error })).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
      content: describeInvalidArguments('make_file', error),
      is_error: true,
    });
  });
});

describe('prepareToolCall on an unknown tool', () => {
  it('names the unknown tool and lists the registered ones, in message, issues and model text', () => {
    const registry = new Registry(noRequiredTool('c'), noRequiredTool('a'), noRequiredTool('b'));
    const call: ProviderToolCall = { id: 'toolu_x', request: { name: 'x', arguments: '{}' } };
    const error = thrown(() => prepareToolCall(registry, call));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    // The unknown-tool wording, built in lib/providers/prepare.ts, pinned here once.
    expect(error.issues).toEqual([
      {
        code: 'unknown_tool',
        path: [],
        message: 'unknown tool "x"; call one of: a, b, c',
        params: { tool: 'x', availableTools: ['a', 'b', 'c'], omittedTools: 0 },
      },
    ]);
    expect(renderOutcome('x', { error })).toMatchObject({ kind: 'unknown_tool', isError: true });
    const text = `error: ${error.issues[0].message}`;
    expect(error.message.endsWith(error.issues[0].message)).toBe(true);
    expect(anthropicToolResult(call, { error })).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_x',
      content: text,
      is_error: true,
    });
    expect(openAIToolMessage(call, { error }).content).toBe(text);
  });

  it('lists at most 20 names and counts the rest; an unknown tool wins over an incomplete stream', () => {
    const names = Array.from({ length: 23 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
    const registry = new Registry(...names.map((n) => noRequiredTool(n)));
    const call: AssembledToolCall = { id: 'c', request: { name: 'tool_99', arguments: '' }, complete: false };
    const error = thrown(() => prepareToolCall(registry, call));
    expect(MAX_LISTED_TOOLS).toBe(20);
    // Nearest first: tool_09 and tool_19 are one edit away, the rest two (alphabetical among them).
    const listed = ['tool_09', 'tool_19', ...names.filter((n) => n !== 'tool_09' && n !== 'tool_19').slice(0, 18)];
    expect(error.issues[0].params).toEqual({ tool: 'tool_99', availableTools: listed, omittedTools: 3 });
    const text = renderOutcome('tool_99', { error }).output.asText();
    expect(text).toBe(`error: ${error.issues[0].message}`);
    expect(text).toContain(`${listed.join(', ')} (and 3 more)`);
  });

  it('lists the nearest names first among 30 tools, though they sort past 20 alphabetically, and runs none', async () => {
    const ran = jest.fn(() => 'ran');
    const fillers = Array.from({ length: 28 }, (_, i) => `archive_${String(i).padStart(2, '0')}`);
    const registry = new Registry(...[...fillers, 'search_files', 'send_file'].map((n) => noRequiredTool(n, ran)));
    expect(
      registry
        .definitions()
        .map((d) => d.name)
        .indexOf('search_files'),
    ).toBeGreaterThanOrEqual(20);

    const error = thrown(() =>
      prepareToolCall(registry, { id: 'call_1', request: { name: 'serach_files', arguments: '{}' } }),
    );
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    const params = error.issues[0].params as { availableTools: string[]; omittedTools: number };
    // An adjacent transposition ("ea" for "ae") is one edit; case is ignored when measuring.
    expect(params.availableTools.slice(0, 2)).toEqual(['search_files', 'send_file']);
    expect(params.availableTools).toHaveLength(20);
    expect(params.omittedTools).toBe(10);
    expect(renderOutcome('serach_files', { error }).output.asText()).toContain(
      params.availableTools.slice(0, 3).join(', '),
    );
    const upper = thrown(() =>
      prepareToolCall(registry, { id: 'call_2', request: { name: 'SEARCH_FILES', arguments: '{}' } }),
    );
    expect((upper.issues[0].params as { availableTools: string[] }).availableTools[0]).toBe('search_files');
    expect(ran).not.toHaveBeenCalled();
  });

  it('bounds the comparison of a hostile name of a megabyte and still lists the tools', () => {
    const registry = new Registry(...['alpha', 'beta'].map((n) => noRequiredTool(n)));
    const error = thrown(() =>
      prepareToolCall(registry, { id: 'c', request: { name: 'b'.repeat(1_000_000), arguments: '{}' } }),
    );
    expect((error.issues[0].params as { availableTools: string[] }).availableTools).toEqual(['beta', 'alpha']);
  });

  it('says so when no tool is registered, and quotes a hostile name as one JSON string', () => {
    const error = thrown(() =>
      prepareToolCall(new Registry(), { id: 'c', request: { name: 'a"b\nc', arguments: '{}' } }),
    );
    expect(renderOutcome('a"b\nc', { error }).output.asText()).toBe(
      'error: unknown tool "a\\"b\\nc"; no tools are available',
    );
  });

  it('escapes a homoglyph or invisible character in the echoed name, not in the listed names (trial 2 finding 13)', () => {
    // Regression: `unknown tool "wrіte_file"; call one of: write_file` (a Cyrillic і) read as a refusal of write_file.
    const registry = new Registry(noRequiredTool('write_file'));
    const homoglyph = 'wr\u0456te_file';
    const error = thrown(() => prepareToolCall(registry, { id: 'c', request: { name: homoglyph, arguments: '{}' } }));
    const text = renderOutcome(homoglyph, { error }).output.asText();
    expect(text).toContain('"wr\\u0456te_file"');
    expect(text).toContain('call one of: write_file');
    expect(text).not.toContain(homoglyph);
    expect(error.issues[0].params).toMatchObject({ tool: homoglyph, availableTools: ['write_file'] });
    const hidden = thrown(() =>
      prepareToolCall(registry, { id: 'c', request: { name: 'write_file\u200b\u007f', arguments: '{}' } }),
    );
    expect(hidden.message).toContain('"write_file\\u200b\\u007f"');
  });

  it('refuses an empty name as an unknown tool, ERR_INVALID_REQUEST inside, listing the tools', () => {
    // Regression (new-user trial, finding 12a): the model was told `error: invalid arguments for
    // tool "": tool: invalid request: name must not be empty`, an internal prefix included.
    const registry = new Registry(noRequiredTool('read_file'));
    const error = thrown(() => prepareToolCall(registry, { id: 'c', request: { name: '', arguments: '{}' } }));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(isAdmissionRefusal(error)).toBe(true);
    expect(error.issues).toMatchObject([
      { code: 'unknown_tool', path: [], params: { tool: '', availableTools: ['read_file'], omittedTools: 0 } },
    ]);
    const rendered = renderOutcome('', { error });
    expect(rendered.kind).toBe('unknown_tool');
    expect(rendered.output.asText()).toBe('error: the call names no tool; call one of: read_file');
    expect(
      renderOutcome('', {
        error: thrown(() => prepareToolCall(new Registry(), { id: 'c', request: { name: '', arguments: '{}' } })),
      }).output.asText(),
    ).not.toMatch(/tool: |invalid request/);
  });
});

describe('prepareToolCall on a call of another shape (a bug of the calling code)', () => {
  // Regression (new-user trial, finding 10): `{ id, name, arguments }` from untyped code was
  // refused as the model's mistake and the model was told its arguments were invalid.
  const registry = new Registry(noRequiredTool('read_file'));
  it.each<[string, unknown]>([
    ['{ id, name, arguments }', { id: 'c', name: 'read_file', arguments: '{}' }],
    ['null', null],
    ['undefined', undefined],
    ['a string', '{"name":"read_file"}'],
    ['an array', [{ id: 'c', request: { name: 'read_file', arguments: '{}' } }]],
    ['a request that is a string', { id: 'c', request: 'read_file' }],
    ['a request that is null', { id: 'c', request: null }],
    ['parsed arguments', { id: 'c', request: { name: 'read_file', arguments: {} } }],
    ['a name that is not a string', { id: 'c', request: { name: 7, arguments: '{}' } }],
  ])('throws a developer error, not a refusal: %s', (_label, call) => {
    const error = thrown(() => prepareToolCall(registry, call as ProviderToolCall));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(isAdmissionRefusal(error)).toBe(false);
    expect(error.issues).toEqual([]);
    expect(error.message).toContain('{ id, request: { name, arguments } }');
    expect(renderOutcome('read_file', { error }).kind).toBe('error');
  });

  // Regression (hostile review, item 1): a throwing `request` getter escaped as the raw error, and
  // a registry that is not one threw a TypeError (`registry.resolve is not a function`).
  it('throws a developer error whose cause is the thrown value when reading the call throws', () => {
    const secret = new Error('boom secret');
    const calls: unknown[] = [
      {
        id: 'c',
        get request(): never {
          throw secret;
        },
      },
      {
        id: 'c',
        request: {
          name: 'read_file',
          get arguments(): never {
            throw secret;
          },
        },
      },
      new Proxy(
        {},
        {
          get() {
            throw secret;
          },
        },
      ),
    ];
    for (const call of calls) {
      const error = thrown(() => prepareToolCall(registry, call as ProviderToolCall));
      expect(error.code).toBe('ERR_INVALID_INVOCATION');
      expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
      expect(isAdmissionRefusal(error)).toBe(false);
      expect((error.cause as ToolError).cause).toBe(secret);
      expect(error.message).not.toContain('boom secret');
      const rendered = renderOutcome('read_file', { error });
      expect(rendered.kind).toBe('error');
      expect(rendered.output.asText()).not.toContain('boom secret');
    }
  });

  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['undefined', undefined],
    ['null', null],
    ['a string', 'registry'],
    ['an object whose resolve is not a function', { resolve: 1, definitions: () => [] }],
  ])('throws a developer error naming the registry when it is %s', (_label, bad) => {
    const call: ProviderToolCall = { id: 'c', request: { name: 'read_file', arguments: '{}' } };
    const error = thrown(() => prepareToolCall(bad as Registry, call));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(isAdmissionRefusal(error)).toBe(false);
    expect(error.message).toContain('registry');
    expect(renderOutcome('read_file', { error }).kind).toBe('error');
  });

  it('keeps the thrown value of a registry getter as the cause, never in the text', () => {
    const secret = new Error('boom secret');
    const bad = {
      get resolve(): never {
        throw secret;
      },
    };
    const call: ProviderToolCall = { id: 'c', request: { name: 'read_file', arguments: '{}' } };
    const error = thrown(() => prepareToolCall(bad as unknown as Registry, call));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect((error.cause as ToolError).cause).toBe(secret);
    expect(error.message).not.toContain('boom secret');
  });

  it('keeps admitting the shape the provider readers build, without an id too', () => {
    const call = { request: { name: 'read_file', arguments: '{}' } } as ProviderToolCall;
    expect(prepareToolCall(registry, call).binding.contract.name).toBe('read_file');
  });
});

describe('prepareToolCall on a complete call', () => {
  it('admits a complete streamed call and returns the binding that runs it', async () => {
    const fn = jest.fn((input: unknown) => `ran with ${JSON.stringify(input)}`);
    const registry = new Registry(noRequiredTool('purge_cache', fn));
    const [call] = assembled(
      new AnthropicStreamAssembler(),
      anthropicEvents('toolu_3', 'purge_cache', ['{"verbose"', ': true}'], true),
    );
    expect(call.complete).toBe(true);
    const { binding, invocation } = prepareToolCall(registry, call);
    expect(binding).toBe(registry.resolve('purge_cache'));
    expect(invocation.arguments).toBe('{"verbose": true}');
    expect(invocation.continuation).toBeUndefined();
    const result = await binding.call(invocation);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(renderOutcome('purge_cache', { result }).output.asText()).toBe('ran with {"verbose":true}');
  });

  it('admits a provider call without a complete flag, and passes a continuation through', () => {
    const registry = new Registry(noRequiredTool('purge_cache'));
    const call: ProviderToolCall = { id: 'c', request: { name: 'purge_cache', arguments: '' } };
    expect(prepareToolCall(registry, call).invocation.arguments).toBe('{}');
    const request = InputRequest.create({
      prompt: '"Sure?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{}',
    });
    const continuation = request.continuation('true');
    expect(prepareToolCall(registry, call, continuation).invocation.continuation).toBe(continuation);
    expect(prepareToolCall(registry, call, null).invocation.continuation).toBeUndefined();
  });

  it('refuses invalid arguments of a complete call as Contract.prepare does', () => {
    const registry = new Registry(noRequiredTool('purge_cache'));
    const call: ProviderToolCall = { id: 'c', request: { name: 'purge_cache', arguments: '{"force":true}' } };
    const error = thrown(() => prepareToolCall(registry, call));
    expect(error.issues).toEqual([
      expect.objectContaining({ path: [], keyword: 'additionalProperties', params: { additionalProperty: 'force' } }),
    ]);
    expect(openAIToolMessage(call, { error }).content).toBe(describeInvalidArguments('purge_cache', error));
  });
});

describe('prepareToolCall on values the calling code built', () => {
  // Regression (hostile review, item 2): a throwing getter's message reached the model, and
  // `complete: 'no'` let a call run.
  it('never tells the model the message of a getter that threw while an input was read', () => {
    const fn = jest.fn(() => 'ran');
    const registry = new Registry(noRequiredTool('t', fn));
    const input = {
      get v(): never {
        throw new Error('secret-getter');
      },
    };
    const [call] = anthropicToolCalls({ content: [{ type: 'tool_use', id: 'toolu_1', name: 't', input }] });
    expect(call.malformed).toContain('secret-getter');
    const error = thrown(() => prepareToolCall(registry, call));
    expect(isAdmissionRefusal(error)).toBe(true);
    expect(error.issues.map((i) => i.code)).toEqual(['invalid_json']);
    expect(error.issues[0].message).not.toContain('secret-getter');
    expect(String((error.cause as Error).message)).toContain('secret-getter');
    const text = anthropicToolResult(call, { error }).content;
    expect(text).not.toContain('secret-getter');
    expect(text).toContain('content[0].input');
    expect(fn).not.toHaveBeenCalled();
  });

  it.each<[string, unknown]>([
    ['complete that is a string', { id: 'c', request: { name: 't', arguments: '{}' }, complete: 'no' }],
    ['complete that is null', { id: 'c', request: { name: 't', arguments: '{}' }, complete: null }],
    ['malformed that is a number', { id: 'c', request: { name: 't', arguments: '{}' }, malformed: 42 }],
    ['malformed that is an object', { id: 'c', request: { name: 't', arguments: '{}' }, malformed: { why: 'x' } }],
  ])('throws a developer error, not a refusal, for a call with %s; nothing runs', (_label, call) => {
    const fn = jest.fn(() => 'ran');
    const registry = new Registry(noRequiredTool('t', fn));
    const error = thrown(() => prepareToolCall(registry, call as AssembledToolCall));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(isAdmissionRefusal(error)).toBe(false);
    expect(renderOutcome('t', { error }).kind).toBe('error');
    expect(fn).not.toHaveBeenCalled();
  });

  it('keeps admitting complete true and a string malformed as before', () => {
    const registry = new Registry(noRequiredTool('t'));
    const ok = { id: 'c', request: { name: 't', arguments: '{}' }, complete: true };
    expect(prepareToolCall(registry, ok).binding.contract.name).toBe('t');
    const marked = { id: 'c', request: { name: 't', arguments: 'null' }, malformed: 'function.arguments is null' };
    expect(isAdmissionRefusal(thrown(() => prepareToolCall(registry, marked)))).toBe(true);
  });
});
