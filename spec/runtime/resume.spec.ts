/**
 * Runtime.resume (lib/runtime/runtime.ts): an answer resumes its call exactly once, on any instance
 * sharing the store; the answer is validated before the record is taken; policies decide again; a
 * changed tool, another principal, an unknown call and an expired call are each named.
 */
import { FuncTool, InputRequest, Registry } from '../../lib/protocol';
import type { CallOptions } from '../../lib/protocol';
import { Runtime, RuntimeError } from '../../lib/runtime';
import type { CallOutcome, SettledCallOutcome, SuspendedCallOutcome } from '../../lib/runtime';
import { principalMismatch } from '../../lib/runtime/messages';
import type { SuspensionStore } from '../../lib/runtime/store';
import { OBJECT, call, effects, guarded, newStore, sendEmail } from './support';
import type { Effects } from './support';

function settled(outcome: CallOutcome): SettledCallOutcome {
  if (outcome.kind === 'suspended') throw new Error('expected a settled outcome');
  return outcome;
}

function suspended(outcome: CallOutcome): SuspendedCallOutcome {
  if (outcome.kind !== 'suspended') throw new Error(`expected a suspended outcome, got ${outcome.kind}`);
  return outcome;
}

const text = (outcome: CallOutcome) => settled(outcome).rendered.output.asText();

async function caught(promise: Promise<unknown>): Promise<RuntimeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RuntimeError);
  return error as RuntimeError;
}

function setup(options: { twice?: boolean } = {}): { seen: Effects; store: SuspensionStore; runtime: Runtime } {
  const seen = effects();
  const store = newStore();
  const runtime = new Runtime({ registry: new Registry(sendEmail(seen, options)), store });
  return { seen, store, runtime };
}

async function suspend(runtime: Runtime, threadId: string, id: string, principal?: string) {
  const [outcome] = await runtime.runTurn({
    threadId,
    principal,
    calls: [call(id, 'send_email', { to: `${id}@x.org` })],
  });
  return suspended(outcome);
}

describe('Runtime.resume', () => {
  it('resumes both of two parallel suspensions of one turn', async () => {
    const { seen, runtime } = setup();
    const outcomes = await runtime.runTurn({
      threadId: 't',
      calls: [call('a', 'send_email', { to: 'a@x.org' }), call('b', 'send_email', { to: 'b@x.org' })],
    });
    expect(outcomes.map((o) => o.kind)).toEqual(['suspended', 'suspended']);
    expect((await runtime.list({ threadId: 't' })).map((r) => r.callId).sort()).toEqual(['a', 'b']);
    const b = await runtime.resume({ threadId: 't', callId: 'b', answer: '{"ok":true}' });
    const a = await runtime.resume({ threadId: 't', callId: 'a', answer: '{"ok":true}' });
    expect([a.kind, text(a), b.kind, text(b)]).toEqual([
      'completed',
      'sent to a@x.org',
      'completed',
      'sent to b@x.org',
    ]);
    expect([a.call.id, b.call.id]).toEqual(['a', 'b']);
    expect(seen.sent).toBe(2);
    expect(await runtime.list({ threadId: 't' })).toEqual([]);
  });

  it('runs the tool once for concurrent answers; the others are already-answered', async () => {
    const { seen, store, runtime } = setup();
    await suspend(runtime, 't', 'c');
    // Several instances over one store, answering at once.
    const instances = [
      runtime,
      ...Array.from({ length: 4 }, () => new Runtime({ registry: new Registry(sendEmail(seen)), store })),
    ];
    const outcomes = await Promise.all(
      instances.flatMap((r) => [1, 2].map(() => r.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }))),
    );
    const kinds = outcomes.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'completed')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'already-answered')).toHaveLength(outcomes.length - 1);
    expect(seen.sent).toBe(1);
  });

  it('returns the stored outcome to a repeated answer without running the tool again', async () => {
    const { seen, runtime } = setup();
    await suspend(runtime, 't', 'c');
    const first = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    const again = settled(await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":false}' }));
    expect(again.kind).toBe('already-answered');
    expect(again.previous?.kind).toBe('completed');
    expect(again.replayed).toBe(true);
    // The model would be told exactly what the first answer produced.
    expect(again.rendered.output.asText()).toBe(text(first));
    expect(seen.sent).toBe(1);
  });

  it('resumes after a restart: a new Runtime over the same store', async () => {
    const { seen, store, runtime } = setup();
    await suspend(runtime, 't', 'c', 'alice');
    const restarted = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    const outcome = await restarted.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', principal: 'alice' });
    expect([outcome.kind, text(outcome)]).toEqual(['completed', 'sent to c@x.org']);
    expect(seen.sent).toBe(1);
  });

  it('asks the policy again on resume: one that now refuses makes the outcome rejected', async () => {
    const seen = effects();
    const store = newStore();
    let allow = true;
    const decisions: CallOptions[] = [];
    const registry = new Registry(
      guarded(sendEmail(seen), (_a: unknown, options: CallOptions) => {
        decisions.push(options);
        return allow;
      }),
    );
    const runtime = new Runtime({ registry, store });
    await runtime.runTurn({ threadId: 't', context: 'first', calls: [call('c', 'send_email', { to: 'c@x.org' })] });
    allow = false;
    const outcome = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', context: 'second' });
    expect(outcome.kind).toBe('rejected');
    expect(seen.sent).toBe(0);
    expect(decisions.map((d) => d.context)).toEqual(['first', 'second']);
  });

  it('refuses an invalid answer and keeps the call waiting for a valid one', async () => {
    const { seen, runtime } = setup();
    await suspend(runtime, 't', 'c');
    for (const answer of ['{"ok":"yes"}', 'not json', '{}']) {
      const error = await caught(runtime.resume({ threadId: 't', callId: 'c', answer }));
      expect(error.code).toBe('ERR_INVALID_ANSWER');
    }
    const schemaError = await caught(runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":"yes"}' }));
    expect(schemaError.issues[0]?.path).toEqual(['ok']);
    expect((await runtime.list({ threadId: 't' })).map((r) => r.callId)).toEqual(['c']);
    const outcome = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    expect(outcome.kind).toBe('completed');
    expect(seen.sent).toBe(1);
  });

  it('refuses another principal and keeps the call waiting', async () => {
    const { runtime } = setup();
    await suspend(runtime, 't', 'c', 'alice');
    const error = await caught(
      runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', principal: 'mallory' }),
    );
    expect(error.code).toBe('ERR_PRINCIPAL_MISMATCH');
    expect(error.message).toBe(principalMismatch('t', 'c', true, true).message);
    const anonymous = await caught(runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }));
    expect(anonymous.code).toBe('ERR_PRINCIPAL_MISMATCH');
    // Regression (new-user trial, finding 14b): no principal given was called "another principal's".
    expect(anonymous.message).toBe(principalMismatch('t', 'c', true, false).message);
    expect(await runtime.list({ principal: 'alice' })).toHaveLength(1);
    const outcome = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', principal: 'alice' });
    expect(outcome.kind).toBe('completed');
  });

  it('refuses a principal for a call suspended without one, saying so', async () => {
    const { runtime } = setup();
    await suspend(runtime, 't', 'c');
    const error = await caught(runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', principal: 'bob' }));
    expect(error.code).toBe('ERR_PRINCIPAL_MISMATCH');
    expect(error.message).toBe(principalMismatch('t', 'c', false, true).message);
    expect((await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' })).kind).toBe('completed');
  });

  it('ends the call as tool-changed when the contract changed while it waited, without running it', async () => {
    const { seen, store, runtime } = setup();
    await suspend(runtime, 't', 'c');
    const changed = new Runtime({
      registry: new Registry(sendEmail(seen, { description: 'Send an email (new wording)' })),
      store,
    });
    const outcome = settled(await changed.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }));
    expect(outcome.kind).toBe('tool-changed');
    expect(outcome.rendered.isError).toBe(true);
    expect(outcome.rendered.output.asText()).toContain('"send_email"');
    expect(seen.sent).toBe(0);
    // The tool removed altogether: the same.
    await suspend(runtime, 't', 'd');
    const removed = new Runtime({ registry: new Registry(), store });
    expect((await removed.resume({ threadId: 't', callId: 'd', answer: '{"ok":true}' })).kind).toBe('tool-changed');
  });

  it('names an unknown call (ERR_UNKNOWN_CALL) and a malformed request (ERR_INVALID_TURN)', async () => {
    const { runtime } = setup();
    expect((await caught(runtime.resume({ threadId: 't', callId: 'nope', answer: '{}' }))).code).toBe(
      'ERR_UNKNOWN_CALL',
    );
    expect((await caught(runtime.resume({ threadId: 't', callId: '', answer: '{}' }))).code).toBe('ERR_INVALID_TURN');
    expect((await caught(runtime.resume({ threadId: 't', callId: 'c', answer: {} } as never))).code).toBe(
      'ERR_INVALID_TURN',
    );
  });

  it('ends an answer after the expiry as expired, and the call never runs', async () => {
    let now = 1_000;
    const seen = effects();
    const runtime = new Runtime({
      registry: new Registry(sendEmail(seen)),
      store: newStore(),
      suspensionTtlMs: 100,
      now: () => now,
    });
    await suspend(runtime, 't', 'c');
    now = 1_101;
    const outcome = settled(await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }));
    expect(outcome.kind).toBe('expired');
    expect(outcome.rendered.output.asText()).toContain('"send_email"');
    expect(seen.sent).toBe(0);
    // A replayed turn sees it expired too.
    const [replayed] = await runtime.runTurn({ threadId: 't', calls: [call('c', 'send_email', { to: 'c@x.org' })] });
    expect(replayed.kind).toBe('expired');
    expect(seen.calls).toBe(1);
  });

  it('commits a resume that suspends again as round 2, answered by its round key', async () => {
    const { seen, store, runtime } = setup({ twice: true });
    const first = await suspend(runtime, 't', 'c');
    const second = suspended(await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }));
    expect(second.call.id).toBe('c');
    expect(second.record.callId).toBe('c#2');
    expect(second.record.idempotencyKey).toBe(first.record.idempotencyKey);
    expect(await store.get({ threadId: 't', callId: 'c#2' })).toEqual({ record: second.record });
    expect((await store.get({ threadId: 't', callId: 'c' }))?.outcome?.kind).toBe('suspended');
    // Answered by the round key the suspended outcome and the listed record carry.
    const listed = await runtime.list({ threadId: 't' });
    expect(listed.map((r) => r.callId)).toEqual(['c#2']);
    const done = await runtime.resume({ threadId: 't', callId: listed[0].callId, answer: '{"ok":true}' });
    expect([done.kind, done.call.id, text(done)]).toEqual(['completed', 'c', 'sent to c@x.org']);
    const again = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    expect(again.kind).toBe('already-answered');
    expect(seen.sent).toBe(1);
    // A replayed turn returns the final outcome.
    const [replayed] = await runtime.runTurn({ threadId: 't', calls: [call('c', 'send_email', { to: 'c@x.org' })] });
    expect([replayed.kind, replayed.replayed, text(replayed)]).toEqual(['completed', true, 'sent to c@x.org']);
  });

  it('an `error` of a resumed call is not stored: the call is waiting again, answerable at once', async () => {
    const store = newStore();
    let fail = true;
    let runs = 0;
    const flaky = FuncTool.create({ name: 'flaky', inputSchema: OBJECT(), decode: (v) => v }, (_i, c) => {
      if (c.continuation === undefined) {
        return sendEmailRequest();
      }
      runs++;
      if (fail) throw new Error('boom');
      return 'ok';
    });
    const runtime = new Runtime({ registry: new Registry(flaky), store });
    await runtime.runTurn({ threadId: 't', calls: [call('c', 'flaky')] });
    const outcome = settled(await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' }));
    expect(outcome.kind).toBe('error');
    expect(outcome.rendered.output.asText()).not.toContain('boom');
    expect((await store.get({ threadId: 't', callId: 'c' }))?.outcome).toBeUndefined();
    expect((await runtime.list({ threadId: 't' })).map((r) => r.callId)).toEqual(['c']);
    fail = false;
    const again = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    expect([again.kind, text(again), runs]).toEqual(['completed', 'ok', 2]);
  });
});

function sendEmailRequest(): InputRequest {
  return InputRequest.create({
    prompt: '"Go?"',
    responseSchema: OBJECT({ ok: { type: 'boolean' } }, ['ok']),
    continuationState: '{}',
  });
}
