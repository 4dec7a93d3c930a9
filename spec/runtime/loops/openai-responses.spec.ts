import { openAIResponsesTools } from '../../../lib/providers';
import { runOpenAIResponsesLoop } from '../../../lib/runtime/loops';
import { MemoryStore } from '../../../lib/runtime/stores';
import { fixtureJson } from '../../providers/fixtures';
import { loopRegistry, loopRuntime, openAIClient } from './support';

const TOOL_CALL = fixtureJson<{ output: Record<string, unknown>[] }>('responses_functions.response.json');
const FINAL = fixtureJson<{ output: Record<string, unknown>[] }>('responses_final_answer.response.json');
const REQUEST = { model: 'gpt-5.4', input: 'What is the weather like in Boston today?' };
const USER = { role: 'user', content: REQUEST.input };
const OUTPUT = {
  type: 'function_call_output',
  call_id: 'call_unLAR8MvFNptuiZK6K6HCy5k',
  output: '{"location":"Boston, MA","temperature":7,"unit":"celsius"}',
};

describe('runOpenAIResponsesLoop on the official openai client (recorded responses)', () => {
  it('runs the recorded function_call, sends its function_call_output, and ends on the final answer', async () => {
    const { registry, runs } = loopRegistry();
    const { client, sent } = openAIClient([TOOL_CALL, FINAL]);
    const result = await runOpenAIResponsesLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't1',
    });

    expect(result.status).toBe('done');
    expect(result.steps).toBe(2);
    expect(runs.weather).toBe(1);
    expect(sent.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(sent[0].body.tools).toEqual(openAIResponsesTools(registry.definitions()));
    expect(sent[0].body.tools[0].strict).toBe(false);
    expect(sent[0].body.input).toEqual([USER]);
    expect(sent[1].body.input).toEqual([USER, ...TOOL_CALL.output, OUTPUT]);
    expect(result.input).toEqual([USER, ...TOOL_CALL.output, OUTPUT, ...FINAL.output]);
    if (result.status === 'done') expect(result.response.output_text).toBe('It is 7 °C in Boston, MA right now.');
  });

  it('stops on a suspension and continues from the stored input with the answer', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    const store = new MemoryStore();
    const waiting = await runOpenAIResponsesLoop(openAIClient([TOOL_CALL]).client, REQUEST, {
      runtime: loopRuntime(registry, store),
      registry,
      threadId: 't2',
    });
    expect(waiting.status).toBe('suspended');
    if (waiting.status !== 'suspended') return;
    expect(waiting.waiting.map((w) => w.call.id)).toEqual(['call_unLAR8MvFNptuiZK6K6HCy5k']);
    expect(waiting.input).toEqual([USER, ...TOOL_CALL.output]);

    const { client, sent } = openAIClient([FINAL]);
    const done = await runOpenAIResponsesLoop(
      client,
      { ...REQUEST, input: JSON.parse(JSON.stringify(waiting.input)) },
      {
        runtime: loopRuntime(registry, store),
        registry,
        threadId: 't2',
        answers: [{ callId: 'call_unLAR8MvFNptuiZK6K6HCy5k', answer: '{"approve":true}' }],
      },
    );
    expect(done.status).toBe('done');
    expect(runs.weather).toBe(1);
    expect(sent[0].body.input.at(-1)).toEqual(OUTPUT);
  });

  it('exports strict tools with strict: true', async () => {
    const { registry } = loopRegistry();
    const { client, sent } = openAIClient([FINAL]);
    await runOpenAIResponsesLoop(client, REQUEST, {
      runtime: loopRuntime(registry),
      registry,
      threadId: 't3',
      strict: true,
    });
    expect(sent[0].body.tools).toEqual(openAIResponsesTools(registry.definitions(), { strict: true }));
  });

  it('refuses previous_response_id: the loop carries the whole input (ERR_INVALID_LOOP_OPTIONS)', async () => {
    const { registry } = loopRegistry();
    const { client, sent } = openAIClient([]);
    await expect(
      runOpenAIResponsesLoop(
        client,
        { ...REQUEST, previous_response_id: 'resp_1' },
        { runtime: loopRuntime(registry), registry, threadId: 't4' },
      ),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_LOOP_OPTIONS' });
    expect(sent).toHaveLength(0);
  });
});
