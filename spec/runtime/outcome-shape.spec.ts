/**
 * The shape of the runtime's outcomes and stored calls: frozen, the call identity's members first,
 * then the outcome's own, in one order (what a caller that serializes an outcome sees), whichever
 * way they are built (lib/runtime/frozen.ts frozenWith; written out for the hot paths).
 */
import { Runtime } from '../../lib/runtime';
import type { CallOutcome } from '../../lib/runtime';
import { frozenWith } from '../../lib/runtime/frozen';
import { MemoryStore } from '../../lib/runtime/stores';
import { call, crashing, echo, effects, Registry, sendEmail } from './support';

const IDENTITY = ['threadId', 'call', 'idempotencyKey'];

describe('frozenWith', () => {
  it('copies the base, then the members, in order; a member of the base keeps its place; frozen; the base unchanged', () => {
    const base = { a: 1, b: 2 };
    const out = frozenWith(base, { c: 3, a: 4 });
    expect(Object.keys(out)).toEqual(['a', 'b', 'c']);
    expect(out).toEqual({ a: 4, b: 2, c: 3 });
    expect(Object.isFrozen(out)).toBe(true);
    expect(base).toEqual({ a: 1, b: 2 });
    expect(Object.isFrozen(base)).toBe(false);
  });
});

describe('runtime outcomes', () => {
  const store = new MemoryStore();
  const runtime = new Runtime({ registry: new Registry(echo(), crashing(), sendEmail(effects())), store });
  let outcomes: readonly CallOutcome[];

  beforeAll(async () => {
    outcomes = await runtime.runTurn({
      threadId: 'shape',
      calls: [call('c1', 'echo', { text: 'hi' }), call('c2', 'crash'), call('c3', 'send_email', { to: 'a@b.c' })],
    });
  });

  it('are frozen, with the identity first, then kind, replayed and the rest', () => {
    expect(outcomes.map((o) => Object.isFrozen(o))).toEqual([true, true, true]);
    expect(outcomes.map((o) => Object.keys(o))).toEqual([
      [...IDENTITY, 'kind', 'replayed', 'toolOutcome', 'rendered'],
      [...IDENTITY, 'kind', 'replayed', 'toolOutcome', 'rendered', 'diagnostic'],
      [...IDENTITY, 'kind', 'replayed', 'inputRequest', 'record'],
    ]);
    expect(outcomes.map((o) => [o.threadId, o.call.id, o.kind])).toEqual([
      ['shape', 'c1', 'completed'],
      ['shape', 'c2', 'error'],
      ['shape', 'c3', 'suspended'],
    ]);
  });

  it('replayed from the store keep that shape, and the stored call its members in order', async () => {
    const again = await runtime.runTurn({ threadId: 'shape', calls: [call('c1', 'echo', { text: 'hi' })] });
    expect(Object.keys(again[0])).toEqual([...IDENTITY, 'kind', 'replayed', 'toolOutcome', 'rendered']);
    expect([again[0].kind, again[0].replayed, Object.isFrozen(again[0])]).toEqual(['completed', true, true]);
    const begun = await store.begin(
      { threadId: 'shape', callId: 'c1', tool: 'echo', argumentsDigest: `sha256:${'0'.repeat(64)}`, principal: '' },
      Date.now(),
    );
    expect(begun.status).toBe('settled');
    if (begun.status !== 'settled') return;
    expect(Object.keys(begun.call)).toEqual([
      'threadId',
      'callId',
      'tool',
      'argumentsDigest',
      'principal',
      'outcome',
      'createdAt',
    ]);
    expect(Object.isFrozen(begun.call)).toBe(true);
  });
});
