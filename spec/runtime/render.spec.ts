/**
 * lib/runtime/render.ts: a turn's outcomes in each provider's result format, through the
 * lib/providers renderers; a suspended outcome has no result yet; a replayed outcome renders as the
 * first one did.
 */
import { Registry, ToolError } from '../../lib/protocol';
import {
  Runtime,
  toAnthropicMessage,
  toGeminiContent,
  toOpenAIChatMessages,
  toOpenAIResponsesItems,
} from '../../lib/runtime';
import type { CallOutcome } from '../../lib/runtime';
import { call, crashing, echo, effects, failing, newStore, sendEmail } from './support';

async function turn(): Promise<{ runtime: Runtime; outcomes: CallOutcome[] }> {
  const runtime = new Runtime({
    registry: new Registry(echo(), failing(), crashing(), sendEmail(effects())),
    store: newStore(),
  });
  const outcomes = await runtime.runTurn({
    threadId: 't',
    calls: [
      call('call_ok', 'echo', { text: 'hello' }),
      call('call_fail', 'fail'),
      call('call_bad', 'echo', { text: 3 }),
    ],
  });
  return { runtime, outcomes };
}

describe('provider result formats of a turn', () => {
  it('OpenAI Chat: one tool message per call, in order', async () => {
    const { outcomes } = await turn();
    const messages = toOpenAIChatMessages(outcomes);
    expect(messages.map((m) => [m.role, m.tool_call_id])).toEqual([
      ['tool', 'call_ok'],
      ['tool', 'call_fail'],
      ['tool', 'call_bad'],
    ]);
    expect(messages[0].content).toBe('hello');
    expect(messages[1].content).toBe('error: the disk is full; try later');
  });

  it('OpenAI Responses: one function_call_output item per call', async () => {
    const { outcomes } = await turn();
    const items = toOpenAIResponsesItems(outcomes);
    expect(items.map((i) => [i.type, i.call_id])).toEqual([
      ['function_call_output', 'call_ok'],
      ['function_call_output', 'call_fail'],
      ['function_call_output', 'call_bad'],
    ]);
    expect(items[0].output).toBe('hello');
  });

  it('Anthropic: one user message of tool_result blocks, is_error on errors', async () => {
    const { outcomes } = await turn();
    const message = toAnthropicMessage(outcomes);
    expect(message.role).toBe('user');
    const blocks = message.content as { type: string; tool_use_id: string; is_error?: boolean; content: unknown }[];
    expect(blocks.map((b) => [b.type, b.tool_use_id, b.is_error === true])).toEqual([
      ['tool_result', 'call_ok', false],
      ['tool_result', 'call_fail', true],
      ['tool_result', 'call_bad', true],
    ]);
    expect(blocks[0].content).toBe('hello');
  });

  it('Gemini: one user content of functionResponse parts, output or error', async () => {
    const { outcomes } = await turn();
    const content = toGeminiContent(outcomes);
    expect(content.role).toBe('user');
    const responses = (content.parts ?? []).map((p) => p.functionResponse);
    expect(responses.map((r) => [r?.id, r?.name, Object.keys(r?.response ?? {})])).toEqual([
      ['call_ok', 'echo', ['output']],
      ['call_fail', 'fail', ['error']],
      ['call_bad', 'echo', ['error']],
    ]);
  });

  it('refuses a suspended outcome: it has no result yet (ERR_INVALID_RESULT)', async () => {
    const { runtime } = await turn();
    const outcomes = await runtime.runTurn({
      threadId: 't2',
      calls: [call('call_wait', 'send_email', { to: 'a@x.org' })],
    });
    for (const render of [toOpenAIChatMessages, toOpenAIResponsesItems, toAnthropicMessage, toGeminiContent]) {
      let error: unknown;
      try {
        render(outcomes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('ERR_INVALID_RESULT');
      expect((error as ToolError).message).toContain('call_wait');
    }
  });

  it('renders an outcome replayed from the store exactly as the first one', async () => {
    const runtime = new Runtime({ registry: new Registry(sendEmail(effects())), store: newStore() });
    await runtime.runTurn({ threadId: 't', calls: [call('c', 'send_email', { to: 'a@x.org' })] });
    const first = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    const [replayed] = await runtime.runTurn({ threadId: 't', calls: [call('c', 'send_email', { to: 'a@x.org' })] });
    expect(replayed.replayed).toBe(true);
    expect(toAnthropicMessage([replayed])).toEqual(toAnthropicMessage([first]));
    expect(toOpenAIChatMessages([replayed])).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'sent to a@x.org' }]);
  });
});
