import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuncTool, InputRequest, Registry, createRegistry } from 'scope-tool';
import { MemoryStore } from 'scope-tool/runtime';
import { WeatherTools } from '../../samples/assistant/weather.tools';
import { chat } from '../../samples/readme-runtime';
import { codeBlocks } from '../docs/blocks';
import { fixtureJson } from '../providers/fixtures';
import { loopRegistry, openAIClient } from '../runtime/loops/support';

const ROOT = path.join(__dirname, '..', '..');
const TOOL_CALL = fixtureJson('chat_completions_functions.response.json');
const FINAL = fixtureJson('chat_completions_final_answer.response.json');
const QUESTION = 'What is the weather like in Boston today?';

describe('the README runtime loop (samples/readme-runtime.ts)', () => {
  it('runs the recorded call through the sample tools and returns the final answer', async () => {
    const registry = createRegistry({
      manifest: path.join(ROOT, 'samples', 'tools.manifest.json'),
      toolsets: [new WeatherTools()],
    });
    const { client, sent } = openAIClient([TOOL_CALL, FINAL]);
    const context = { user: 'alice', scopes: ['weather:read'] };
    const ask = () => Promise.reject(new Error('no call should wait'));
    await expect(chat(client, registry, new MemoryStore(), 'thread-1', QUESTION, ask, context)).resolves.toBe(
      'It is 7 °C in Boston, MA right now.',
    );
    expect(sent[1].body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_abc123' });
    expect(JSON.parse(sent[1].body.messages.at(-1).content)).toEqual({
      location: 'Boston, MA',
      temperature: 7,
      unit: 'celsius',
    });
  });

  it('asks the person for a call that suspends and continues with the answer', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    const { client, sent } = openAIClient([TOOL_CALL, FINAL]);
    const prompts: string[] = [];
    const ask = async (prompt: string) => {
      prompts.push(prompt);
      return '{"approve":true}';
    };
    await expect(chat(client, registry, new MemoryStore(), 'thread-2', QUESTION, ask)).resolves.toBe(
      'It is 7 °C in Boston, MA right now.',
    );
    expect(prompts).toHaveLength(1);
    expect(runs.weather).toBe(1);
    expect(sent).toHaveLength(2);
  });

  it('asks each question of a tool that asks twice once, and runs it once (answers by record.callId)', async () => {
    let runs = 0;
    const approval = { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] };
    const weather = FuncTool.create(
      { name: 'get_current_weather', inputSchema: { type: 'object' }, decode: (v) => v },
      (_input, call) => {
        const step = call.continuation === undefined ? 0 : (JSON.parse(call.continuation.state) as number);
        if (step < 2) {
          return InputRequest.create({
            prompt: JSON.stringify(`question ${step + 1}`),
            responseSchema: approval,
            continuationState: String(step + 1),
          });
        }
        runs += 1;
        return 'It is 7 °C.';
      },
    );
    const { client, sent } = openAIClient([TOOL_CALL, FINAL]);
    const prompts: string[] = [];
    const ask = async (prompt: string) => {
      prompts.push(prompt);
      return '{"approve":true}';
    };
    await expect(chat(client, new Registry(weather), new MemoryStore(), 'thread-3', QUESTION, ask)).resolves.toBe(
      'It is 7 °C in Boston, MA right now.',
    );
    expect([prompts, runs, sent.length]).toEqual([['"question 1"', '"question 2"'], 1, 2]);
  });

  it('is quoted in the README (spec/docs/code-blocks.spec.ts checks the quote is exact)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(codeBlocks('README.md', readme).blocks.map((b) => b.quotes)).toContain('samples/readme-runtime.ts');
  });
});
