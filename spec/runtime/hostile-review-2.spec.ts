/**
 * Second hostile review of scope-tool/runtime (issue 13), findings 2, 3, 5, 6, 7, 8: the lease
 * against the call's deadline, digits inside strings, what budgets count, a call id reused for
 * another tool, unreadable turns and configs, lone surrogates in arguments compared as text.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FuncTool, Registry } from '../../lib/protocol';
import { Runtime, RuntimeError } from '../../lib/runtime';
import type { SuspensionStore } from '../../lib/runtime';
import { argumentsDigest } from '../../lib/runtime/identity';
import { MemoryStore, PostgresStore, SqliteStore } from '../../lib/runtime/stores';
import { startPostgres, type TestPostgres } from '../support/postgres';
import { OBJECT, call, echo, effects, guarded } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function configCode(config: object): string {
  try {
    new Runtime(config as never);
    return 'accepted';
  } catch (e) {
    return (e as RuntimeError).code;
  }
}

describe('finding 2: the lease outlasts the call deadline', () => {
  const registry = new Registry(echo());

  it('refuses a leaseMs not above timeoutMs, and an unbounded timeoutMs (ERR_INVALID_RUNTIME_CONFIG)', () => {
    const store = new MemoryStore();
    const refused = [
      { timeoutMs: 1_000, leaseMs: 1_000 },
      { timeoutMs: 2_000, leaseMs: 1_000 },
      { timeoutMs: Infinity },
      { timeoutMs: Infinity, leaseMs: 86_400_000 },
      { timeoutMs: 600_000 },
    ];
    expect(refused.map((c) => configCode({ registry, store, ...c }))).toEqual(
      refused.map(() => 'ERR_INVALID_RUNTIME_CONFIG'),
    );
    const accepted = [{ timeoutMs: 999, leaseMs: 1_000 }, { timeoutMs: 599_999 }, { leaseMs: 1 }];
    expect(accepted.map((c) => configCode({ registry, store, ...c }))).toEqual(accepted.map(() => 'accepted'));
  });

  it('cuts a call whose binding deadline is past the lease at the lease, so a replay never runs it again', async () => {
    let runs = 0;
    const slow = FuncTool.create({ name: 'slow', inputSchema: OBJECT(), decode: (v) => v }, async () => {
      runs++;
      await sleep(600);
      return 'done';
    });
    const store = new MemoryStore();
    const one = new Runtime({ registry: new Registry(slow), store, leaseMs: 200 });
    const two = new Runtime({ registry: new Registry(slow), store, leaseMs: 200 });
    const first = one.runTurn({ threadId: 't', calls: [call('c', 'slow')] });
    await sleep(300);
    const [again] = await two.runTurn({ threadId: 't', calls: [call('c', 'slow')] });
    const [done] = await first;
    expect(done.kind).toBe('failed');
    expect(again).toMatchObject({ kind: 'failed', replayed: true });
    expect(runs).toBe(1);
    await sleep(400); // the cut tool's own timer
  });
});

describe('finding 3: only number tokens of over 15 significant digits fall back to text', () => {
  it('compares arguments with a long digit run inside a string as JSON values', () => {
    expect(argumentsDigest('{"order":"12345678901234567890","n":2.0}')).toBe(
      argumentsDigest('{ "n": 2, "order": "12345678901234567890" }'),
    );
    // A number token of 17 digits is still compared as text.
    expect(argumentsDigest('{"n":12345678901234567}')).not.toBe(argumentsDigest('{"n":12345678901234568}'));
    expect(argumentsDigest('{"n":12345678901234567}')).not.toBe(argumentsDigest('{ "n":12345678901234567}'));
    // An escaped quote inside a string does not end it.
    expect(argumentsDigest('{"s":"a\\"1234567890123456789","n":1}')).toBe(
      argumentsDigest('{"n":1.0,"s":"a\\"1234567890123456789"}'),
    );
  });

  it('replays a reordered, respaced call whose string holds an order number (not call-id-conflict)', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(echo(seen)), store: new MemoryStore() });
    const raw = (args: string) => ({ id: 'c', request: { name: 'echo', arguments: args } });
    const [first] = await runtime.runTurn({ threadId: 't', calls: [raw('{"text":"order 12345678901234567"}')] });
    expect(first.kind).toBe('completed');
    const [again] = await runtime.runTurn({ threadId: 't', calls: [raw('{ "text" : "order 12345678901234567" }')] });
    expect(again).toMatchObject({ kind: 'completed', replayed: true });
    expect(seen.calls).toBe(1);
  });
});

let server: TestPostgres | undefined;
beforeAll(async () => (server = await startPostgres()), 120_000);
afterAll(() => server?.stop());

const stores: [string, () => Promise<SuspensionStore>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  [
    'SqliteStore',
    async () => SqliteStore.open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-h2-')), 'db.sqlite')),
  ],
  [
    'PostgresStore',
    async () => {
      return PostgresStore.open({ connectionString: (server as TestPostgres).connectionString, max: 2 });
    },
  ],
];

// One thread per test: the PostgreSQL database is shared by the tests.
let threads = 0;

describe.each(stores)('budgets on %s', (_name, open) => {
  let t = '';
  beforeEach(() => {
    threads += 1;
    t = `t${threads}`;
  });
  const rejectedBy = (authorizer: () => boolean) =>
    guarded(
      FuncTool.create({ name: 'pay', inputSchema: OBJECT(), decode: (v) => v }, () => 'paid'),
      authorizer,
    );

  it('finding 5: count every admitted call, a policy rejection included', async () => {
    let allow = false;
    const store = await open();
    const runtime = new Runtime({ registry: new Registry(rejectedBy(() => allow)), store, budget: { perTool: 2 } });
    const turn = async (id: string) => (await runtime.runTurn({ threadId: t, calls: [call(id, 'pay')] }))[0].kind;
    expect([await turn('a'), await turn('b')]).toEqual(['rejected', 'rejected']);
    allow = true;
    expect(await turn('c')).toBe('budget-exceeded');
    await store.close?.();
  });

  it('finding 5: an authorizer error counts once; its replay does not count again', async () => {
    let fail = true;
    const store = await open();
    const authorizer = () => {
      if (fail) throw new Error('authorizer down');
      return true;
    };
    const runtime = new Runtime({ registry: new Registry(rejectedBy(authorizer)), store, budget: { perTool: 2 } });
    const turn = async (id: string) => (await runtime.runTurn({ threadId: t, calls: [call(id, 'pay')] }))[0].kind;
    expect(await turn('a')).toBe('error');
    fail = false;
    expect([await turn('a'), await turn('b'), await turn('c')]).toEqual(['completed', 'completed', 'budget-exceeded']);
    await store.close?.();
  });

  it('finding 6: a counted call id reused for another tool counts again', async () => {
    const store = await open();
    const down = () => {
      throw new Error('authorizer down');
    };
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(rejectedBy(down), echo(seen)), store, budget: { total: 1 } });
    expect((await runtime.runTurn({ threadId: t, calls: [call('c', 'pay')] }))[0].kind).toBe('error');
    const [reused] = await runtime.runTurn({ threadId: t, calls: [call('c', 'echo', { text: 'x' })] });
    expect(reused.kind).toBe('budget-exceeded');
    expect(seen.calls).toBe(0);
    await store.close?.();
  });
});

describe('finding 7: unreadable turns and configs', () => {
  const registry = new Registry(echo());

  it('rejects a turn whose calls cannot be read with ERR_INVALID_TURN', async () => {
    const runtime = new Runtime({ registry, store: new MemoryStore() });
    const getter: unknown[] = [call('a', 'echo', { text: 'a' }), null];
    Object.defineProperty(getter, 1, {
      get() {
        throw new Error('boom getter');
      },
    });
    const proxy = new Proxy([call('a', 'echo', { text: 'a' })], {
      get(target, key) {
        if (key === Symbol.iterator) throw new Error('boom iterator');
        return Reflect.get(target, key) as unknown;
      },
    });
    const callsGetter = Object.defineProperty({ threadId: 't' }, 'calls', {
      get() {
        throw new Error('boom calls');
      },
    });
    for (const turn of [{ threadId: 't', calls: getter }, { threadId: 't', calls: proxy }, callsGetter]) {
      const error: unknown = await runtime.runTurn(turn as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeError);
      expect((error as RuntimeError).code).toBe('ERR_INVALID_TURN');
    }
  });

  it('refuses a config whose getter throws with ERR_INVALID_RUNTIME_CONFIG', () => {
    const throwing = (base: object, key: string) =>
      Object.defineProperty(base, key, {
        get() {
          throw new Error('boom');
        },
      });
    const store = new MemoryStore();
    expect(configCode(throwing({ registry, store }, 'timeoutMs'))).toBe('ERR_INVALID_RUNTIME_CONFIG');
    expect(configCode(throwing({ store }, 'registry'))).toBe('ERR_INVALID_RUNTIME_CONFIG');
    expect(configCode({ registry, store, budget: throwing({}, 'perTool') })).toBe('ERR_INVALID_RUNTIME_CONFIG');
  });
});

describe('finding 8: arguments compared as text keep lone surrogates apart', () => {
  it('gives different lone surrogates, and U+FFFD, different digests', () => {
    const digests = ['x\ud800', 'x\udc00', 'x\ufffd', 'x\ud800\udc00'].map(argumentsDigest);
    expect(new Set(digests).size).toBe(4);
    expect(argumentsDigest('x\ud800')).toBe(argumentsDigest('x\ud800'));
    // JSON text escapes its strings' lone surrogates canonically.
    expect(argumentsDigest('{"s":"\ud800"}')).not.toBe(argumentsDigest('{"s":"\udc00"}'));
  });
});
