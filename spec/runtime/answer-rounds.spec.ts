/**
 * An answer is bound to the round it answers (second hostile review, finding 1): a tool that asks
 * twice is never approved by a repeated answer to its first question, by `resume` or by the loops.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { FuncTool, InputRequest, Registry } from '../../lib/protocol';
import { Runtime } from '../../lib/runtime';
import type { CallOutcome, SuspendedCallOutcome, SuspensionStore } from '../../lib/runtime';
import { runOpenAIChatLoop } from '../../lib/runtime/loops';
import { MemoryStore, SqliteStore } from '../../lib/runtime/stores';
import { APPROVAL_SCHEMA, OBJECT, call, effects, sendEmail } from './support';

const OK = '{"ok":true}';

const stores: [string, () => Promise<SuspensionStore>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  [
    'SqliteStore',
    async () => SqliteStore.open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-rounds-')), 'db.sqlite')),
  ],
];

/** The key of the waiting round an `already-answered` outcome points to (its `previous`). */
function nextKey(outcome: CallOutcome): string | undefined {
  return outcome.kind === 'already-answered' && outcome.previous?.kind === 'suspended'
    ? outcome.previous.record.callId
    : undefined;
}

/** `pay({ to })`: asks to pay, then (after `delayMs`) asks again about the amount, then pays. */
function pay(paid: { n: number }, delayMs = 0) {
  return FuncTool.create(
    { name: 'pay', inputSchema: OBJECT({ to: { type: 'string' } }, ['to']), decode: (v) => v as { to: string } },
    async (input, c) => {
      const step = c.continuation === undefined ? 0 : (JSON.parse(c.continuation.state) as { step: number }).step;
      if (step < 2) {
        if (step === 1) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return InputRequest.create({
          prompt: JSON.stringify(step === 0 ? `Pay ${input.to}?` : 'The amount is $9,000: really?'),
          responseSchema: APPROVAL_SCHEMA,
          continuationState: JSON.stringify({ step: step + 1 }),
        });
      }
      paid.n += 1;
      return 'paid';
    },
  );
}

/** A Chat Completions client whose first reply calls `calls`, and every later one ends the conversation. */
function chatClient(calls: { id: string; name: string; arguments: string }[]): Pick<OpenAI, 'chat'> {
  let replies = 0;
  const create = async () => {
    replies += 1;
    const toolCalls =
      replies === 1
        ? calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
        : [];
    const message = { role: 'assistant', content: toolCalls.length > 0 ? null : 'done', refusal: null };
    return {
      id: `r${replies}`,
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          message: toolCalls.length > 0 ? { ...message, tool_calls: toolCalls } : message,
        },
      ],
    };
  };
  return { chat: { completions: { create } } } as never;
}

const waitingKeys = (result: { status: string; waiting?: readonly SuspendedCallOutcome[] }) =>
  result.waiting?.map((w) => [w.call.id, w.record.callId]);

describe.each(stores)('an answer answers its own round (%s)', (_name, open) => {
  it('a repeated answer to round 1, sequential or concurrent, never answers round 2', async () => {
    for (const concurrent of [false, true]) {
      const seen = effects();
      const runtime = new Runtime({ registry: new Registry(sendEmail(seen, { twice: true })), store: await open() });
      await runtime.runTurn({ threadId: 't', calls: [call('c', 'send_email', { to: 'boss@x.org' })] });
      const answer = { threadId: 't', callId: 'c', answer: OK };
      const both = concurrent
        ? await Promise.all([runtime.resume(answer), runtime.resume(answer)])
        : [await runtime.resume(answer), await runtime.resume(answer)];
      expect(both.map((o) => o.kind).sort()).toEqual(['already-answered', 'suspended']);
      expect(seen.sent).toBe(0);
      expect((await runtime.list({ threadId: 't' })).map((r) => r.callId)).toEqual(['c#2']);
      // Later, the same answer again: the stored outcome of round 1, the suspension of round 2.
      const again = await runtime.resume(answer);
      expect([again.kind, again.replayed, nextKey(again)]).toEqual(['already-answered', true, 'c#2']);
      // Round 2 is answered by its key; after that, each key gets its own round's stored outcome.
      const done = await runtime.resume({ ...answer, callId: 'c#2' });
      expect([done.kind, done.call.id, seen.sent]).toEqual(['completed', 'c', 1]);
      expect(nextKey(await runtime.resume(answer))).toBe('c#2');
      const last = await runtime.resume({ ...answer, callId: 'c#2' });
      expect([last.kind, last.kind === 'already-answered' && last.previous?.kind]).toEqual([
        'already-answered',
        'completed',
      ]);
      expect(seen.sent).toBe(1);
    }
  });

  it('a loop rerun after an invalid second answer resumes nothing twice and asks round 2 (a11)', async () => {
    const seen = effects();
    const registry = new Registry(sendEmail(seen, { twice: true }));
    const options = { runtime: new Runtime({ registry, store: await open() }), registry, threadId: 't' };
    const client = chatClient([
      { id: 'call_1', name: 'send_email', arguments: '{"to":"boss@x.org"}' },
      { id: 'call_2', name: 'send_email', arguments: '{"to":"team@x.org"}' },
    ]);
    const request = { model: 'm', messages: [{ role: 'user', content: 'email' }] as ChatCompletionMessageParam[] };
    const first = await runOpenAIChatLoop(client, request, options);
    expect(waitingKeys(first)).toEqual([
      ['call_1', 'call_1'],
      ['call_2', 'call_2'],
    ]);
    const again = (answers: { callId: string; answer: string }[]) =>
      runOpenAIChatLoop(client, { ...request, messages: first.messages }, { ...options, answers });
    await expect(
      again([
        { callId: 'call_1', answer: OK },
        { callId: 'call_2', answer: '{"ok":"yes"}' },
      ]),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_ANSWER' });
    // The same answers, the second one fixed: call_1's answer was applied, so it is not applied to
    // call_1's second question; both calls now wait for their second question.
    const rerun = await again([
      { callId: 'call_1', answer: OK },
      { callId: 'call_2', answer: OK },
    ]);
    expect([rerun.status, waitingKeys(rerun), seen.sent]).toEqual([
      'suspended',
      [
        ['call_1', 'call_1#2'],
        ['call_2', 'call_2#2'],
      ],
      0,
    ]);
    const round2 = [
      { callId: 'call_1#2', answer: OK },
      { callId: 'call_2#2', answer: OK },
    ];
    const done = await again(round2);
    expect([done.status, seen.sent]).toEqual(['done', 2]);
    // Run again with the same answers: the stored outcomes are sent, nothing runs.
    const replay = await again(round2);
    expect([replay.status, replay.outcomes.map((o) => o.kind), seen.sent]).toEqual([
      'done',
      ['already-answered', 'already-answered'],
      2,
    ]);
  });

  it('a double click on a two-step approval, rerun as the docs say, asks the second question (a15)', async () => {
    const paid = { n: 0 };
    const registry = new Registry(pay(paid, 200));
    const options = { runtime: new Runtime({ registry, store: await open() }), registry, threadId: 't' };
    const client = chatClient([{ id: 'call_1', name: 'pay', arguments: '{"to":"acme"}' }]);
    const request = { model: 'm', messages: [{ role: 'user', content: 'pay acme' }] as ChatCompletionMessageParam[] };
    const first = await runOpenAIChatLoop(client, request, options);
    const click = () =>
      runOpenAIChatLoop(
        client,
        { ...request, messages: first.messages },
        { ...options, answers: [{ callId: 'call_1', answer: OK }] },
      ).then(
        (result) => ({ status: result.status, keys: waitingKeys(result) }),
        (e: { code?: string }) => ({ status: e.code, keys: undefined }),
      );
    const clicks = await Promise.all([click(), click()]);
    const waiting = { status: 'suspended', keys: [['call_1', 'call_1#2']] };
    expect(clicks).toEqual(expect.arrayContaining([waiting, { status: 'ERR_CALL_RUNNING', keys: undefined }]));
    expect(await click()).toEqual(waiting);
    expect(paid.n).toBe(0);
  });
});
