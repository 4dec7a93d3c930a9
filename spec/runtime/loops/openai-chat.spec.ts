import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { openAIChatTools } from '../../../lib/providers';
import { DEFAULT_MAX_STEPS, runOpenAIChatLoop } from '../../../lib/runtime/loops';
import { MemoryStore } from '../../../lib/runtime/stores';
import { fixtureJson } from '../../providers/fixtures';
import { loopRegistry, loopRuntime, openAIClient } from './support';

type Completion = { choices: { message: Record<string, unknown> }[] };
const TOOL_CALL = fixtureJson<Completion>('chat_completions_functions.response.json');
const FINAL = fixtureJson<Completion>('chat_completions_final_answer.response.json');
const ASK: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather like in Boston today?' }];
const REQUEST = { model: 'gpt-4o-mini', messages: ASK };
const WEATHER = '{"location":"Boston, MA","temperature":7,"unit":"celsius"}';

describe('runOpenAIChatLoop on the official openai client (recorded responses)', () => {
  it('runs the recorded call, sends its tool message, and ends on the final answer', async () => {
    const { registry, runs } = loopRegistry();
    const { client, sent } = openAIClient([TOOL_CALL, FINAL]);
    const result = await runOpenAIChatLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't1',
    });

    expect(result.status).toBe('done');
    expect(result.steps).toBe(2);
    expect(runs.weather).toBe(1);
    expect(result.outcomes.map((o) => [o.call.id, o.kind])).toEqual([['call_abc123', 'completed']]);
    expect(sent.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(sent[0].body.tools).toEqual(openAIChatTools(registry.definitions()));
    expect(sent[0].body.messages).toEqual(ASK);
    expect(sent[1].body.messages).toEqual([
      ...ASK,
      TOOL_CALL.choices[0].message,
      { role: 'tool', tool_call_id: 'call_abc123', content: WEATHER },
    ]);
    expect(result.messages).toEqual([...sent[1].body.messages, FINAL.choices[0].message]);
    if (result.status === 'done')
      expect(result.response.choices[0].message.content).toBe('It is 7 °C in Boston, MA right now.');
    expect(ASK).toHaveLength(1); // the caller's array is not modified
  });

  it('stops on a suspension, then another Runtime on the same store resumes it with the answer', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    const store = new MemoryStore();
    const first = openAIClient([TOOL_CALL]);
    const waiting = await runOpenAIChatLoop(first.client, REQUEST, {
      runtime: loopRuntime(registry, store),
      registry,
      threadId: 't2',
    });
    expect(waiting.status).toBe('suspended');
    expect(first.sent).toHaveLength(1);
    expect(runs.weather).toBe(0);
    if (waiting.status !== 'suspended') return;
    expect(waiting.waiting.map((w) => [w.call.id, w.inputRequest.prompt])).toEqual([
      ['call_abc123', '"Share your location (Boston, MA) with the weather service?"'],
    ]);
    expect(waiting.messages).toEqual([...ASK, TOOL_CALL.choices[0].message]);

    // The stored messages and an answer, on a second Runtime instance sharing the store.
    const second = openAIClient([FINAL]);
    const done = await runOpenAIChatLoop(
      second.client,
      { ...REQUEST, messages: JSON.parse(JSON.stringify(waiting.messages)) },
      {
        runtime: loopRuntime(registry, store),
        registry,
        threadId: 't2',
        answers: [{ callId: 'call_abc123', answer: '{"approve":true}' }],
      },
    );
    expect(done.status).toBe('done');
    expect(runs.weather).toBe(1);
    expect(second.sent[0].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: WEATHER,
    });
    expect(await loopRuntime(registry, store).list({ threadId: 't2' })).toEqual([]);
  });

  it('re-announces a waiting call without running it or asking the model when no answer is given', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    const runtime = loopRuntime(registry);
    const first = await runOpenAIChatLoop(openAIClient([TOOL_CALL]).client, REQUEST, {
      runtime,
      registry,
      threadId: 't3',
    });
    const { client, sent } = openAIClient([]);
    const again = await runOpenAIChatLoop(
      client,
      { ...REQUEST, messages: first.messages },
      { runtime, registry, threadId: 't3' },
    );
    expect(again.status).toBe('suspended');
    expect(sent).toHaveLength(0);
    expect(runs.weather).toBe(0);
    expect(again.outcomes.map((o) => [o.kind, o.replayed])).toEqual([['suspended', true]]);
    expect(again.messages).toEqual(first.messages);
  });

  it('leaves the call waiting when the answer fails its response schema (ERR_INVALID_ANSWER)', async () => {
    const { registry } = loopRegistry({ confirmWeather: true });
    const runtime = loopRuntime(registry);
    const first = await runOpenAIChatLoop(openAIClient([TOOL_CALL]).client, REQUEST, {
      runtime,
      registry,
      threadId: 't4',
    });
    const { client, sent } = openAIClient([]);
    const refused = await runOpenAIChatLoop(
      client,
      { ...REQUEST, messages: first.messages },
      { runtime, registry, threadId: 't4', answers: [{ callId: 'call_abc123', answer: '{"approve":"yes"}' }] },
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'ERR_INVALID_ANSWER' });
    expect(sent).toHaveLength(0);
    expect((await runtime.list({ threadId: 't4' })).map((r) => r.callId)).toEqual(['call_abc123']);
  });

  it('refuses an answer to a call that does not wait in the messages (ERR_ANSWER_NOT_WAITING)', async () => {
    const { registry } = loopRegistry();
    const { client, sent } = openAIClient([]);
    const refused = await runOpenAIChatLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't5',
      answers: [{ callId: 'call_other', answer: '{"approve":true}' }],
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'LoopError', code: 'ERR_ANSWER_NOT_WAITING' });
    expect(sent).toHaveLength(0);
  });

  it('ends with max-steps after maxSteps requests, every call of the last one answered', async () => {
    const { registry, runs } = loopRegistry();
    const { client, sent } = openAIClient([TOOL_CALL, TOOL_CALL, FINAL]);
    const result = await runOpenAIChatLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't6',
      maxSteps: 2,
    });
    expect(result.status).toBe('max-steps');
    expect(result.steps).toBe(2);
    expect(sent).toHaveLength(2);
    // The replayed response repeats call id call_abc123 in thread t6: its stored outcome answers it.
    expect(runs.weather).toBe(1);
    expect(result.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: WEATHER });
    expect(DEFAULT_MAX_STEPS).toBe(10);
  });

  it('refuses options it cannot run with, naming the field (ERR_INVALID_LOOP_OPTIONS)', async () => {
    const { registry } = loopRegistry();
    const runtime = loopRuntime(registry);
    const { client, sent } = openAIClient([]);
    const bad = [
      { runtime, registry, threadId: '' },
      { runtime, registry, threadId: 't', maxSteps: 0 },
      { runtime, registry, threadId: 't', maxSteps: 1.5 },
      { runtime: {} as never, registry, threadId: 't' },
      { runtime, registry, threadId: 't', answers: [{ callId: 'a' }] as never },
    ];
    for (const options of bad) {
      await expect(runOpenAIChatLoop(client, REQUEST, options)).rejects.toMatchObject({
        code: 'ERR_INVALID_LOOP_OPTIONS',
      });
    }
    await expect(
      runOpenAIChatLoop(client, { model: 'gpt-4o-mini' } as never, { runtime, registry, threadId: 't' }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_LOOP_OPTIONS' });
    expect(sent).toHaveLength(0);
  });
});

describe('runOpenAIChatLoop never tells the model what did not happen (hostile review 11)', () => {
  it('a second run answering a call another run is resuming rejects ERR_CALL_RUNNING; no placeholder', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    // A store whose finish takes a while: the first answer's outcome is not stored when the second comes.
    class SlowFinish extends MemoryStore {
      override async finish(...args: Parameters<MemoryStore['finish']>): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return super.finish(...args);
      }
    }
    const store = new SlowFinish();
    const waiting = await runOpenAIChatLoop(openAIClient([TOOL_CALL]).client, REQUEST, {
      runtime: loopRuntime(registry, store),
      registry,
      threadId: 't-race',
    });
    expect(waiting.status).toBe('suspended');
    const again = (responses: unknown[]) => {
      const { client, sent } = openAIClient(responses);
      const run = runOpenAIChatLoop(
        client,
        { ...REQUEST, messages: waiting.messages },
        {
          runtime: loopRuntime(registry, store),
          registry,
          threadId: 't-race',
          answers: [{ callId: 'call_abc123', answer: '{"approve":true}' }],
        },
      );
      return {
        run: run.then(
          (r) => r.status,
          (e: { code?: string }) => e.code,
        ),
        sent,
      };
    };
    const [one, two] = [again([FINAL]), again([FINAL])];
    expect([await one.run, await two.run].sort()).toEqual(['ERR_CALL_RUNNING', 'done']);
    expect(runs.weather).toBe(1);
    const told = [...one.sent, ...two.sent].map((r) => JSON.stringify(r.body.messages.at(-1)));
    expect(told).toEqual([JSON.stringify({ role: 'tool', tool_call_id: 'call_abc123', content: WEATHER })]);
    // Run again once the first finished: the stored outcome is what the model is told.
    const later = again([FINAL]);
    expect(await later.run).toBe('done');
    expect(later.sent[0].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: WEATHER });
    expect(runs.weather).toBe(1);
  });

  it('two calls without an id are refused one by one: each gets its own tool message, neither runs', async () => {
    const { registry, runs } = loopRegistry();
    const blank = JSON.parse(JSON.stringify(TOOL_CALL)) as Completion;
    const recorded = blank.choices[0].message.tool_calls as Record<string, unknown>[];
    blank.choices[0].message.tool_calls = [
      { ...recorded[0], id: '' },
      { ...recorded[0], id: '' },
    ];
    const { client, sent } = openAIClient([blank, FINAL]);
    const result = await runOpenAIChatLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't-blank',
    });
    expect(result.status).toBe('done');
    expect(result.outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['', 'refused'],
      ['', 'refused'],
    ]);
    expect(runs.weather).toBe(0);
    expect(sent[1].body.messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(2);
  });
});
