/**
 * How the runtime keys and compares calls (hostile review of issue 13, findings 3, 8, 9): argument
 * digests over canonical JSON, round keys no model call id can meet, and the cap on rounds.
 */
import { FuncTool, InputRequest, Registry } from '../../lib/protocol';
import { Runtime } from '../../lib/runtime';
import type { CallOutcome, SettledCallOutcome } from '../../lib/runtime';
import { MAX_SUSPENSION_ROUNDS, argumentsDigest, roundKey, roundOfKey } from '../../lib/runtime/identity';
import { MemoryStore } from '../../lib/runtime/stores';
import { APPROVAL_SCHEMA, OBJECT, call, echo, effects, payTool, sendEmail } from './support';

function settled(outcome: CallOutcome): SettledCallOutcome {
  if (outcome.kind === 'suspended') throw new Error('expected a settled outcome, got suspended');
  return outcome;
}

/** `ask()`: asks for approval on every run, forever. */
function askForever(runs: { n: number }) {
  return FuncTool.create({ name: 'ask', inputSchema: OBJECT(), decode: (v) => v }, () => {
    runs.n++;
    return InputRequest.create({ prompt: '"again?"', responseSchema: APPROVAL_SCHEMA, continuationState: '{}' });
  });
}

describe('argument digests (finding 3)', () => {
  it('are equal for equal JSON values whatever the whitespace, member order or number spelling', () => {
    expect(argumentsDigest('{ "b": [1, 2.0], "a": "x" }')).toBe(argumentsDigest('{"a":"x","b":[1,2]}'));
    expect(argumentsDigest('{"a":"x"}')).not.toBe(argumentsDigest('{"a":"y"}'));
    // Not JSON, or numbers a double cannot keep apart: the text itself.
    expect(argumentsDigest('not json')).not.toBe(argumentsDigest('not  json'));
    expect(argumentsDigest('{"n":12345678901234567890}')).not.toBe(argumentsDigest('{"n":12345678901234567891}'));
  });

  it('a turn replayed with re-serialized arguments (FuncTool: raw text) gets the stored outcome', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(echo(seen), sendEmail(seen)), store: new MemoryStore() });
    const first = await runtime.runTurn({
      threadId: 't',
      calls: [
        { id: 'e', request: { name: 'echo', arguments: '{"text":"hi"}' } },
        { id: 's', request: { name: 'send_email', arguments: '{"to":"a@x.org"}' } },
      ],
    });
    const again = await runtime.runTurn({
      threadId: 't',
      calls: [
        { id: 'e', request: { name: 'echo', arguments: '{ "text" : "hi" }\n' } },
        { id: 's', request: { name: 'send_email', arguments: ' {"to": "a@x.org"} ' } },
      ],
    });
    expect(first.map((o) => [o.kind, o.replayed])).toEqual([
      ['completed', false],
      ['suspended', false],
    ]);
    expect(again.map((o) => [o.kind, o.replayed])).toEqual([
      ['completed', true],
      ['suspended', true],
    ]);
    expect(seen.calls).toBe(2);
    const [other] = await runtime.runTurn({ threadId: 't', calls: [call('e', 'echo', { text: 'ho' })] });
    expect(other.kind).toBe('call-id-conflict');
  });
});

describe('round keys (finding 8)', () => {
  it('no (call id, round) pair shares a key with another', () => {
    const ids = ['x', 'x#2', 'x#2#1', 'x#1', 'x#02', '#3', 'a#b'];
    const keys = new Map<string, string>();
    for (const id of ids) {
      for (const round of [1, 2, 3, 100]) {
        const key = roundKey(id, round);
        expect(keys.get(key)).toBeUndefined();
        keys.set(key, `${id}/${round}`);
        expect(roundOfKey(key)).toEqual({ callId: id, round });
        expect(Buffer.byteLength(key) - Buffer.byteLength(id)).toBeLessThanOrEqual(4);
      }
    }
    expect(roundKey('x', 1)).toBe('x');
    expect(roundKey('x#2', 1)).toBe('x#2#1');
  });

  // Regression (review A, round keys): a later call whose provider id spelled the round key
  // `call_1#2` suspended under `call_1#2#1`, and resume({ callId: 'call_1#2' }), the key list()
  // showed for bob's question 2, resumed that other call: the person's approval paid mallory 5000.
  it('a provider call id "<id>#<n>" is refused; the key list() shows resumes the question it was shown for', async () => {
    const paid: string[] = [];
    const pay = payTool(paid);
    const store = new MemoryStore();
    const runtime = new Runtime({ registry: new Registry(pay), store });
    const who = { threadId: 't', principal: 'alice' };
    await runtime.runTurn({ ...who, calls: [call('call_1', 'pay', { to: 'bob', amount: 50, rounds: 2 })] });
    const q2 = await runtime.resume({ ...who, callId: 'call_1', answer: 'true' });
    const key = q2.kind === 'suspended' ? q2.record.callId : q2.kind;
    expect(key).toBe('call_1#2');
    // A later turn carries a call whose provider id is that key: refused, nothing of it stored.
    for (const id of ['call_1#2', 'call_1#2#1', 'x#0', 'x#02', '#7']) {
      const [odd] = await runtime.runTurn({ ...who, calls: [call(id, 'pay', { to: 'mallory', amount: 5000 })] });
      const refused = settled(odd);
      expect([refused.kind, refused.call.id, (refused.diagnostic as { code?: string }).code]).toEqual([
        'refused',
        id,
        'ERR_INVALID_CALL',
      ]);
      expect(await store.getSettled({ threadId: 't', callId: id })).toBeUndefined();
    }
    const [odd] = await runtime.runTurn({ ...who, calls: [call('call_1#2', 'pay', { to: 'mallory', amount: 5000 })] });
    expect(settled(odd).rendered.output.asText()).toBe(
      'error: the tool call is malformed (its id ends in "#" and digits, the form the runtime keeps for the later ' +
        'questions of a call), so it did not run; call the tool again',
    );
    expect((settled(odd).diagnostic as Error).message).toBe(
      'runtime: runTurn: calls[0] (id "call_1#2"): its id ends in "#" and digits, the form the runtime keeps for the ' +
        'later questions of a call; the call did not run, the other calls of the turn did (check the provider reader ' +
        'that built it)',
    );
    expect(await store.get({ threadId: 't', callId: 'call_1#2#1' })).toBeUndefined();
    const listed = await runtime.list({ threadId: 't' });
    expect(listed.map((r) => [r.callId, r.arguments])).toEqual([['call_1#2', '{"to":"bob","amount":50,"rounds":2}']]);
    // The key list() showed answers bob's question 2, and nothing else.
    const done = settled(await runtime.resume({ ...who, callId: listed[0].callId, answer: 'true' }));
    expect([done.kind, done.call.id, done.rendered.output.asText()]).toEqual(['completed', 'call_1', 'PAID 50 to bob']);
    expect(paid).toEqual(['50 to bob']);
  });
});

describe('MAX_SUSPENSION_ROUNDS (finding 9)', () => {
  it('every round up to the cap resumes by its round key; the round past it ends failed, not committed', async () => {
    const runs = { n: 0 };
    const store = new MemoryStore();
    const runtime = new Runtime({ registry: new Registry(askForever(runs)), store });
    await runtime.runTurn({ threadId: 't', calls: [call('q', 'ask')] });
    for (let round = 2; round <= MAX_SUSPENSION_ROUNDS; round++) {
      const next = await runtime.resume({ threadId: 't', callId: roundKey('q', round - 1), answer: '{"ok":true}' });
      expect(next.kind === 'suspended' && next.record.callId).toBe(`q#${round}`);
    }
    const last = roundKey('q', MAX_SUSPENSION_ROUNDS);
    const past = settled(await runtime.resume({ threadId: 't', callId: last, answer: '{"ok":true}' }));
    expect(past.kind).toBe('failed');
    expect(past.diagnostic).toMatchObject({ code: 'ERR_TOO_MANY_ROUNDS' });
    expect(runs.n).toBe(MAX_SUSPENSION_ROUNDS + 1);
    expect(await store.get({ threadId: 't', callId: `q#${MAX_SUSPENSION_ROUNDS + 1}` })).toBeUndefined();
    expect(await runtime.list({ threadId: 't' })).toEqual([]);
    const again = settled(await runtime.resume({ threadId: 't', callId: last, answer: '{"ok":true}' }));
    expect([again.kind, again.previous?.kind]).toEqual(['already-answered', 'failed']);
    const [replayed] = await runtime.runTurn({ threadId: 't', calls: [call('q', 'ask')] });
    expect([replayed.kind, replayed.replayed, runs.n]).toEqual(['failed', true, MAX_SUSPENSION_ROUNDS + 1]);
  });
});
