import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { anthropicTools } from '../../../lib/providers';
import { runAnthropicMessagesLoop } from '../../../lib/runtime/loops';
import { MemoryStore } from '../../../lib/runtime/stores';
import { fixtureJson } from '../../providers/fixtures';
import { anthropicClient, loopRegistry, loopRuntime } from './support';

type Recorded = { body: { messages: MessageParam[] }; response: { content: Record<string, unknown>[] } };
const RUNNER = fixtureJson<Recorded[]>('ToolRunner.nock.json');
const TOOL_USE = fixtureJson<{ content: Record<string, unknown>[] }>('messages_response_tool_use.json');
const PARALLEL = fixtureJson<{ content: Record<string, unknown>[] }>('messages_response_parallel_tool_use.json');

function request(text: string): { model: string; max_tokens: number; messages: MessageParam[] } {
  return { model: 'claude-opus-4-8', max_tokens: 1000, messages: [{ role: 'user', content: text }] };
}

describe('runAnthropicMessagesLoop on the official @anthropic-ai/sdk client (recorded responses)', () => {
  it('runs the recorded tool_use, answers it as the recorded follow-up request did, and ends on the recorded reply', async () => {
    const { registry, runs } = loopRegistry();
    const { client, sent } = anthropicClient([TOOL_USE, RUNNER[1].response]);
    const ask = request('Use the test_tool with value "test", then provide a final response');
    const result = await runAnthropicMessagesLoop(client, ask, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't1',
    });

    expect(result.status).toBe('done');
    expect(result.steps).toBe(2);
    expect(runs.check).toBe(1);
    expect(sent.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(sent[0].body.tools).toEqual(anthropicTools(registry.definitions()));
    // The recorded follow-up request ([1].body): the user turn and the assistant turn exactly, then
    // the tool_result for the same tool_use id (its content is what this registry's tool returned).
    const recorded = RUNNER[1].body.messages;
    expect(sent[1].body.messages.slice(0, 2)).toEqual(recorded.slice(0, 2));
    expect(sent[1].body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_011LF2VkWpAfJnTKJcmh1PNf', content: 'ok: value=test count=1' },
      ],
    });
    expect((recorded[2].content as { tool_use_id: string }[])[0].tool_use_id).toBe('toolu_011LF2VkWpAfJnTKJcmh1PNf');
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: RUNNER[1].response.content });
  });

  it('answers one call of a parallel pair, waits for the other, and puts both results in one user message', async () => {
    const { registry, runs } = loopRegistry();
    const store = new MemoryStore();
    const ask = request('Use the test_tool twice: first with count 1, then with count 2');
    const waiting = await runAnthropicMessagesLoop(anthropicClient([PARALLEL]).client, ask, {
      runtime: loopRuntime(registry, store),
      registry,
      threadId: 't2',
    });
    expect(waiting.status).toBe('suspended');
    if (waiting.status !== 'suspended') return;
    expect(waiting.outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['toolu_01L8GVQapA1HmggQcrwboukH', 'completed'],
      ['toolu_01J5Fvzxu7DP1Uh59c1kr5JD', 'suspended'],
    ]);
    expect(waiting.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01L8GVQapA1HmggQcrwboukH', content: 'ok: value=- count=1' }],
    });

    const { client, sent } = anthropicClient([RUNNER[3].response]);
    const stored = JSON.parse(JSON.stringify(waiting.messages)) as MessageParam[];
    const done = await runAnthropicMessagesLoop(
      client,
      { ...ask, messages: stored },
      {
        runtime: loopRuntime(registry, store),
        registry,
        threadId: 't2',
        answers: [{ callId: 'toolu_01J5Fvzxu7DP1Uh59c1kr5JD', answer: '{"approve":true}' }],
      },
    );
    expect(done.status).toBe('done');
    expect(runs.check).toBe(2); // the completed call did not run again
    expect(sent[0].body.messages).toHaveLength(3);
    expect(sent[0].body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01L8GVQapA1HmggQcrwboukH', content: 'ok: value=- count=1' },
        { type: 'tool_result', tool_use_id: 'toolu_01J5Fvzxu7DP1Uh59c1kr5JD', content: 'ok: value=- count=2' },
      ],
    });
    expect(stored[2].content).toHaveLength(1); // the caller's messages are not modified
  });

  it('answers a call it refuses at admission with is_error and asks the model again', async () => {
    const { registry, runs } = loopRegistry();
    const { client, sent } = anthropicClient([RUNNER[4].response, RUNNER[5].response]);
    const result = await runAnthropicMessagesLoop(client, request('Use the test_tool with input "test"'), {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't3',
    });
    expect(result.status).toBe('done');
    expect(runs.check).toBe(0);
    expect(result.outcomes.map((o) => o.kind)).toEqual(['refused']);
    expect(sent[1].body.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_01BTPr2x4Nduos6gVrE19JZr',
      is_error: true,
    });
  });
});
