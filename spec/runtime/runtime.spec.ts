/**
 * Runtime.runTurn (lib/runtime/runtime.ts): exactly one outcome per call id, in order, of every kind
 * a turn can resolve; the suspension record committed before the outcome; budgets; config checks.
 */
import { FuncTool, Registry } from '../../lib/protocol';
import {
  MAX_LEASE_MS,
  MAX_SUSPENSION_TTL_MS,
  Runtime,
  RuntimeError,
  SUSPENSION_RECORD_VERSION,
  contractFingerprint,
} from '../../lib/runtime';
import type { CallOutcome, SettledCallOutcome, SuspendedCallOutcome } from '../../lib/runtime';
import { argumentsDigest, idempotencyKeyOf } from '../../lib/runtime/identity';
import {
  FaultyStore,
  OBJECT,
  SECRET,
  call,
  crashing,
  echo,
  effects,
  failing,
  guarded,
  newStore,
  sendEmail,
} from './support';

const NOW = 1_700_000_000_000;

function settled(outcome: CallOutcome): SettledCallOutcome {
  if (outcome.kind === 'suspended') throw new Error('expected a settled outcome');
  return outcome;
}

function suspended(outcome: CallOutcome): SuspendedCallOutcome {
  if (outcome.kind !== 'suspended') throw new Error(`expected a suspended outcome, got ${outcome.kind}`);
  return outcome;
}

function modelText(outcome: CallOutcome): string {
  return settled(outcome).rendered.output.asText() ?? '';
}

describe('Runtime.runTurn outcome kinds', () => {
  const seen = effects();
  const registry = new Registry(
    echo(),
    failing(),
    crashing(),
    sendEmail(seen),
    guarded(
      FuncTool.create({ name: 'delete_all', inputSchema: OBJECT(), decode: (v) => v }, () => 'deleted'),
      () => false,
    ),
  );
  const store = newStore();
  const runtime = new Runtime({ registry, store, now: () => NOW });

  it('resolves one outcome per call, in order, of each kind', async () => {
    const outcomes = await runtime.runTurn({
      threadId: 't-kinds',
      calls: [
        call('c1', 'echo', { text: 'hi' }),
        call('c2', 'echo', { text: 5 }),
        call('c3', 'no_such_tool'),
        call('c4', 'delete_all'),
        call('c5', 'fail'),
        call('c6', 'crash'),
        call('c7', 'send_email', { to: 'a@example.com' }),
      ],
    });
    expect(outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['c1', 'completed'],
      ['c2', 'refused'],
      ['c3', 'refused'],
      ['c4', 'rejected'],
      ['c5', 'failed'],
      ['c6', 'error'],
      ['c7', 'suspended'],
    ]);
    expect(modelText(outcomes[0])).toBe('hi');
    expect(settled(outcomes[2]).rendered.output.asText()).toContain('unknown tool "no_such_tool"');
    expect(settled(outcomes[3]).rendered.isError).toBe(true);
    expect(modelText(outcomes[4])).toBe('error: the disk is full; try later');
    // An error never leaks its message to the model; the diagnostic keeps it for logs.
    expect(modelText(outcomes[5])).not.toContain('hunter2');
    expect((settled(outcomes[5]).diagnostic as Error).message).toBe(SECRET);
    expect(outcomes.every((o) => o.threadId === 't-kinds' && !o.replayed)).toBe(true);
  });

  it('gives calls sharing an id one refused outcome, and runs neither', async () => {
    const outcomes = await runtime.runTurn({
      threadId: 't-dup',
      calls: [
        call('same', 'echo', { text: 'a' }),
        call('same', 'echo', { text: 'b' }),
        call('other', 'echo', { text: 'c' }),
      ],
    });
    expect(outcomes.map((o) => [o.call.id, o.kind])).toEqual([
      ['same', 'refused'],
      ['other', 'completed'],
    ]);
  });

  it('commits the suspension record before resolving the suspended outcome', async () => {
    const [outcome] = await runtime.runTurn({
      threadId: 't-record',
      principal: 'alice',
      calls: [call('call_1', 'send_email', { to: 'b@example.com' })],
    });
    const s = suspended(outcome);
    const stored = await store.get({ threadId: 't-record', callId: 'call_1' });
    expect(stored?.record).toEqual(s.record);
    const definition = registry.resolve('send_email')!.contract.definition();
    expect(s.record).toEqual({
      version: SUSPENSION_RECORD_VERSION,
      threadId: 't-record',
      callId: 'call_1',
      tool: 'send_email',
      contractFingerprint: contractFingerprint(definition),
      arguments: '{"to":"b@example.com"}',
      argumentsDigest: argumentsDigest('{"to":"b@example.com"}'),
      principal: 'alice',
      inputRequest: JSON.stringify(s.inputRequest),
      idempotencyKey: idempotencyKeyOf('t-record', 'call_1'),
      createdAt: NOW,
      expiresAt: NOW + 86_400_000,
    });
    expect(s.record.contractFingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.parse(s.inputRequest.prompt)).toBe('Send the email to b@example.com?');
    // The record is plain JSON: it survives a round trip unchanged.
    expect(JSON.parse(JSON.stringify(s.record))).toEqual(s.record);
  });

  it('derives one idempotency key per (thread, call id)', () => {
    const key = idempotencyKeyOf('t', 'c');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyKeyOf('t', 'c')).toBe(key);
    expect(idempotencyKeyOf('t', 'd')).not.toBe(key);
    expect(idempotencyKeyOf('t2', 'c')).not.toBe(key);
    // No two pairs share a text: ("a,b", "c") is not ("a", "b,c").
    expect(idempotencyKeyOf('a,b', 'c')).not.toBe(idempotencyKeyOf('a', 'b,c'));
  });

  it('cuts a call at the configured deadline (failed, the model told which tool)', async () => {
    const hang = FuncTool.create(
      { name: 'hang', inputSchema: OBJECT(), decode: (v) => v },
      () => new Promise(() => undefined),
    );
    const timed = new Runtime({ registry: new Registry(hang), store: newStore(), timeoutMs: 10 });
    const [outcome] = await timed.runTurn({ threadId: 't', calls: [call('h', 'hang')] });
    expect(outcome.kind).toBe('failed');
    expect(modelText(outcome)).toContain('"hang"');
  });

  it('runs a call without an id but cannot suspend it (error)', async () => {
    const outcomes = await runtime.runTurn({
      threadId: 't-noid',
      calls: [call('', 'echo', { text: 'x' }), call('', 'send_email', { to: 'c@example.com' })],
    });
    expect(outcomes.map((o) => o.kind)).toEqual(['completed', 'error']);
    expect(outcomes[0].idempotencyKey).toBeUndefined();
  });
});

describe('Runtime settled calls (store.settle)', () => {
  it('stores completed calls with the digest of their normalized arguments; not errors', async () => {
    const seen = effects();
    let crashes = 0;
    const crash = FuncTool.create({ name: 'crash', inputSchema: OBJECT(), decode: (v) => v }, () => {
      crashes++;
      throw new Error(SECRET);
    });
    const store = newStore();
    const runtime = new Runtime({ registry: new Registry(echo(seen), crash), store, now: () => NOW });
    const calls = [call('a', 'echo', { text: 'a' }), call('x', 'crash')];
    await runtime.runTurn({ threadId: 't', principal: 'p', calls });
    expect(await store.getSettled({ threadId: 't', callId: 'a' })).toEqual({
      threadId: 't',
      callId: 'a',
      tool: 'echo',
      argumentsDigest: argumentsDigest('{"text":"a"}'),
      principal: 'p',
      outcome: { kind: 'completed', output: expect.any(String) },
      createdAt: NOW,
    });
    // An error is not stored: a replayed turn tries the call again.
    expect(await store.getSettled({ threadId: 't', callId: 'x' })).toBeUndefined();
    const again = await runtime.runTurn({ threadId: 't', principal: 'p', calls });
    expect(again.map((o) => [o.kind, o.replayed])).toEqual([
      ['completed', true],
      ['error', false],
    ]);
    expect([seen.calls, crashes]).toEqual([1, 2]);
    // Another principal replaying the thread's call id gets an error, not the stored output.
    const [other] = await runtime.runTurn({ threadId: 't', principal: 'q', calls: [calls[0]] });
    expect(other.kind).toBe('error');
    expect(modelText(other)).not.toBe('a');
  });

  it('a settle that rejects keeps the outcome and sets storeError (the tool ran)', async () => {
    const store = new FaultyStore(newStore());
    store.settleError = new Error('disk full');
    const runtime = new Runtime({ registry: new Registry(echo()), store });
    const [outcome] = await runtime.runTurn({ threadId: 't', calls: [call('a', 'echo', { text: 'a' })] });
    expect([outcome.kind, modelText(outcome)]).toEqual(['completed', 'a']);
    expect(outcome.storeError).toBe(store.settleError);
  });
});

describe('Runtime budgets', () => {
  it('spends the per-tool budget of a thread, then tells the model to stop calling the tool', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(echo(seen)), store: newStore(), budget: { perTool: 2 } });
    const turn = (threadId: string, id: string) =>
      runtime.runTurn({ threadId, calls: [call(id, 'echo', { text: id })] });
    expect((await turn('t', 'a'))[0].kind).toBe('completed');
    expect((await turn('t', 'b'))[0].kind).toBe('completed');
    const [third] = await turn('t', 'c');
    expect(third.kind).toBe('budget-exceeded');
    expect(modelText(third)).toContain('"echo"');
    expect(modelText(third)).toContain('(2 calls)');
    expect(settled(third).rendered.isError).toBe(true);
    expect(seen.calls).toBe(2);
    // Budgets are per thread.
    expect((await turn('other', 'a'))[0].kind).toBe('completed');
  });

  it('spends the total budget across tools, and does not count refused calls', async () => {
    const runtime = new Runtime({ registry: new Registry(echo(), failing()), store: newStore(), budget: { total: 2 } });
    const outcomes = await runtime.runTurn({
      threadId: 't',
      calls: [call('bad', 'echo', { text: 1 }), call('a', 'echo', { text: 'a' }), call('b', 'fail')],
    });
    expect(outcomes.map((o) => o.kind)).toEqual(['refused', 'completed', 'failed']);
    const [over] = await runtime.runTurn({ threadId: 't', calls: [call('c', 'echo', { text: 'c' })] });
    expect(over.kind).toBe('budget-exceeded');
    expect(modelText(over)).toContain('(2 calls)');
  });

  it('holds across runtime instances sharing the store', async () => {
    const store = newStore();
    const registry = new Registry(echo());
    const one = new Runtime({ registry, store, budget: { perTool: 1 } });
    const two = new Runtime({ registry, store, budget: { perTool: 1 } });
    const [a, b] = await Promise.all([
      one.runTurn({ threadId: 't', calls: [call('a', 'echo', { text: 'a' })] }),
      two.runTurn({ threadId: 't', calls: [call('b', 'echo', { text: 'b' })] }),
    ]);
    expect([a[0].kind, b[0].kind].sort()).toEqual(['budget-exceeded', 'completed']);
  });
});

describe('Runtime malformed calls (one refused outcome each; the turn resolves)', () => {
  it('refuses each malformed call with ERR_INVALID_CALL or ERR_ID_TOO_LONG before anything runs; siblings run', async () => {
    const seen = effects();
    const store = newStore();
    const runtime = new Runtime({ registry: new Registry(echo(seen)), store });
    const bad: unknown[] = [
      { id: 'no-request' },
      { id: 'no-arguments', request: { name: 'echo' } },
      { id: 'object-arguments', request: { name: 'echo', arguments: { text: 'x' } } },
      { id: 'number-name', request: { name: 42, arguments: '{}' } },
      // Regression (third hostile review): a `complete` that is not a boolean ran the call.
      { id: 'complete-text', request: { name: 'echo', arguments: '{"text":"x"}' }, complete: 'no' },
      { id: 'malformed-number', request: { name: 'echo', arguments: '{"text":"x"}' }, malformed: 42 },
      { id: 7, request: { name: 'echo', arguments: '{"text":"x"}' } },
      null,
      'echo',
      call('nul\u0000id', 'echo', { text: 'x' }),
      call('lone\ud800', 'echo', { text: 'x' }),
      call(`call_${'x'.repeat(2_000)}`, 'echo', { text: 'x' }),
    ];
    const turn = {
      threadId: 't-bad',
      calls: [call('first', 'echo', { text: 'a' }), ...bad, call('last', 'echo', { text: 'b' })] as never,
    };
    for (const replay of [false, true]) {
      const outcomes = await runtime.runTurn(turn);
      expect(outcomes.map((o) => o.kind)).toEqual(['completed', ...bad.map(() => 'refused'), 'completed']);
      expect(outcomes.map((o) => o.replayed)).toEqual([replay, ...bad.map(() => false), replay]);
      const refused = outcomes.slice(1, -1).map(settled);
      expect(refused.map((o) => (o.diagnostic as RuntimeError).code)).toEqual([
        ...bad.slice(0, -1).map(() => 'ERR_INVALID_CALL'),
        'ERR_ID_TOO_LONG',
      ]);
      expect(refused.map((o) => o.call.id)).toEqual([
        'no-request',
        'no-arguments',
        'object-arguments',
        'number-name',
        'complete-text',
        'malformed-number',
        '',
        '',
        '',
        'nul\u0000id',
        'lone\ud800',
        `call_${'x'.repeat(2_000)}`,
      ]);
      for (const o of refused) {
        expect(o.diagnostic).toBeInstanceOf(RuntimeError);
        expect(o.rendered.isError).toBe(true);
        expect(typeof o.call.request.name).toBe('string');
        expect(typeof o.call.request.arguments).toBe('string');
        expect(o.idempotencyKey).toBeUndefined();
      }
    }
    expect(seen.calls).toBe(2);
    await expect(store.getSettled({ threadId: 't-bad', callId: 'no-request' })).resolves.toBeUndefined();
  });

  it('builds the ERR_INVALID_CALL message naming the call and what is wrong', async () => {
    const runtime = new Runtime({ registry: new Registry(echo()), store: newStore() });
    const [outcome] = await runtime.runTurn({
      threadId: 't',
      calls: [{ id: 'c', request: { name: 'echo' } }] as never,
    });
    expect((settled(outcome).diagnostic as Error).message).toBe(
      'runtime: runTurn: calls[0] (id "c"): its arguments are not JSON text; the call did not run, ' +
        'the other calls of the turn did (check the provider reader that built it)',
    );
    expect(modelText(outcome)).toBe(
      'error: the tool call is malformed (its arguments are not JSON text), so it did not run; call the tool again',
    );
  });

  it('refuses a thread id or principal no store keeps (NUL, lone surrogate) before anything runs', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(echo(seen)), store: newStore() });
    const calls = [call('a', 'echo', { text: 'a' })];
    for (const turn of [
      { threadId: 'a\u0000b', calls },
      { threadId: '\udc00', calls },
      { threadId: 't', principal: 'p\u0000', calls },
      { threadId: 't', principal: 'x\ud800', calls },
    ]) {
      await expect(runtime.runTurn(turn)).rejects.toMatchObject({ code: 'ERR_INVALID_TURN' });
    }
    await expect(
      runtime.resume({ threadId: 't', principal: 'p\u0000', callId: 'a', answer: 'true' }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_TURN' });
    await expect(runtime.resume({ threadId: 't', callId: 'a\ud800', answer: 'true' })).rejects.toMatchObject({
      code: 'ERR_INVALID_TURN',
    });
    await expect(runtime.list({ principal: 'p\u0000' })).rejects.toMatchObject({ code: 'ERR_INVALID_TURN' });
    expect(seen.calls).toBe(0);
  });

  it('a tool that throws a hostile value (a Proxy whose every trap throws) gets an error outcome', async () => {
    const trap = () => {
      throw new Error('trap');
    };
    const hostile = new Proxy(
      {},
      { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap },
    );
    // An Error whose `message` getter throws (hostile review t11).
    const error = new Proxy(new Error('x'), {
      get: (target, key) => (key === 'message' ? trap() : (target as never)[key]),
    });
    const thrower = FuncTool.create(
      {
        name: 'hostile',
        inputSchema: OBJECT({ error: { type: 'boolean' }, revoked: { type: 'boolean' } }),
        decode: (v) => v as { error?: boolean; revoked?: boolean },
      },
      (input) => {
        if (input.revoked === true) {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          throw proxy;
        }
        throw input.error === true ? error : hostile;
      },
    );
    const runtime = new Runtime({ registry: new Registry(thrower, echo()), store: newStore() });
    const outcomes = await runtime.runTurn({
      threadId: 't',
      calls: [
        call('h', 'hostile'),
        call('m', 'hostile', { error: true }),
        call('r', 'hostile', { revoked: true }),
        call('e', 'echo', { text: 'e' }),
      ],
    });
    expect(outcomes.map((o) => o.kind)).toEqual(['error', 'error', 'error', 'completed']);
    expect(settled(outcomes[0]).rendered.isError).toBe(true);
  });
});

describe('Runtime input checks', () => {
  const registry = new Registry(echo());

  it('refuses durations and clocks out of bounds (ERR_INVALID_RUNTIME_CONFIG), accepts the bounds', () => {
    const store = newStore();
    const code = (config: object) => {
      try {
        new Runtime({ registry, store, ...config } as never);
        return 'accepted';
      } catch (e) {
        return (e as RuntimeError).code;
      }
    };
    const refused = [
      { suspensionTtlMs: Number.MAX_SAFE_INTEGER },
      { suspensionTtlMs: MAX_SUSPENSION_TTL_MS + 1 },
      { leaseMs: MAX_LEASE_MS + 1 },
      { leaseMs: 0.5 },
      { now: () => 1.5 },
      { now: () => -1 },
      { now: () => Number.NaN },
      { now: () => '1' },
      {
        now: () => {
          throw new Error('no clock');
        },
      },
    ];
    expect(refused.map(code)).toEqual(refused.map(() => 'ERR_INVALID_RUNTIME_CONFIG'));
    const accepted = [{ suspensionTtlMs: MAX_SUSPENSION_TTL_MS }, { leaseMs: MAX_LEASE_MS }, { now: () => 0 }];
    expect(accepted.map(code)).toEqual(accepted.map(() => 'accepted'));
  });

  it('refuses a config it cannot run with (ERR_INVALID_RUNTIME_CONFIG)', () => {
    const bad: unknown[] = [
      undefined,
      { store: newStore() },
      { registry, store: {} },
      { registry, store: newStore(), timeoutMs: 0 },
      { registry, store: newStore(), suspensionTtlMs: 1.5 },
      { registry, store: newStore(), budget: { perTool: 0 } },
      { registry, store: newStore(), budget: { total: -1 } },
      { registry, store: newStore(), now: 5 },
    ];
    for (const config of bad) {
      let error: unknown;
      try {
        new Runtime(config as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RuntimeError);
      expect((error as RuntimeError).code).toBe('ERR_INVALID_RUNTIME_CONFIG');
    }
  });

  it('says a store given as a promise must be awaited (SqliteStore.open without await)', () => {
    // Regression (new-user review): it read "must be a SuspensionStore (missing commit, get, ...)".
    const messages = [Promise.resolve(newStore()), {}].map((store) => {
      try {
        new Runtime({ registry, store } as never);
        return 'accepted';
      } catch (e) {
        return [(e as RuntimeError).code, (e as RuntimeError).message];
      }
    });
    expect(messages).toEqual([
      [
        'ERR_INVALID_RUNTIME_CONFIG',
        'runtime: new Runtime: config.store is a promise; await the store first (const store = await SqliteStore.open(...))',
      ],
      [
        'ERR_INVALID_RUNTIME_CONFIG',
        expect.stringMatching(/config\.store must be a SuspensionStore \(missing commit, /),
      ],
    ]);
  });

  it('refuses a malformed turn (ERR_INVALID_TURN)', async () => {
    const runtime = new Runtime({ registry, store: newStore() });
    for (const turn of [{ threadId: '', calls: [] }, { threadId: 't' }, { threadId: 't', calls: [], principal: 7 }]) {
      await expect(runtime.runTurn(turn as never)).rejects.toMatchObject({ code: 'ERR_INVALID_TURN' });
    }
    await expect(runtime.list({} as never)).rejects.toMatchObject({ code: 'ERR_INVALID_TURN' });
  });
});
