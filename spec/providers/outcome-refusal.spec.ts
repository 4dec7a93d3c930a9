/**
 * Only a refusal of the proposed call itself (thrown by Contract.prepare or prepareToolCall) is
 * rendered as "invalid arguments" text; the same error code thrown at call time is a tool failure,
 * and its message never reaches the model.
 */
import { FuncTool, Registry, ToolError, bind, isAdmissionRefusal } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import {
  anthropicToolResult,
  describeInvalidArguments,
  openAIToolMessage,
  prepareToolCall,
  renderOutcome,
} from '../../lib/providers';
import { assembled } from './fixtures';

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } as const;

function tool(name: string, fn: () => unknown) {
  return FuncTool.create(
    { name, inputSchema: { ...SCHEMA, properties: { ...SCHEMA.properties } }, decode: (v: JsonValue) => v },
    fn,
  );
}

describe('rendering admission refusals versus call-time errors', () => {
  it('renders a call-time ToolError ERR_INVALID_INVOCATION as a tool failure without its message', async () => {
    const secret = 'SECRET db=postgres://u:pw@h';
    const registry = new Registry(
      tool('lookup', () => {
        throw new ToolError('ERR_INVALID_INVOCATION', secret);
      }),
    );
    const call = { id: 'c1', request: { name: 'lookup', arguments: '{"n":1}' } };
    const { binding, invocation } = prepareToolCall(registry, call);
    const error = await binding.call(invocation).catch((e: unknown) => e);
    expect(isAdmissionRefusal(error)).toBe(false);
    expect(renderOutcome('lookup', { error })).toMatchObject({ kind: 'error', isError: true });
    expect(renderOutcome('lookup', { error }).output.asText()).toBe('error: tool "lookup" failed');
    expect(JSON.stringify(openAIToolMessage(call, { error }))).not.toContain('SECRET');
    expect(JSON.stringify(anthropicToolResult(call, { error }))).not.toContain('SECRET');
  });

  it('renders an invocation prepared by another binding as a tool failure, not the model\u2019s mistake', async () => {
    const t = tool('lookup', () => 'ok');
    const other = bind(t).contract.prepare({ name: 'lookup', arguments: '{}' });
    const error = await bind(t)
      .call(other)
      .catch((e: unknown) => e);
    expect(isAdmissionRefusal(error)).toBe(false);
    expect(renderOutcome('lookup', { error }).output.asText()).toBe('error: tool "lookup" failed');
  });

  it('renders a refusal from prepare as invalid arguments built from its issues', () => {
    const contract = bind(tool('lookup', () => 'ok')).contract;
    const error = (() => {
      try {
        contract.prepare({ name: 'lookup', arguments: '{"n":"1"}' });
      } catch (e) {
        return e;
      }
    })();
    expect(isAdmissionRefusal(error)).toBe(true);
    expect(renderOutcome('lookup', { error }).kind).toBe('invalid_arguments');
  });

  it('renders a thrown Proxy whose traps throw as the generic failure text', () => {
    const trap = () => {
      throw new Error('trap');
    };
    const error = new Proxy(
      {},
      { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap },
    );
    expect(renderOutcome('t', { error })).toMatchObject({ kind: 'error', isError: true });
    expect(renderOutcome('t', { error }).output.asText()).toBe('error: tool "t" failed');
  });
});

describe('tool calls read from provider payloads: a null input kept, a streamed name read once', () => {
  const { anthropicToolCalls, OpenAIChatStreamAssembler } =
    require('../../lib/providers') as typeof import('../../lib/providers');

  it('keeps an Anthropic tool_use input of null as null, which admission refuses', () => {
    const calls = anthropicToolCalls({ content: [{ type: 'tool_use', id: 'u1', name: 't', input: null }] } as never);
    expect(calls[0].request.arguments).toBe('null');
    const contract = bind(tool('t', () => 'ok')).contract;
    expect(() => contract.prepare(calls[0].request)).toThrow(/must be a JSON object/);
  });

  it('does not repeat a function name that every OpenAI stream delta carries', () => {
    const chunk = (args: string) => ({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_weather', arguments: args } }] },
        },
      ],
    });
    const calls = assembled(new OpenAIChatStreamAssembler(), [chunk('{"a"'), chunk(':1}')] as never);
    expect(calls[0].request).toEqual({ name: 'get_weather', arguments: '{"a":1}' });
  });
});

describe('arguments sent as decoded JSON values (Anthropic input, Gemini args)', () => {
  const { geminiContentFunctionCalls } = require('../../lib/providers') as typeof import('../../lib/providers');

  it('serializes Gemini args once, keeps null as null and absent as {}', () => {
    const calls = geminiContentFunctionCalls({
      parts: [
        { functionCall: { name: 'a', args: { x: 1 } } },
        { functionCall: { name: 'b', args: null } },
        { functionCall: { name: 'c' } },
      ],
    } as never);
    expect(calls.map((c) => c.request.arguments)).toEqual(['{"x":1}', 'null', '{}']);
  });

  it('marks arguments that are not JSON data as malformed, naming the place; prepareToolCall refuses that call', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const calls = geminiContentFunctionCalls({ parts: [{ functionCall: { name: 'a', args: cyclic } }] } as never);
    expect(calls[0].malformed).toContain('parts[0].functionCall.args');
    expect(calls[0].malformed).toContain('/self: ');
    const registry = new Registry(tool('a', () => 'ran'));
    const error = (() => {
      try {
        prepareToolCall(registry, calls[0]);
      } catch (e) {
        return e;
      }
    })();
    expect(isAdmissionRefusal(error)).toBe(true);
    expect((error as ToolError).issues[0].message).toContain(calls[0].malformed);
    expect(renderOutcome('a', { error })).toMatchObject({ kind: 'invalid_arguments', isError: true });
    expect(renderOutcome('a', { error }).output.asText()).toBe(describeInvalidArguments('a', error as ToolError));
  });
});
