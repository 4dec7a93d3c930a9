/**
 * Issue 14 row 3 with the official SDK clients (recorded responses, replayed fetch): the provider
 * exports of `await registry.definitions(caller)` carry only the caller's tools, and a loop given
 * `registry.visibleTo(caller)` refuses a recorded call of a hidden tool as an unknown tool.
 */
import { FuncTool, Guard, Registry, callerAuthorizer } from '../../../lib/protocol';
import type { CallOptions, Definition, JsonValue } from '../../../lib/protocol';
import { anthropicTools, openAIChatTools } from '../../../lib/providers';
import { runOpenAIChatLoop } from '../../../lib/runtime/loops';
import { fixtureJson } from '../../providers/fixtures';
import { anthropicClient, loopRuntime, openAIClient } from './support';

type Completion = { choices: { message: Record<string, unknown> }[] };
const TOOL_CALL = fixtureJson<Completion>('chat_completions_functions.response.json');
const FINAL = fixtureJson<Completion>('chat_completions_final_answer.response.json');
const REQUEST = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Weather in Boston?' }] };

/** Members see and call the weather tool; everyone sees the check. */
const members = callerAuthorizer(
  (definition: Definition, options: CallOptions) =>
    definition.name !== 'get_current_weather' || (options.context as { member?: boolean }).member === true,
);

function guarded(): { registry: Registry; runs: string[] } {
  const runs: string[] = [];
  const tool = (name: string) =>
    new Guard({
      tool: FuncTool.create({ name, inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => {
        runs.push(name);
        return 'ok';
      }),
      authorizer: members,
    });
  return { registry: new Registry(tool('get_current_weather'), tool('test_tool')), runs };
}

const guest = { context: { member: false } };
const member = { context: { member: true } };

describe('per-caller tool lists through the provider exports', () => {
  it('sends the OpenAI client only the tools of the caller', async () => {
    const { registry } = guarded();
    const { client, sent } = openAIClient([FINAL]);
    await client.chat.completions.create({ ...REQUEST, tools: openAIChatTools(await registry.definitions(guest)) });
    expect(sent[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['test_tool']);
    const all = openAIChatTools(await registry.definitions(member));
    expect(all.map((t) => t.function.name)).toEqual(['get_current_weather', 'test_tool']);
  });

  it('sends the Anthropic client only the tools of the caller', async () => {
    const { registry } = guarded();
    const reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [],
      stop_reason: 'end_turn',
    };
    const { client, sent } = anthropicClient([{ ...reply, usage: { input_tokens: 1, output_tokens: 1 } }]);
    await client.messages.create({
      model: 'claude',
      max_tokens: 64,
      messages: REQUEST.messages,
      tools: anthropicTools(await registry.definitions(guest)),
    });
    expect(sent[0].body.tools.map((t: { name: string }) => t.name)).toEqual(['test_tool']);
  });

  it('refuses a recorded call of a hidden tool in a loop over the caller view, as an unknown tool', async () => {
    const { registry, runs } = guarded();
    const view = await registry.visibleTo(guest);
    const hidden = openAIClient([TOOL_CALL, FINAL]);
    const result = await runOpenAIChatLoop(hidden.client, REQUEST, {
      runtime: loopRuntime(view),
      registry: view,
      threadId: 't',
    });
    const alone = new Registry(
      FuncTool.create({ name: 'test_tool', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => 'ok'),
    );
    const absent = openAIClient([TOOL_CALL, FINAL]);
    await runOpenAIChatLoop(absent.client, REQUEST, { runtime: loopRuntime(alone), registry: alone, threadId: 't' });

    expect(hidden.sent[0].body.tools).toEqual(openAIChatTools(view.definitions()));
    expect(runs).toEqual([]);
    expect(result.outcomes.map((o) => [o.call.request.name, o.kind])).toEqual([['get_current_weather', 'refused']]);
    expect(hidden.sent[1].body.messages).toEqual(absent.sent[1].body.messages);
  });
});
