/**
 * The recorded OpenAI and Anthropic payloads of samples/fixtures round-trip through the
 * projections: the request's tools come back from the definitions, the response's calls are read,
 * admitted and answered, and the follow-up request built from them equals the recorded one.
 */
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Message, MessageCreateParamsNonStreaming, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Response, ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { FuncTool, Registry, ToolError } from '../../lib/protocol';
import type { Definition, JsonValue } from '../../lib/protocol';
import {
  anthropicToolCalls,
  anthropicToolResult,
  anthropicToolResultMessage,
  anthropicTools,
  describeInvalidArguments,
  openAIChatToolCalls,
  openAIChatTools,
  openAIResponsesToolCalls,
  openAIResponsesTools,
  openAIToolMessage,
  prepareToolCall,
} from '../../lib/providers';
import { fixtureJson } from './fixtures';

function definitionOf(name: string, description: string | undefined, schema: unknown): Definition {
  return {
    name,
    ...(description === undefined ? {} : { description }),
    inputSchema: schema as Definition['inputSchema'],
  };
}

function registryOf(definition: Definition, answer: string): Registry {
  return new Registry(FuncTool.create({ ...definition, decode: (v: JsonValue) => v }, () => answer));
}

describe('recorded OpenAI Chat Completions payloads', () => {
  const request = fixtureJson<ChatCompletionCreateParamsNonStreaming>('chat_completions_functions.request.json');
  const tool = request.tools?.[0] as { function: { name: string; description?: string; parameters: unknown } };
  const definition = definitionOf(tool.function.name, tool.function.description, tool.function.parameters);

  it('exports the recorded tools back from the definition they declare', () => {
    expect(openAIChatTools([definition])).toEqual(request.tools);
  });

  it('admits the recorded call byte for byte and answers it with a tool message', async () => {
    const registry = registryOf(definition, 'Sunny, 22 C');
    const [call] = openAIChatToolCalls(fixtureJson<ChatCompletion>('chat_completions_functions.response.json'));
    const { binding, invocation } = prepareToolCall(registry, call);
    expect(invocation.arguments).toBe('{\n"location": "Boston, MA"\n}');
    expect(openAIToolMessage(call, { result: await binding.call(invocation) })).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: 'Sunny, 22 C',
    });
  });
});

describe('recorded OpenAI Responses payloads', () => {
  const request = fixtureJson<ResponseCreateParamsNonStreaming>('responses_functions.request.json');
  const tool = request.tools?.[0] as { name: string; description?: string; parameters: unknown };
  const definition = definitionOf(tool.name, tool.description, tool.parameters);

  it('exports the recorded tools back (strict sent explicitly) and admits the recorded call', async () => {
    expect(openAIResponsesTools([definition])).toEqual([{ ...tool, strict: false }]);
    const [call] = openAIResponsesToolCalls(fixtureJson<Response>('responses_functions.response.json'));
    const { invocation } = prepareToolCall(registryOf(definition, 'ok'), call);
    expect(invocation.arguments).toBe(JSON.stringify({ location: 'Boston, MA', unit: 'celsius' }));
  });
});

describe('recorded Anthropic Messages payloads', () => {
  const request = fixtureJson<MessageCreateParamsNonStreaming>('messages_request_with_tools.json');
  const { type, name, description, input_schema: schema } = request.tools?.[0] as Tool;
  const definition = definitionOf(name, description, schema);

  it('exports the recorded tools back (the recorded entry adds type "custom")', () => {
    expect(type).toBe('custom');
    expect(anthropicTools([definition])).toEqual([{ name, description, input_schema: schema }]);
  });

  it('reads the recorded tool_use, admits it and builds exactly the recorded follow-up request', async () => {
    const followUp = fixtureJson<MessageCreateParamsNonStreaming>('messages_request_with_tool_result.json');
    const message = fixtureJson<Message>('messages_response_tool_use.json');
    const registry = registryOf(definition, 'Tool result');
    const results = [];
    for (const call of anthropicToolCalls(message)) {
      const { binding, invocation } = prepareToolCall(registry, call);
      results.push(anthropicToolResult(call, { result: await binding.call(invocation) }));
    }
    const rebuilt: MessageCreateParamsNonStreaming = {
      model: followUp.model,
      max_tokens: followUp.max_tokens,
      messages: [
        followUp.messages[0],
        { role: 'assistant', content: message.content },
        anthropicToolResultMessage(results),
      ],
      tools: [{ type: 'custom', ...anthropicTools([definition])[0] }],
      stream: false,
    };
    expect(JSON.parse(JSON.stringify(rebuilt))).toEqual(followUp);
  });

  it('answers the recorded parallel calls (count is not in the declared schema) with is_error results', () => {
    const message = fixtureJson<Message>('messages_response_parallel_tool_use.json');
    const registry = registryOf(definition, 'unused');
    const errors: ToolError[] = [];
    const results = anthropicToolCalls(message).map((call) => {
      try {
        prepareToolCall(registry, call);
        throw new Error('admitted a member the schema does not declare');
      } catch (error) {
        errors.push(error as ToolError);
        return anthropicToolResult(call, { error: error as Error });
      }
    });
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ['toolu_01L8GVQapA1HmggQcrwboukH', true],
      ['toolu_01J5Fvzxu7DP1Uh59c1kr5JD', true],
    ]);
    expect(errors[0].issues).toEqual([
      expect.objectContaining({ path: [], keyword: 'required', params: { missingProperty: 'value' } }),
      expect.objectContaining({ path: [], keyword: 'additionalProperties', params: { additionalProperty: 'count' } }),
    ]);
    expect(results[0].content).toBe(describeInvalidArguments('test_tool', errors[0]));
  });

  it('tool_results never carry causes or stacks', () => {
    const call = anthropicToolCalls(fixtureJson<Message>('messages_response_tool_use.json'))[0];
    const result = anthropicToolResult(call, {
      error: Object.assign(new Error('password=hunter2'), { cause: new Error('deep') }),
    });
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: 'error: tool "test_tool" failed',
      is_error: true,
    });
  });
});
