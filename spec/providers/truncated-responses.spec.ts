/**
 * A whole (non-streamed) response cut off by the token limit: the provider still sends the cut
 * call, with blank (`arguments: ''`) or empty (`input: {}`, `args: {}`) arguments, which admission
 * would take as `{}` and run on a tool whose members are all optional. Each non-stream reader marks
 * every call of a truncated response `complete: false`, as the stream assemblers do, and
 * `prepareToolCall` refuses them; nothing runs.
 */
import {
  AnthropicStreamAssembler,
  anthropicToolCalls,
  geminiContentFunctionCalls,
  geminiFunctionCalls,
  openAIChatToolCalls,
  openAIMessageToolCalls,
  prepareToolCall,
  renderOutcome,
} from '../../lib/providers';
import type { AssembledToolCall } from '../../lib/providers';
import { FuncTool, Registry, ToolError, hasErrorCode } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';

const OPTIONAL_ONLY = { type: 'object', properties: { note: { type: 'string' } } } as const;

/** Two tools whose members are all optional, so `{}` would run them; `ran` counts every run. */
function optionalOnly() {
  const ran = jest.fn((input: unknown) => `ran with ${JSON.stringify(input)}`);
  const tool = (name: string) =>
    FuncTool.create({ name, inputSchema: OPTIONAL_ONLY, decode: (v: JsonValue) => v }, ran);
  return { registry: new Registry(tool('search'), tool('save')), ran };
}

/** What prepareToolCall does with each call: the refusal's codes, or `admitted`. */
function verdicts(registry: Registry, calls: readonly AssembledToolCall[]): unknown[] {
  return calls.map((call) => {
    try {
      prepareToolCall(registry, call);
      return 'admitted';
    } catch (error) {
      const e = error as ToolError;
      return {
        code: e.code,
        request: hasErrorCode(e, 'ERR_INVALID_REQUEST'),
        issue: e.issues[0]?.code,
        kind: renderOutcome(call.request.name, { error }).kind,
      };
    }
  });
}

const REFUSED = { code: 'ERR_INVALID_INVOCATION', request: true, issue: 'invalid_json', kind: 'invalid_arguments' };

describe('OpenAI Chat: finish_reason', () => {
  const completion = (finish_reason: string | null | undefined, ...args: string[]) => ({
    choices: [
      {
        index: 0,
        finish_reason,
        message: {
          tool_calls: args.map((a, i) => ({
            id: `call_${i}`,
            type: 'function' as const,
            function: { name: i === 0 ? 'search' : 'save', arguments: a },
          })),
        },
      },
    ],
  });

  it("'length' with arguments '' is refused; the tool never runs", () => {
    const { registry, ran } = optionalOnly();
    const calls = openAIChatToolCalls(completion('length', ''));
    expect(calls.map((c) => c.complete)).toEqual([false]);
    expect(verdicts(registry, calls)).toEqual([REFUSED]);
    expect(ran).not.toHaveBeenCalled();
  });

  it("'length' marks every call of the choice, whole-looking ones included (the cut may not be the last)", () => {
    const { registry } = optionalOnly();
    const calls = openAIChatToolCalls(completion('length', '{"note":"a"}', ''));
    expect(calls.map((c) => [c.id, c.complete])).toEqual([
      ['call_0', false],
      ['call_1', false],
    ]);
    expect(verdicts(registry, calls)).toEqual([REFUSED, REFUSED]);
  });

  it.each([['content_filter'], ['something_new']])('%p is not a whole turn either', (reason) => {
    expect(openAIChatToolCalls(completion(reason, '{}')).map((c) => c.complete)).toEqual([false]);
  });

  it.each([['tool_calls'], ['stop'], [null], [undefined]])('%p leaves the calls complete and admitted', (reason) => {
    const { registry } = optionalOnly();
    const calls = openAIChatToolCalls(completion(reason, '', '{"note":"b"}'));
    expect(calls.map((c) => c.complete)).toEqual([true, true]);
    expect(verdicts(registry, calls)).toEqual(['admitted', 'admitted']);
  });

  it('openAIMessageToolCalls takes the finish_reason beside the message', () => {
    const { message } = completion(undefined, '').choices[0];
    expect(openAIMessageToolCalls(message, 'length').map((c) => c.complete)).toEqual([false]);
    expect(openAIMessageToolCalls(message).map((c) => c.complete)).toEqual([true]);
  });
});

describe('Anthropic: stop_reason', () => {
  const message = (stop_reason: string | null | undefined) => ({
    stop_reason,
    content: [
      { type: 'tool_use', id: 'toolu_a', name: 'search', input: { note: 'whole' } },
      { type: 'tool_use', id: 'toolu_b', name: 'save', input: {} },
    ],
  });

  it("'max_tokens' with input {} is refused, and so is its sibling; nothing runs", () => {
    const { registry, ran } = optionalOnly();
    const calls = anthropicToolCalls(message('max_tokens'));
    expect(calls.map((c) => [c.id, c.complete])).toEqual([
      ['toolu_a', false],
      ['toolu_b', false],
    ]);
    expect(verdicts(registry, calls)).toEqual([REFUSED, REFUSED]);
    expect(ran).not.toHaveBeenCalled();
  });

  it.each([['model_context_window_exceeded'], ['refusal'], ['pause_turn'], ['stop_sequence']])(
    '%p marks the calls incomplete',
    (reason) => {
      expect(anthropicToolCalls(message(reason)).map((c) => c.complete)).toEqual([false, false]);
    },
  );

  it.each([['tool_use'], ['end_turn'], [null], [undefined]])('%p leaves the calls complete', (reason) => {
    const { registry } = optionalOnly();
    const calls = anthropicToolCalls(message(reason));
    expect(calls.map((c) => c.complete)).toEqual([true, true]);
    expect(verdicts(registry, calls)).toEqual(['admitted', 'admitted']);
  });

  it("the stream: a stopped block with no input text, then message_delta 'max_tokens', is incomplete", () => {
    const events = (reason: string) => [
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_s', name: 'save', input: {} },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } },
    ];
    const assembled = (reason: string) => {
      const assembler = new AnthropicStreamAssembler();
      for (const event of events(reason)) assembler.push(event);
      return assembler.toolCalls().map((c) => [c.id, c.request.arguments, c.complete]);
    };
    expect(assembled('max_tokens')).toEqual([['toolu_s', '{}', false]]);
    expect(assembled('tool_use')).toEqual([['toolu_s', '{}', true]]);
  });
});

describe('Gemini: finishReason', () => {
  const response = (finishReason: string | undefined) => ({
    candidates: [
      {
        finishReason,
        content: {
          parts: [
            { functionCall: { id: 'fc-1', name: 'search', args: { note: 'x' } } },
            { functionCall: { id: 'fc-2', name: 'save', args: {} } },
          ],
        },
      },
    ],
  });

  it("'MAX_TOKENS' with args {} is refused, and so is its sibling; nothing runs", () => {
    const { registry, ran } = optionalOnly();
    const calls = geminiFunctionCalls(response('MAX_TOKENS'));
    expect(calls.map((c) => [c.id, c.complete])).toEqual([
      ['fc-1', false],
      ['fc-2', false],
    ]);
    expect(verdicts(registry, calls)).toEqual([REFUSED, REFUSED]);
    expect(ran).not.toHaveBeenCalled();
  });

  it.each([['SAFETY'], ['MALFORMED_FUNCTION_CALL']])('%p marks the calls incomplete', (reason) => {
    expect(geminiFunctionCalls(response(reason)).map((c) => c.complete)).toEqual([false, false]);
  });

  it.each([['STOP'], [undefined]])('%p leaves the calls complete', (reason) => {
    const { registry } = optionalOnly();
    const calls = geminiFunctionCalls(response(reason));
    expect(verdicts(registry, calls)).toEqual(['admitted', 'admitted']);
  });

  it('geminiContentFunctionCalls takes the finishReason beside the content', () => {
    const { content } = response(undefined).candidates[0];
    expect(geminiContentFunctionCalls(content, 'MAX_TOKENS').map((c) => c.complete)).toEqual([false, false]);
    expect(geminiContentFunctionCalls(content).map((c) => c.complete)).toEqual([true, true]);
  });
});
