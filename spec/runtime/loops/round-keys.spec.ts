/**
 * Regression (review A, round keys): the loops' `answers` gave a provider call id precedence over a
 * round key it spells, as Runtime.resume did. A model message carrying a call `call_1#2` next to a
 * call `call_1` that asks twice: the person's answer to call_1's second question (its key
 * `call_1#2`, as `waiting[i].record.callId` showed it) paid mallory 5000 instead.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { Registry } from '../../../lib/protocol';
import { runOpenAIChatLoop } from '../../../lib/runtime/loops';
import { MemoryStore } from '../../../lib/runtime/stores';
import { fixtureJson } from '../../providers/fixtures';
import { payTool } from '../support';
import { loopRuntime, openAIClient } from './support';

const FINAL = fixtureJson<unknown>('chat_completions_final_answer.response.json');

const toolCall = (id: string, args: object) => ({
  id,
  type: 'function' as const,
  function: { name: 'pay', arguments: JSON.stringify(args) },
});

// The conversation as the model wrote it: one message with call_1 (asks twice) and call_1#2.
const MESSAGES: ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Pay bob 50.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      toolCall('call_1', { to: 'bob', amount: 50, rounds: 2 }),
      toolCall('call_1#2', { to: 'mallory', amount: 5000 }),
    ],
  },
];

const REFUSED =
  'error: the tool call is malformed (its id ends in "#" and digits, the form the runtime keeps for the later ' +
  'questions of a call), so it did not run; call the tool again';

describe('loop answers: a round key names the question it was shown for', () => {
  it('an answer by waiting[i].record.callId resumes that question; a call id "<id>#<n>" is refused', async () => {
    const paid: string[] = [];
    const registry = new Registry(payTool(paid));
    const store = new MemoryStore();
    // Each run gets the conversation as the model wrote it (no tool messages kept), and the answers.
    const run = (answers: { callId: string; answer: string }[], responses: unknown[] = []) =>
      runOpenAIChatLoop(
        openAIClient(responses).client,
        { model: 'gpt-4o-mini', messages: MESSAGES },
        { runtime: loopRuntime(registry, store), registry, threadId: 't', principal: 'alice', answers },
      );
    const keysOf = (result: Awaited<ReturnType<typeof run>>) =>
      result.status === 'suspended' ? result.waiting.map((w) => [w.call.id, w.record.callId]) : result.status;

    const first = await run([]);
    expect(keysOf(first)).toEqual([['call_1', 'call_1']]);
    expect(first.outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['call_1', 'suspended'],
      ['call_1#2', 'refused'],
    ]);
    const second = await run([{ callId: 'call_1', answer: 'true' }]);
    expect(keysOf(second)).toEqual([['call_1', 'call_1#2']]);

    // The person approves bob's question 2 under the key the loop showed for it.
    const done = await run([{ callId: 'call_1#2', answer: 'true' }], [FINAL]);
    expect(done.status).toBe('done');
    expect(paid).toEqual(['50 to bob']);
    expect(done.outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['call_1', 'completed'],
      ['call_1#2', 'refused'],
    ]);
    // One tool message per call of the model's message, each with its own call's result.
    expect(done.messages.slice(MESSAGES.length, MESSAGES.length + 2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'PAID 50 to bob' },
      { role: 'tool', tool_call_id: 'call_1#2', content: REFUSED },
    ]);
    expect(await loopRuntime(registry, store).list({ threadId: 't' })).toEqual([]);
  });
});
