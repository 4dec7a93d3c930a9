/**
 * How the runtime keys and compares calls (hostile review of issue 13, findings 3, 8, 9): argument
 * digests over canonical JSON, round keys no model call id can meet, and the cap on rounds.
 */
import { FuncTool, InputRequest, Registry } from '../../lib/protocol';
import { Runtime } from '../../lib/runtime';
import type { CallOutcome, SettledCallOutcome } from '../../lib/runtime';
import { MAX_SUSPENSION_ROUNDS, argumentsDigest, roundKey, roundOfKey } from '../../lib/runtime/identity';
import { MemoryStore } from '../../lib/runtime/stores';
import { APPROVAL_SCHEMA, OBJECT, call, echo, effects, sendEmail } from './support';

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

  it('a model call id "x#2" and round 2 of call "x" are two calls; "x#2" resumes the provider call', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen, { twice: true })), store: new MemoryStore() });
    await runtime.runTurn({ threadId: 't', calls: [call('x', 'send_email', { to: 'x@x.org' })] });
    const round2 = await runtime.resume({ threadId: 't', callId: 'x', answer: '{"ok":true}' });
    expect(round2.kind === 'suspended' && round2.record.callId).toBe('x#2');
    const [fresh] = await runtime.runTurn({ threadId: 't', calls: [call('x#2', 'send_email', { to: 'y@x.org' })] });
    expect([fresh.kind, fresh.replayed]).toEqual(['suspended', false]);
    expect(fresh.kind === 'suspended' && fresh.record.arguments).toBe('{"to":"y@x.org"}');
    const y = await runtime.resume({ threadId: 't', callId: 'x#2', answer: '{"ok":true}' });
    expect(y.kind === 'suspended' && y.record.arguments).toBe('{"to":"y@x.org"}');
    // The provider call id takes precedence over the round key it shares; x's round 2 still waits.
    expect((await runtime.list({ threadId: 't' })).map((r) => [r.callId, r.arguments])).toEqual([
      ['x#2', '{"to":"x@x.org"}'],
      ['x#2#2', '{"to":"y@x.org"}'],
    ]);
    expect(seen.sent).toBe(0);
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
