/**
 * The one contract suite of SuspensionStore (lib/runtime/store.ts). Each store's spec calls
 * `storeContract` with a target that opens that store; every store must pass all of it.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { FuncTool, Registry } from '../../lib/protocol';
import { Runtime } from '../../lib/runtime';
import type { CallOutcome, SettledCallOutcome } from '../../lib/runtime';
import {
  MAX_ID_BYTES,
  SUSPENSION_RECORD_VERSION,
  type SettledCall,
  type SuspensionRecord,
  type SuspensionStore,
} from '../../lib/runtime/store';
import { argumentsDigest, idempotencyKeyOf } from '../../lib/runtime/identity';
import { FaultyStore, OBJECT, call, echo, effects, failing, guarded, sendEmail } from './support';

/** How a child process opens the same data as the target (see spec/support/store-child.ts). */
export type ChildTarget =
  { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly connectionString: string };

/** What the contract suite runs against. */
export interface ContractTarget {
  /**
   * Opens a store. When `shared`, every store opened sees the same data, each through its own
   * connection; otherwise each call opens an independent store.
   */
  open(): Promise<SuspensionStore>;
  /**
   * Whether stores opened by `open` share their data outside the process (so it survives a close,
   * a reopen and a killed process); the durability tests run only then.
   */
  readonly shared: boolean;
  /** How a child process opens the same data (called only when `shared`). */
  readonly child: () => ChildTarget;
}

const HEX64 = 'a'.repeat(64);

/** A well-formed record on a fresh thread (unique per call), with `overrides` applied. */
export function makeRecord(overrides: Partial<Record<keyof SuspensionRecord, unknown>> = {}): SuspensionRecord {
  const threadId = `thread-${randomUUID()}`;
  return {
    version: SUSPENSION_RECORD_VERSION,
    threadId,
    callId: 'call_1',
    tool: 'confirm_transfer',
    contractFingerprint: `sha256:${HEX64}`,
    arguments: '{"amount":10}',
    argumentsDigest: `sha256:${'b'.repeat(64)}`,
    principal: 'user-1',
    inputRequest: '{"prompt":"\\"confirm?\\"","response_schema":{"type":"boolean"},"continuation_state":"{}"}',
    idempotencyKey: `idem-${threadId}`,
    createdAt: 1_000,
    expiresAt: 10_000,
    ...overrides,
  } as SuspensionRecord;
}

const keyOf = (r: { threadId: string; callId: string }) => ({ threadId: r.threadId, callId: r.callId });

/** A well-formed settled call on a fresh thread, with `overrides` applied. */
export function makeSettled(overrides: Partial<Record<keyof SettledCall, unknown>> = {}): SettledCall {
  return {
    threadId: `thread-${randomUUID()}`,
    callId: 'call_1',
    tool: 'echo',
    argumentsDigest: `sha256:${'c'.repeat(64)}`,
    principal: 'user-1',
    outcome: { kind: 'completed', output: '{"content":[{"type":"text","text":"hi"}]}' },
    createdAt: 1_000,
    ...overrides,
  } as SettledCall;
}

/** A unique string of exactly `bytes` UTF-8 bytes: a UUID, two-byte characters, one ASCII when odd. */
function ofBytes(bytes: number): string {
  const id = randomUUID(); // 36 bytes, so shared stores never see one twice
  const rest = bytes - id.length;
  return id + 'é'.repeat(Math.floor(rest / 2)) + (rest % 2 === 1 ? 'x' : '');
}

function settled(outcome: CallOutcome): SettledCallOutcome {
  if (outcome.kind === 'suspended') throw new Error('expected a settled outcome, got suspended');
  return outcome;
}

const modelText = (outcome: CallOutcome) => settled(outcome).rendered.output.asText();

/** Registers the contract tests for `target` (call it inside a describe block). */
export function storeContract(target: ContractTarget): void {
  const opened: SuspensionStore[] = [];
  const open = async () => {
    const store = await target.open();
    opened.push(store);
    return store;
  };
  // Stores that race: separate instances (connections) when they share data, else one.
  const openMany = async (n: number) => {
    if (!target.shared) {
      const one = await open();
      return Array.from({ length: n }, () => one);
    }
    return Promise.all(Array.from({ length: n }, () => open()));
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it('commit then get returns the record, with no outcome', async () => {
    const store = await open();
    const record = makeRecord();
    await expect(store.commit(record)).resolves.toBe(true);
    const got = await store.get(keyOf(record));
    expect(got).toEqual({ record });
    expect(got?.outcome).toBeUndefined();
    await expect(store.get({ threadId: record.threadId, callId: 'call_other' })).resolves.toBeUndefined();
  });

  it('commit of the same key twice resolves false and keeps the first record', async () => {
    const store = await open();
    const first = makeRecord();
    const second = { ...first, tool: 'other_tool', createdAt: 2_000 };
    await expect(store.commit(first)).resolves.toBe(true);
    await expect(store.commit(second)).resolves.toBe(false);
    expect((await store.get(keyOf(first)))?.record).toEqual(first);
  });

  it('the same call id in two threads is two records', async () => {
    const store = await open();
    const a = makeRecord();
    const b = makeRecord({ callId: a.callId });
    await expect(store.commit(a)).resolves.toBe(true);
    await expect(store.commit(b)).resolves.toBe(true);
    expect((await store.take(keyOf(a), 2_000)).status).toBe('taken');
    expect((await store.take(keyOf(b), 2_000)).status).toBe('taken');
  });

  it('1,000 racing takes: exactly one is taken, the rest are answered', async () => {
    const stores = await openMany(10);
    const record = makeRecord();
    await expect(stores[0].commit(record)).resolves.toBe(true);
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => stores[i % stores.length].take(keyOf(record), 2_000)),
    );
    const taken = results.filter((r) => r.status === 'taken');
    expect(taken).toHaveLength(1);
    expect(results.filter((r) => r.status === 'answered')).toHaveLength(999);
    expect(taken[0].status === 'taken' && taken[0].record).toEqual(record);
  });

  it('take of an unknown key is missing', async () => {
    const store = await open();
    await expect(store.take({ threadId: 'nobody', callId: 'call_x' }, 2_000)).resolves.toEqual({ status: 'missing' });
  });

  it('finish stores the outcome: get and later takes show it', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    const taken = await store.take(keyOf(record), 2_000);
    if (taken.status !== 'taken') throw new Error(`expected taken, got ${taken.status}`);
    expect(await store.take(keyOf(record), 2_000)).toEqual({ status: 'answered', record });
    const outcome = { kind: 'completed' as const, output: '{"content":[{"type":"text","text":"done"}]}' };
    await store.finish(keyOf(record), taken.claim, outcome);
    expect(await store.get(keyOf(record))).toEqual({ record, outcome });
    expect(await store.take(keyOf(record), 3_000)).toEqual({ status: 'answered', record, outcome });
    // after its expiry a finished record is still answered, never expired
    expect(await store.take(keyOf(record), 20_000)).toEqual({ status: 'answered', record, outcome });
  });

  it('finish without owning the record is ERR_STORE_NOT_TAKEN', async () => {
    const store = await open();
    const record = makeRecord();
    const outcome = { kind: 'completed' as const };
    await expect(store.finish(keyOf(record), 'no-claim', outcome)).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    await store.commit(record);
    await expect(store.finish(keyOf(record), 'no-claim', outcome)).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    const taken = await store.take(keyOf(record), 2_000);
    if (taken.status !== 'taken') throw new Error(`expected taken, got ${taken.status}`);
    await expect(store.finish(keyOf(record), `${taken.claim}x`, outcome)).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    await store.finish(keyOf(record), taken.claim, outcome);
    await expect(store.finish(keyOf(record), taken.claim, { kind: 'failed' })).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    expect((await store.get(keyOf(record)))?.outcome).toEqual(outcome);
  });

  it('finish refuses a malformed outcome and keeps the record taken', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    const taken = await store.take(keyOf(record), 2_000);
    if (taken.status !== 'taken') throw new Error(`expected taken, got ${taken.status}`);
    const bad = [{ kind: 'done' }, { kind: 'completed', output: 3 }, { kind: 'completed', extra: '' }, null];
    for (const outcome of bad) {
      await expect(store.finish(keyOf(record), taken.claim, outcome as never)).rejects.toMatchObject({
        code: 'ERR_STORE_INVALID_ARGUMENT',
      });
    }
    await store.finish(keyOf(record), taken.claim, { kind: 'refused', message: 'no' });
    expect((await store.get(keyOf(record)))?.outcome).toEqual({ kind: 'refused', message: 'no' });
  });

  it('take after expiresAt is expired, recorded once; list excludes it', async () => {
    const stores = await openMany(4);
    const record = makeRecord({ createdAt: 1_000, expiresAt: 5_000 });
    await stores[0].commit(record);
    expect((await stores[0].list({ threadId: record.threadId }, 5_000)).map(keyOf)).toEqual([keyOf(record)]);
    expect(await stores[0].list({ threadId: record.threadId }, 5_001)).toEqual([]);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => stores[i % stores.length].take(keyOf(record), 5_001)),
    );
    expect(results.every((r) => r.status === 'expired')).toBe(true);
    expect(results[0]).toEqual({ status: 'expired', record });
    expect(await stores[1].get(keyOf(record))).toEqual({ record, outcome: { kind: 'expired' } });
    // recorded: a take with an earlier clock still finds it expired, never takes it
    expect((await stores[2].take(keyOf(record), 2_000)).status).toBe('expired');
    expect(await stores[3].list({ threadId: record.threadId }, 2_000)).toEqual([]);
  });

  it('take at exactly expiresAt still takes', async () => {
    const store = await open();
    const record = makeRecord({ expiresAt: 5_000 });
    await store.commit(record);
    expect((await store.take(keyOf(record), 5_000)).status).toBe('taken');
  });

  it('list by thread and by principal: waiting records only, oldest first', async () => {
    const store = await open();
    const thread = `thread-${randomUUID()}`;
    const principal = `principal-${randomUUID()}`;
    const rec = (callId: string, createdAt: number, more: Partial<SuspensionRecord> = {}) =>
      makeRecord({ threadId: thread, callId, createdAt, principal, idempotencyKey: `k-${callId}`, ...more });
    const c = rec('call_c', 3_000);
    const a = rec('call_a', 1_000);
    const b = rec('call_b', 2_000);
    const b2 = rec('call_b2', 2_000); // same instant: commit order
    const taken = rec('call_t', 500);
    const elsewhere = makeRecord({ principal, createdAt: 1_500, callId: 'call_e' }); // other thread, same principal
    const otherPrincipal = rec('call_p', 1_200, { principal: `${principal}-2` });
    for (const r of [c, a, b, b2, taken, elsewhere, otherPrincipal]) await store.commit(r);
    await store.take(keyOf(taken), 2_000);
    expect((await store.list({ threadId: thread }, 2_000)).map((r) => r.callId)).toEqual([
      'call_a',
      'call_p',
      'call_b',
      'call_b2',
      'call_c',
    ]);
    expect((await store.list({ principal }, 2_000)).map((r) => r.callId)).toEqual([
      'call_a',
      'call_e',
      'call_b',
      'call_b2',
      'call_c',
    ]);
    expect((await store.list({ threadId: thread }, 2_000))[0]).toEqual(a);
    expect(await store.list({ threadId: `thread-${randomUUID()}` }, 2_000)).toEqual([]);
  });

  it('list by the anonymous principal ""', async () => {
    const store = await open();
    const record = makeRecord({ principal: '' });
    await store.commit(record);
    expect((await store.list({ principal: '' }, 2_000)).map(keyOf)).toContainEqual(keyOf(record));
  });

  it('claim: true once, false ever after, under 1,000 racing claims', async () => {
    const stores = await openMany(10);
    const tokenId = `token-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => stores[i % stores.length].claim(tokenId, Date.now() + 60_000)),
    );
    expect(results.filter((r) => r === true)).toHaveLength(1);
    await expect(stores[3].claim(tokenId, Date.now() + 60_000)).resolves.toBe(false);
    await expect(stores[3].claim(`${tokenId}-2`, Date.now() + 60_000)).resolves.toBe(true);
  });

  it('countCall counts atomically under 1,000 racing calls, per tool and in total', async () => {
    const stores = await openMany(10);
    const thread = `thread-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => stores[i % stores.length].countCall(thread, i % 4 === 0 ? 'a' : 'b')),
    );
    expect(results.map((r) => r.total).sort((x, y) => x - y)).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    const toolA = results.filter((_, i) => i % 4 === 0).map((r) => r.tool);
    expect(toolA.sort((x, y) => x - y)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(await stores[0].countCall(thread, 'b')).toEqual({ tool: 751, total: 1_001, counted: true });
    expect(await stores[0].countCall(`thread-${randomUUID()}`, 'b')).toEqual({ tool: 1, total: 1, counted: true });
  });

  it('B: countCall with limits counts only under them; a call id counted once is not counted again', async () => {
    const store = await open();
    const t = `thread-${randomUUID()}`;
    const limits = { perTool: 2, total: 3 };
    const count = (tool: string, callId: string) => store.countCall(t, tool, { ...limits, callId });
    expect(await count('a', 'c1')).toEqual({ tool: 1, total: 1, counted: true });
    expect(await count('a', 'c1')).toEqual({ tool: 1, total: 1, counted: true });
    expect(await count('a', 'c2')).toEqual({ tool: 2, total: 2, counted: true });
    expect(await count('a', 'c3')).toEqual({ tool: 2, total: 2, counted: false });
    expect(await count('a', 'c3')).toEqual({ tool: 2, total: 2, counted: false });
    expect(await count('b', 'c4')).toEqual({ tool: 1, total: 3, counted: true });
    expect(await count('b', 'c5')).toEqual({ tool: 1, total: 3, counted: false });
    expect(await count('a', 'c2')).toEqual({ tool: 2, total: 3, counted: true });
    expect(await store.countCall(t, 'b', { callId: 'c5' })).toEqual({ tool: 2, total: 4, counted: true });
    await expect(store.countCall(t, 'a', { perTool: 0 })).rejects.toMatchObject({ code: 'ERR_STORE_INVALID_ARGUMENT' });
    await expect(store.countCall(t, 'a', { callId: '' })).rejects.toMatchObject({ code: 'ERR_STORE_INVALID_ARGUMENT' });
  });

  it('B: 400 racing limited counts: exactly the limit is counted, each call id once', async () => {
    const stores = await openMany(4);
    const t = `thread-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        stores[i % stores.length].countCall(t, 'a', { perTool: 50, callId: `c${i % 200}` }),
      ),
    );
    const counted = new Set(results.flatMap((r, i) => (r.counted ? [`c${i % 200}`] : [])));
    expect(counted.size).toBe(50);
    expect(Math.max(...results.map((r) => r.tool))).toBe(50);
    expect(await stores[0].countCall(t, 'a')).toEqual({ tool: 51, total: 51, counted: true });
  });

  it('C: a take not finished within its lease is taken again under a new claim; the first cannot finish', async () => {
    const stores = await openMany(2);
    const record = makeRecord({ expiresAt: 100_000 });
    await stores[0].commit(record);
    const first = await stores[0].take(keyOf(record), 2_000, 1_000);
    if (first.status !== 'taken') throw new Error(`expected taken, got ${first.status}`);
    // the lease runs until 3,000 inclusive: the record is answered (running), and not listed
    expect(await stores[1].take(keyOf(record), 3_000, 1_000)).toEqual({ status: 'answered', record });
    expect(await stores[1].list({ threadId: record.threadId }, 3_000)).toEqual([]);
    // the taker crashed: after its lease the record waits again
    expect(await stores[1].list({ threadId: record.threadId }, 3_001)).toEqual([record]);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2].take(keyOf(record), 3_001)));
    const again = results.filter((r) => r.status === 'taken');
    expect(again).toHaveLength(1);
    const second = again[0];
    if (second.status !== 'taken') throw new Error('unreachable');
    expect(second.claim).not.toBe(first.claim);
    await expect(stores[0].finish(keyOf(record), first.claim, { kind: 'completed' })).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    await stores[1].finish(keyOf(record), second.claim, { kind: 'completed' });
    expect(await stores[0].take(keyOf(record), 10_000_000)).toEqual({
      status: 'answered',
      record,
      outcome: { kind: 'completed' },
    });
  });

  it('C: a claim whose lease passed still finishes when nobody took the record again', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    const taken = await store.take(keyOf(record), 2_000, 10);
    if (taken.status !== 'taken') throw new Error(`expected taken, got ${taken.status}`);
    await store.finish(keyOf(record), taken.claim, { kind: 'failed', message: 'late' });
    expect((await store.take(keyOf(record), 5_000)).status).toBe('answered');
  });

  it('C: a lapsed take after expiresAt is recorded expired; a bad lease is ERR_STORE_INVALID_ARGUMENT', async () => {
    const store = await open();
    const record = makeRecord({ expiresAt: 5_000 });
    await store.commit(record);
    for (const lease of [0, 1.5, -1, Number.NaN, '10']) {
      await expect(store.take(keyOf(record), 2_000, lease as never)).rejects.toMatchObject({
        code: 'ERR_STORE_INVALID_ARGUMENT',
      });
    }
    expect((await store.take(keyOf(record), 4_000, 500)).status).toBe('taken');
    expect(await store.take(keyOf(record), 6_000)).toEqual({ status: 'expired', record });
    expect(await store.get(keyOf(record))).toEqual({ record, outcome: { kind: 'expired' } });
  });

  it('R: settle stores a settled call once; getSettled reads it; records and settled calls are apart', async () => {
    const stores = await openMany(2);
    const entry = makeSettled();
    await expect(stores[0].getSettled(keyOf(entry))).resolves.toBeUndefined();
    await expect(stores[0].settle(entry)).resolves.toBe(true);
    await expect(stores[1].settle({ ...entry, tool: 'other', outcome: { kind: 'failed' } })).resolves.toBe(false);
    expect(await stores[1].getSettled(keyOf(entry))).toEqual(entry);
    await expect(stores[1].get(keyOf(entry))).resolves.toBeUndefined();
    // The same call id in another thread is another entry.
    const other = makeSettled({ callId: entry.callId, tool: '' });
    await expect(stores[0].settle(other)).resolves.toBe(true);
    expect(await stores[0].getSettled(keyOf(other))).toEqual(other);
  });

  it.each([
    ['threadId', { threadId: '' }],
    ['callId', { callId: 'a\u0000b' }],
    ['tool', { tool: 3 }],
    ['argumentsDigest', { argumentsDigest: 'sha256:x' }],
    ['principal', { principal: undefined }],
    ['kind', { outcome: { kind: 'suspended' } }],
    ['kind', { outcome: { kind: 'expired' } }],
    ['kind', { outcome: { kind: 'done' } }],
    ['createdAt', { createdAt: -1 }],
    ['"extra"', { extra: 1 }],
  ])('R: settle refuses a settled call whose %s is wrong (ERR_STORE_INVALID_ARGUMENT)', async (field, overrides) => {
    const store = await open();
    const entry = makeSettled(overrides as Partial<Record<keyof SettledCall, unknown>>);
    const err = await store.settle(entry).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_INVALID_ARGUMENT' });
    expect((err as Error).message).toContain(field);
  });

  it('G: ids of MAX_ID_BYTES UTF-8 bytes are kept; one byte more is ERR_STORE_ID_TOO_LONG everywhere', async () => {
    const store = await open();
    const max = ofBytes(MAX_ID_BYTES);
    const over = ofBytes(MAX_ID_BYTES + 1);
    // a record's call id may carry `#<round>` (4 bytes) beyond MAX_ID_BYTES
    const record = makeRecord({ threadId: max, callId: `${max}#100`, principal: max });
    await expect(store.commit(record)).resolves.toBe(true);
    expect(await store.get(keyOf(record))).toEqual({ record });
    expect((await store.list({ principal: max }, 2_000)).map(keyOf)).toEqual([keyOf(record)]);
    expect((await store.take(keyOf(record), 2_000)).status).toBe('taken');
    const entry = makeSettled({ threadId: max, callId: max, principal: max });
    await expect(store.settle(entry)).resolves.toBe(true);
    expect(await store.getSettled(keyOf(entry))).toEqual(entry);
    await expect(store.countCall(max, max)).resolves.toEqual({ tool: 1, total: 1, counted: true });
    await expect(store.claim(max, Date.now() + 60_000)).resolves.toBe(true);

    const tooLong = { code: 'ERR_STORE_ID_TOO_LONG' };
    for (const overrides of [{ threadId: over }, { callId: `${max}#1000` }, { principal: over }]) {
      const bad = makeRecord(overrides);
      await expect(store.commit(bad)).rejects.toMatchObject(tooLong);
    }
    await expect(store.get({ threadId: over, callId: 'c' })).rejects.toMatchObject(tooLong);
    await expect(store.take({ threadId: 't', callId: `${max}#1000` }, 2_000)).rejects.toMatchObject(tooLong);
    await expect(store.finish({ threadId: over, callId: 'c' }, 'claim', { kind: 'completed' })).rejects.toMatchObject(
      tooLong,
    );
    await expect(store.list({ threadId: over }, 2_000)).rejects.toMatchObject(tooLong);
    await expect(store.list({ principal: over }, 2_000)).rejects.toMatchObject(tooLong);
    await expect(store.settle(makeSettled({ callId: over }))).rejects.toMatchObject(tooLong);
    await expect(store.getSettled({ threadId: over, callId: 'c' })).rejects.toMatchObject(tooLong);
    await expect(store.countCall(over, 'x')).rejects.toMatchObject(tooLong);
    await expect(store.countCall('t', over)).rejects.toMatchObject(tooLong);
    await expect(store.claim(over, Date.now() + 60_000)).rejects.toMatchObject(tooLong);
  });

  it('commit refuses a record of another version, naming the field', async () => {
    const store = await open();
    for (const version of [2, 0, '1', undefined]) {
      const record = makeRecord({ version });
      const err = await store.commit(record).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
      expect((err as Error).message).toMatch(/version/);
      await expect(store.get(keyOf(record))).resolves.toBeUndefined();
    }
  });

  it.each([
    ['threadId', { threadId: '' }],
    ['callId', { callId: 7 }],
    ['tool', { tool: undefined }],
    ['contractFingerprint', { contractFingerprint: 'md5:abc' }],
    ['argumentsDigest', { argumentsDigest: `sha256:${'A'.repeat(64)}` }],
    ['arguments', { arguments: { amount: 1 } }],
    ['principal', { principal: null }],
    ['inputRequest', { inputRequest: '' }],
    ['idempotencyKey', { idempotencyKey: '' }],
    ['createdAt', { createdAt: 1.5 }],
    ['expiresAt', { expiresAt: Number.POSITIVE_INFINITY }],
    ['callId', { callId: 'call\u0000x' }],
    ['threadId', { threadId: 'thread-\ud800' }],
    ['"extra"', { extra: () => 1 }],
  ])('commit refuses a record whose %s is wrong, naming it', async (field, overrides) => {
    const store = await open();
    const record = makeRecord(overrides as Partial<Record<keyof SuspensionRecord, unknown>>);
    const err = await store.commit(record).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
    expect((err as Error).message).toContain(field);
  });

  it('J: commit and settle take plain objects of another realm (a record parsed in a vm context)', async () => {
    const store = await open();
    const record = makeRecord();
    const foreign = vm.runInNewContext(`JSON.parse(${JSON.stringify(JSON.stringify(record))})`) as SuspensionRecord;
    expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
    await expect(store.commit(foreign)).resolves.toBe(true);
    expect(await store.get(keyOf(record))).toEqual({ record });
    const entry = makeSettled();
    const settledForeign = vm.runInNewContext(`JSON.parse(${JSON.stringify(JSON.stringify(entry))})`) as SettledCall;
    await expect(store.settle(settledForeign)).resolves.toBe(true);
    expect(await store.getSettled(keyOf(entry))).toEqual(entry);
    const instance = vm.runInNewContext('new (class Record { constructor() { this.version = 1; } })()');
    await expect(store.commit(instance as never)).rejects.toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
  });

  it('commit refuses what is not a plain object', async () => {
    const store = await open();
    for (const value of [null, 'record', [makeRecord()], new (class Record {})()]) {
      await expect(store.commit(value as never)).rejects.toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
    }
  });

  it('malformed keys, instants and filters are ERR_STORE_INVALID_ARGUMENT', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    const invalid = { code: 'ERR_STORE_INVALID_ARGUMENT' };
    await expect(store.get({ threadId: '', callId: 'x' })).rejects.toMatchObject(invalid);
    await expect(store.take(keyOf(record), Number.NaN)).rejects.toMatchObject(invalid);
    await expect(store.list({ threadId: record.threadId, principal: 'x' } as never, 1)).rejects.toMatchObject(invalid);
    await expect(store.list({} as never, 1)).rejects.toMatchObject(invalid);
    await expect(store.countCall('', 'tool')).rejects.toMatchObject(invalid);
    await expect(store.claim('', 1)).rejects.toMatchObject(invalid);
    // nothing changed
    expect((await store.take(keyOf(record), 2_000)).status).toBe('taken');
  });

  it('a closed store rejects every operation with ERR_STORE_CLOSED; close is idempotent', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    await store.close();
    await store.close();
    const closed = { code: 'ERR_STORE_CLOSED' };
    await expect(store.commit(makeRecord())).rejects.toMatchObject(closed);
    await expect(store.get(keyOf(record))).rejects.toMatchObject(closed);
    await expect(store.take(keyOf(record), 2_000)).rejects.toMatchObject(closed);
    await expect(store.finish(keyOf(record), 'c', { kind: 'completed' })).rejects.toMatchObject(closed);
    await expect(store.countCall('t', 'x')).rejects.toMatchObject(closed);
    await expect(store.list({ threadId: 't' }, 1)).rejects.toMatchObject(closed);
    await expect(store.claim('tok', 1)).rejects.toMatchObject(closed);
  });

  it('close waits for the operations in flight; later ones are ERR_STORE_CLOSED; nothing hangs', async () => {
    const store = await open();
    const records = Array.from({ length: 40 }, () => makeRecord());
    // More operations than a pool has connections: most wait for one when close is called.
    const commits = records.map((r) => store.commit(r));
    const reads = records.map((r) => store.getSettled(keyOf(r)));
    const closing = [store.close(), store.close()];
    const after = store.get(keyOf(records[0]));
    const all = Promise.allSettled([...commits, ...reads, ...closing, after]);
    const hung = new Promise((resolve) => setTimeout(() => resolve('hung'), 10_000).unref());
    await expect(Promise.race([all, hung])).resolves.not.toBe('hung');
    await expect(Promise.all(commits)).resolves.toEqual(records.map(() => true));
    await expect(Promise.all(reads)).resolves.toEqual(records.map(() => undefined));
    await expect(Promise.all(closing)).resolves.toEqual([undefined, undefined]);
    await expect(after).rejects.toMatchObject({ code: 'ERR_STORE_CLOSED' });
    await expect(store.list({ threadId: records[0].threadId }, 2_000)).rejects.toMatchObject({
      code: 'ERR_STORE_CLOSED',
    });
    if (target.shared) {
      const again = await open();
      expect((await again.get(keyOf(records[39])))?.record).toEqual(records[39]);
    }
  });

  describe('the runtime over this store', () => {
    // A second store over the same data when the store is shared (another instance), else the same one.
    const twin = async (store: SuspensionStore) => (target.shared ? open() : store);

    it('B: budgets count only calls that run, and a call that runs again (replayed `error`) once', async () => {
      const store = await open();
      let runs = 0;
      const flaky = FuncTool.create({ name: 'flaky', inputSchema: OBJECT(), decode: (v) => v }, () => {
        runs += 1;
        throw new Error('a defect: the call ends `error`, which is not stored');
      });
      const registry = new Registry(flaky, echo());
      const runtime = (perTool: number) => new Runtime({ registry, store, budget: { perTool, total: 10 } });
      const t = `thread-${randomUUID()}`;
      const turn = (r: Runtime, id: string, tool = 'echo') =>
        r.runTurn({ threadId: t, calls: [call(id, tool, tool === 'echo' ? { text: id } : {})] });
      const two = runtime(2);
      expect((await turn(two, 'x', 'flaky'))[0].kind).toBe('error');
      expect((await turn(two, 'x', 'flaky'))[0].kind).toBe('error');
      expect(runs).toBe(2);
      expect((await turn(two, 'a'))[0].kind).toBe('completed');
      expect((await turn(two, 'b'))[0].kind).toBe('completed');
      expect((await turn(two, 'c'))[0].kind).toBe('budget-exceeded');
      expect((await turn(two, 'c'))[0].kind).toBe('budget-exceeded');
      // Neither budget-exceeded answer spent anything: with room for one more echo, `c` runs.
      expect((await turn(runtime(3), 'c'))[0].kind).toBe('completed');
      expect((await turn(runtime(3), 'd'))[0].kind).toBe('budget-exceeded');
      // flaky once (its replay did not count), echo three times.
      expect(await store.countCall(t, 'flaky')).toMatchObject({ tool: 2, total: 5 });
    });

    it('R: a replayed turn returns the stored outcome of every settled call; no tool runs again', async () => {
      const store = await open();
      const seen = effects();
      const registry = () =>
        new Registry(
          echo(seen),
          failing(),
          guarded(
            FuncTool.create({ name: 'delete_all', inputSchema: OBJECT(), decode: (v) => v }, () => {
              seen.calls++;
              return 'deleted';
            }),
            () => false,
          ),
        );
      const threadId = `thread-${randomUUID()}`;
      const calls = [
        call('a', 'echo', { text: 'a' }),
        call('b', 'fail'),
        call('c', 'echo', { text: 5 }),
        call('d', 'no_such_tool'),
        call('e', 'delete_all'),
      ];
      const first = await new Runtime({ registry: registry(), store }).runTurn({ threadId, principal: 'p', calls });
      expect(first.map((o) => [o.kind, o.replayed])).toEqual([
        ['completed', false],
        ['failed', false],
        ['refused', false],
        ['refused', false],
        ['rejected', false],
      ]);
      expect(seen.calls).toBe(1);
      // The turn is replayed after a crash, on another instance.
      const again = await new Runtime({ registry: registry(), store: await twin(store) }).runTurn({
        threadId,
        principal: 'p',
        calls,
      });
      expect(again.map((o) => [o.call.id, o.kind, o.replayed])).toEqual([
        ['a', 'completed', true],
        ['b', 'failed', true],
        ['c', 'refused', true],
        ['d', 'refused', true],
        ['e', 'rejected', true],
      ]);
      expect(again.map(modelText)).toEqual(first.map(modelText));
      expect(seen.calls).toBe(1);
    });

    it('D: a call id replayed with other arguments or another tool is a call-id-conflict; nothing runs', async () => {
      const store = await open();
      const seen = effects();
      const runtime = new Runtime({ registry: new Registry(sendEmail(seen), echo(seen)), store });
      const threadId = `thread-${randomUUID()}`;
      const [asked] = await runtime.runTurn({ threadId, calls: [call('s', 'send_email', { to: 'a@x.org' })] });
      const [done] = await runtime.runTurn({ threadId, calls: [call('e', 'echo', { text: 'a' })] });
      expect([asked.kind, done.kind, seen.calls]).toEqual(['suspended', 'completed', 2]);
      const other = await new Runtime({
        registry: new Registry(sendEmail(seen), echo(seen)),
        store: await twin(store),
      });
      const conflicts = await other.runTurn({
        threadId,
        calls: [call('s', 'send_email', { to: 'attacker@x.org' }), call('e', 'echo', { text: 'b' })],
      });
      const [tool] = await other.runTurn({ threadId, calls: [call('s', 'echo', { text: 'a' })] });
      for (const outcome of [...conflicts, tool]) {
        expect(outcome.kind).toBe('call-id-conflict');
        expect(outcome).not.toHaveProperty('inputRequest');
        expect(settled(outcome).rendered.isError).toBe(true);
        expect(settled(outcome).diagnostic).toMatchObject({ code: 'ERR_CALL_ID_CONFLICT' });
      }
      expect(seen.calls).toBe(2);
      // The same arguments keep the stored outcome and the waiting request.
      const same = await other.runTurn({
        threadId,
        calls: [call('s', 'send_email', { to: 'a@x.org' }), call('e', 'echo', { text: 'a' })],
      });
      expect(same.map((o) => [o.kind, o.replayed])).toEqual([
        ['suspended', true],
        ['completed', true],
      ]);
      expect(seen.calls).toBe(2);
    });

    it('E: every answer after the expiry gets the same stored expired outcome', async () => {
      const store = await open();
      let now = 1_000;
      const seen = effects();
      const runtime = new Runtime({
        registry: new Registry(sendEmail(seen)),
        store,
        suspensionTtlMs: 100,
        now: () => now,
      });
      const threadId = `thread-${randomUUID()}`;
      await runtime.runTurn({ threadId, calls: [call('c', 'send_email', { to: 'c@x.org' })] });
      now = 1_101;
      const first = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      const other = new Runtime({
        registry: new Registry(sendEmail(seen)),
        store: await twin(store),
        suspensionTtlMs: 100,
        now: () => now,
      });
      const second = await other.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      now = 500; // a clock behind: still the stored outcome
      const third = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":false}' });
      expect([first.kind, second.kind, third.kind]).toEqual(['expired', 'expired', 'expired']);
      expect([first.replayed, second.replayed, third.replayed]).toEqual([false, true, true]);
      expect(modelText(second)).toBe(modelText(first));
      expect(modelText(third)).toBe(modelText(first));
      expect(seen.sent).toBe(0);
    });

    it('C: an answer whose process crashed between take and finish resumes once after the lease', async () => {
      const store = await open();
      let now = 1_000;
      const seen = effects();
      const config = { registry: new Registry(sendEmail(seen)), leaseMs: 5_000, now: () => now };
      const runtime = new Runtime({ ...config, store });
      const threadId = `thread-${randomUUID()}`;
      const [asked] = await runtime.runTurn({ threadId, calls: [call('c', 'send_email', { to: 'c@x.org' })] });
      // The first answer's process took the call, then crashed before it finished.
      const crashed = await store.take({ threadId, callId: 'c' }, now, 5_000);
      expect(crashed.status).toBe('taken');
      now = 6_000; // within the lease: the call is still being answered
      const early = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      expect([early.kind, early.kind !== 'suspended' && early.previous]).toEqual(['already-answered', undefined]);
      now = 6_001; // the lease passed: the call waits again, and one of the racing answers resumes it
      expect((await runtime.list({ threadId })).map((r) => r.callId)).toEqual(['c']);
      const other = new Runtime({ ...config, store: await twin(store) });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? runtime : other).resume({ threadId, callId: 'c', answer: '{"ok":true}' }),
        ),
      );
      expect(answers.filter((o) => o.kind === 'completed')).toHaveLength(1);
      expect(seen.sent).toBe(1);
      // The tool saw the call's one idempotency key on both runs.
      expect(new Set(seen.keys)).toEqual(new Set([asked.idempotencyKey]));
      now = 1_000_000;
      const later = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      expect([later.kind, later.kind !== 'suspended' && later.previous?.kind]).toEqual([
        'already-answered',
        'completed',
      ]);
    });

    it('G: ids up to MAX_ID_BYTES bytes run and resume; longer ones are ERR_ID_TOO_LONG', async () => {
      const store = await open();
      const seen = effects();
      const runtime = new Runtime({ registry: new Registry(sendEmail(seen, { twice: true }), echo(seen)), store });
      const max = ofBytes(MAX_ID_BYTES);
      const over = ofBytes(MAX_ID_BYTES + 1);
      const ids = { threadId: max, principal: max };
      const outcomes = await runtime.runTurn({
        ...ids,
        calls: [call(max, 'send_email', { to: 'a@x.org' }), call(`${max.slice(0, -1)}ab`, 'echo', { text: 'a' })],
      });
      expect(outcomes.map((o) => o.kind)).toEqual(['suspended', 'completed']);
      const round2 = await runtime.resume({ ...ids, callId: max, answer: '{"ok":true}' });
      expect(round2.kind === 'suspended' && Buffer.byteLength(round2.record.callId)).toBe(MAX_ID_BYTES + 2);
      const done = await runtime.resume({
        ...ids,
        callId: round2.kind === 'suspended' ? round2.record.callId : max,
        answer: '{"ok":true}',
      });
      expect(done.kind).toBe('completed');
      const tooLong = { code: 'ERR_ID_TOO_LONG' };
      const turn = (threadId: string, principal: string, id: string) =>
        runtime.runTurn({ threadId, principal, calls: [call(id, 'echo', { text: 'x' })] });
      await expect(turn(over, 'p', 'c')).rejects.toMatchObject(tooLong);
      await expect(turn('t', over, 'c')).rejects.toMatchObject(tooLong);
      // A call id over the limit is that call's own `refused` outcome; the turn resolves.
      const [long] = await turn('t', 'p', over);
      expect([long.kind, long.kind !== 'suspended' && long.diagnostic]).toEqual([
        'refused',
        expect.objectContaining(tooLong),
      ]);
      await expect(runtime.resume({ threadId: over, callId: 'c', answer: 'true' })).rejects.toMatchObject(tooLong);
      await expect(runtime.resume({ threadId: 't', callId: over, answer: 'true' })).rejects.toMatchObject(tooLong);
      await expect(
        runtime.resume({ threadId: 't', principal: over, callId: 'c', answer: 'true' }),
      ).rejects.toMatchObject(tooLong);
      await expect(runtime.list({ threadId: over })).rejects.toMatchObject(tooLong);
      expect(seen.sent).toBe(1);
    });
  });

  it('K: of 100 racing begins of one call one is begun; settle replaces it; getSettled skips running calls', async () => {
    const stores = await openMany(4);
    const entry = makeSettled();
    const running = { ...keyOf(entry), tool: entry.tool, argumentsDigest: entry.argumentsDigest, principal: 'user-1' };
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => stores[i % stores.length].begin(running, 2_000, 5_000)),
    );
    const begun = results.filter((r) => r.status === 'begun');
    expect(begun).toHaveLength(1);
    expect(results.filter((r) => r.status === 'running').map((r) => r.status === 'running' && r.call)).toEqual(
      Array.from({ length: 99 }, () => running),
    );
    await expect(stores[1].getSettled(keyOf(entry))).resolves.toBeUndefined();
    await expect(stores[1].settle(entry)).resolves.toBe(true);
    await expect(stores[2].settle({ ...entry, tool: 'other' })).resolves.toBe(false);
    await expect(stores[3].getSettled(keyOf(entry))).resolves.toEqual(entry);
    await expect(stores[0].begin(running, 9_000_000)).resolves.toEqual({ status: 'settled', call: entry });
    const claim = begun[0].status === 'begun' ? begun[0].claim : '';
    await expect(stores[0].abandon(keyOf(entry), claim)).resolves.toBe(false);
    await expect(stores[0].getSettled(keyOf(entry))).resolves.toEqual(entry);
  });

  it('K: a running call whose lease passed is begun again; abandon frees the key for the next begin', async () => {
    const store = await open();
    const key = { threadId: `thread-${randomUUID()}`, callId: 'call_1' };
    const running = { ...key, tool: 'echo', argumentsDigest: `sha256:${HEX64}`, principal: '' };
    const first = await store.begin(running, 1_000, 5_000);
    expect(first.status).toBe('begun');
    await expect(store.begin(running, 6_000, 5_000)).resolves.toEqual({ status: 'running', call: running });
    const second = await store.begin(running, 6_001, 5_000); // the first caller crashed
    expect(second.status).toBe('begun');
    const claimOf = (r: typeof first) => (r.status === 'begun' ? r.claim : '');
    expect(claimOf(second)).not.toBe(claimOf(first));
    await expect(store.abandon(key, claimOf(first))).resolves.toBe(false);
    await expect(store.abandon(key, claimOf(second))).resolves.toBe(true);
    await expect(store.abandon(key, claimOf(second))).resolves.toBe(false);
    expect((await store.begin(running, 6_002)).status).toBe('begun');
    const bad = { code: 'ERR_STORE_INVALID_ARGUMENT' };
    await expect(store.begin({ ...running, argumentsDigest: 'x' }, 1)).rejects.toMatchObject(bad);
    await expect(store.begin({ ...running, extra: 1 } as never, 1)).rejects.toMatchObject(bad);
    await expect(store.begin(running, -1)).rejects.toMatchObject(bad);
    await expect(store.abandon(key, '')).rejects.toMatchObject(bad);
  });

  it('K: release gives a taken record back at once; a stale claim or a finished record is false', async () => {
    const store = await open();
    const record = makeRecord();
    await store.commit(record);
    const taken = await store.take(keyOf(record), 2_000, 600_000);
    const claim = taken.status === 'taken' ? taken.claim : '';
    await expect(store.release(keyOf(record), 'not-the-claim')).resolves.toBe(false);
    await expect(store.release(keyOf(record), claim)).resolves.toBe(true);
    expect(await store.list({ threadId: record.threadId }, 2_001)).toEqual([record]);
    await expect(store.get(keyOf(record))).resolves.toEqual({ record });
    await expect(store.finish(keyOf(record), claim, { kind: 'completed' })).rejects.toMatchObject({
      code: 'ERR_STORE_NOT_TAKEN',
    });
    const again = await store.take(keyOf(record), 2_002); // at once, not after the lease
    expect(again.status).toBe('taken');
    const claim2 = again.status === 'taken' ? again.claim : '';
    await store.finish(keyOf(record), claim2, { kind: 'completed', output: '{}' });
    await expect(store.release(keyOf(record), claim2)).resolves.toBe(false);
    expect((await store.get(keyOf(record)))?.outcome).toEqual({ kind: 'completed', output: '{}' });
    await expect(store.release({ threadId: record.threadId, callId: 'none' }, claim2)).resolves.toBe(false);
  });

  describe('the runtime over this store: one run per call id (hostile review 1, 5)', () => {
    const twin = async (store: SuspensionStore) => (target.shared ? open() : store);
    /** `slow({ n })` waits 50 ms, then counts its run and returns `n`. */
    const slow = (seen: { calls: number }) =>
      FuncTool.create(
        { name: 'slow', inputSchema: OBJECT({ n: { type: 'number' } }, ['n']), decode: (v) => v as { n: number } },
        async (input) => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          seen.calls++;
          return `n=${input.n}`;
        },
      );

    it('1: the same turn on two instances at once runs each call once; the other gets its outcome', async () => {
      const store = await open();
      const seen = effects();
      const registry = new Registry(slow(seen), sendEmail(seen));
      const a = new Runtime({ registry, store });
      const b = new Runtime({ registry, store: await twin(store) });
      const threadId = `thread-${randomUUID()}`;
      const turn = { threadId, calls: [call('c', 'slow', { n: 1 }), call('s', 'send_email', { to: 'a@x.org' })] };
      const [ra, rb] = await Promise.all([a.runTurn(turn), b.runTurn(turn)]);
      expect(seen.calls).toBe(2); // slow once, send_email once (it asked for approval)
      for (const i of [0, 1]) {
        expect([ra[i].kind, rb[i].kind]).toEqual([ra[i].kind, ra[i].kind]);
        expect([ra[i].replayed, rb[i].replayed].sort()).toEqual([false, true]);
      }
      expect(ra[0].kind).toBe('completed');
      expect(modelText(rb[0])).toBe(modelText(ra[0]));
      expect(ra[1].kind).toBe('suspended');
      expect(await a.list({ threadId })).toHaveLength(1);
    });

    it('1: a turn that missed the record of a call suspended meanwhile finds it after its claim', async () => {
      const inner = await open();
      const seen = effects();
      const registry = new Registry(sendEmail(seen));
      const threadId = `thread-${randomUUID()}`;
      const turn = { threadId, calls: [call('s', 'send_email', { to: 'a@x.org' })] };
      const [first] = await new Runtime({ registry, store: inner }).runTurn(turn);
      // The second turn looked before the first committed, and claims after it abandoned its claim.
      const store = new FaultyStore(await twin(inner));
      store.hiddenGets = 1;
      const [second] = await new Runtime({ registry, store }).runTurn(turn);
      expect([first.kind, second.kind, second.replayed, seen.calls]).toEqual(['suspended', 'suspended', true, 1]);
      const [third] = await new Runtime({ registry, store: inner }).runTurn(turn);
      expect([third.kind, third.replayed, seen.calls]).toEqual(['suspended', true, 1]);
    });

    it('1: the same call id with other arguments at once: one runs, the other is call-id-conflict', async () => {
      const store = await open();
      const seen = effects();
      const registry = new Registry(slow(seen));
      const a = new Runtime({ registry, store });
      const b = new Runtime({ registry, store: await twin(store) });
      const threadId = `thread-${randomUUID()}`;
      const [[x], [y]] = await Promise.all([
        a.runTurn({ threadId, calls: [call('c', 'slow', { n: 1 })] }),
        b.runTurn({ threadId, calls: [call('c', 'slow', { n: 2 })] }),
      ]);
      expect([x.kind, y.kind].sort()).toEqual(['call-id-conflict', 'completed']);
      expect(seen.calls).toBe(1);
    });

    it('1: a turn that crashed while running a call: the call waits for the lease, then runs once', async () => {
      const store = await open();
      const seen = effects();
      let now = 1_000;
      const config = { registry: new Registry(slow(seen)), leaseMs: 5_000, timeoutMs: 100, now: () => now };
      const threadId = `thread-${randomUUID()}`;
      const turn = { threadId, calls: [call('c', 'slow', { n: 1 })] };
      // A process began the call, then died before it settled.
      const running = {
        threadId,
        callId: 'c',
        tool: 'slow',
        argumentsDigest: argumentsDigest('{"n":1}'),
        principal: '',
      };
      expect((await store.begin(running, now, 5_000)).status).toBe('begun');
      const [waited] = await new Runtime({ ...config, store }).runTurn(turn);
      expect([waited.kind, seen.calls]).toEqual(['error', 0]); // still running elsewhere: not stored
      now = 6_001; // the lease passed
      const again = await Promise.all([
        new Runtime({ ...config, store }).runTurn(turn),
        new Runtime({ ...config, store: await twin(store) }).runTurn(turn),
      ]);
      expect(again.map(([o]) => o.kind)).toEqual(['completed', 'completed']);
      expect(seen.calls).toBe(1);
    });

    it('1: a call that ends `error` or over budget is not kept running: a replay runs it at once', async () => {
      const store = await open();
      let down = true;
      const seen = effects();
      const registry = new Registry(
        guarded(echo(seen), () => {
          if (down) throw new Error('authorizer outage');
          return true;
        }),
      );
      const runtime = new Runtime({ registry, store });
      const threadId = `thread-${randomUUID()}`;
      const turn = { threadId, calls: [call('e', 'echo', { text: 'a' })] };
      expect((await runtime.runTurn(turn))[0].kind).toBe('error');
      down = false;
      const [again] = await new Runtime({ registry, store: await twin(store) }).runTurn(turn);
      expect([again.kind, again.replayed, seen.calls]).toEqual(['completed', false, 1]);
    });

    it('5: a resume that ends `error` (authorizer outage, store failing to commit the next round) keeps the call waiting', async () => {
      const inner = await open();
      const store = new FaultyStore(inner);
      let down = false;
      const seen = effects();
      const registry = new Registry(
        guarded(sendEmail(seen, { twice: true }), () => {
          if (down) throw new Error('authorizer outage');
          return true;
        }),
      );
      const runtime = new Runtime({ registry, store });
      const threadId = `thread-${randomUUID()}`;
      await runtime.runTurn({ threadId, calls: [call('c', 'send_email', { to: 'a@x.org' })] });
      down = true;
      const outage = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      expect(outage.kind).toBe('error');
      expect((await runtime.list({ threadId })).map((r) => r.callId)).toEqual(['c']);
      down = false;
      store.commitError = new Error('store blip');
      const blip = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      expect(blip.kind).toBe('error');
      expect((await inner.get({ threadId, callId: 'c' }))?.outcome).toBeUndefined();
      store.commitError = undefined;
      const round2 = await new Runtime({ registry, store: await twin(inner) }).resume({
        threadId,
        callId: 'c',
        answer: '{"ok":true}',
      });
      expect(round2.kind === 'suspended' && round2.record.callId).toBe('c#2');
      const done = await runtime.resume({ threadId, callId: 'c#2', answer: '{"ok":true}' });
      expect([done.kind, seen.sent]).toEqual(['completed', 1]);
    });

    it('6: a round whose next round is committed but whose finish failed never runs again (a8)', async () => {
      const inner = await open();
      const store = new FaultyStore(inner);
      const seen = effects();
      let now = 1_000_000;
      const config = { registry: new Registry(sendEmail(seen, { twice: true })), leaseMs: 60_000, now: () => now };
      const runtime = new Runtime({ ...config, store });
      const threadId = `thread-${randomUUID()}`;
      const turn = { threadId, calls: [call('c', 'send_email', { to: 'a@x.org' })] };
      await runtime.runTurn(turn);
      store.finishError = new Error('connection reset');
      const round2 = await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' });
      store.finishError = undefined;
      expect([round2.kind, round2.kind === 'suspended' && round2.record.callId, 'storeError' in round2]).toEqual([
        'suspended',
        'c#2',
        true,
      ]);
      const byKey = (runtime2: Runtime) => runtime2.list({ threadId }).then((records) => records.map((r) => r.callId));
      const nextOf = (o: CallOutcome) =>
        o.kind === 'already-answered' && o.previous?.kind === 'suspended' ? o.previous.record.callId : o.kind;
      // While round 1's take holds, and after its lease: round 1 is answered, round 2 waits.
      expect(nextOf(await runtime.resume({ threadId, callId: 'c', answer: '{"ok":true}' }))).toBe('c#2');
      expect(await byKey(runtime)).toEqual(['c#2']);
      now += 61_000;
      const other = new Runtime({ ...config, store: await twin(inner) });
      expect(await byKey(other)).toEqual(['c#2']);
      const [replayed] = await other.runTurn(turn);
      expect(replayed.kind === 'suspended' && replayed.record.callId).toBe('c#2');
      expect(nextOf(await other.resume({ threadId, callId: 'c', answer: '{"ok":true}' }))).toBe('c#2');
      expect((await inner.get({ threadId, callId: 'c' }))?.outcome?.kind).toBe('suspended');
      expect(seen.calls).toBe(2);
      const done = await other.resume({ threadId, callId: 'c#2', answer: '{"ok":true}' });
      expect([done.kind, seen.calls, seen.sent]).toEqual(['completed', 3, 1]);
    });
  });

  describe('the runtime over this store: a key names one question (review A, round keys)', () => {
    const twin = async (store: SuspensionStore) => (target.shared ? open() : store);
    // Regression: resume looked up `<key>#1` (round 1 of a provider id spelling the key) before the
    // key itself, so the key list() showed for round 2 of call x resumed another call "x#2".
    it('resume binds the record under the key given, as list() shows it; a provider id "<id>#<n>" is refused', async () => {
      const store = await open();
      const seen = effects();
      const registry = new Registry(sendEmail(seen, { twice: true }));
      const runtime = new Runtime({ registry, store });
      const threadId = `thread-${randomUUID()}`;
      await runtime.runTurn({ threadId, calls: [call('x', 'send_email', { to: 'bob@x.org' })] });
      const round2 = await runtime.resume({ threadId, callId: 'x', answer: '{"ok":true}' });
      expect(round2.kind === 'suspended' && round2.record.callId).toBe('x#2');
      // Round 1 of a provider call id "x#2", as a release that took such ids committed it.
      const other = `thread-${randomUUID()}`;
      const [template] = await runtime.runTurn({
        threadId: other,
        calls: [call('y', 'send_email', { to: 'mallory@x.org' })],
      });
      if (template.kind !== 'suspended') throw new Error(`expected suspended, got ${template.kind}`);
      const legacy = {
        ...template.record,
        threadId,
        callId: 'x#2#1',
        idempotencyKey: idempotencyKeyOf(threadId, 'x#2'),
      };
      expect(await store.commit(legacy)).toBe(true);
      const listed = await runtime.list({ threadId });
      expect(listed.map((r) => [r.callId, r.arguments])).toEqual([
        ['x#2', '{"to":"bob@x.org"}'],
        ['x#2#1', '{"to":"mallory@x.org"}'],
      ]);
      // Each key list() showed resumes exactly its own record, on any instance.
      const twinRuntime = new Runtime({ registry, store: await twin(store) });
      const bob = await twinRuntime.resume({ threadId, callId: 'x#2', answer: '{"ok":true}' });
      expect([bob.kind, bob.call.id, bob.call.request.arguments]).toEqual(['completed', 'x', '{"to":"bob@x.org"}']);
      expect(modelText(bob)).toBe('sent to bob@x.org');
      // The earlier release's call keeps its own rounds: its tool asks again under "x#2#2".
      const asked = await runtime.resume({ threadId, callId: 'x#2#1', answer: '{"ok":true}' });
      expect([asked.kind, asked.call.id, asked.kind === 'suspended' && asked.record.callId]).toEqual([
        'suspended',
        'x#2',
        'x#2#2',
      ]);
      expect((await runtime.list({ threadId })).map((r) => r.callId)).toEqual(['x#2#2']);
      const mallory = settled(await runtime.resume({ threadId, callId: 'x#2#2', answer: '{"ok":true}' }));
      expect([mallory.kind, mallory.call.id, modelText(mallory)]).toEqual([
        'completed',
        'x#2',
        'sent to mallory@x.org',
      ]);
      expect(seen.sent).toBe(2);
      expect(await runtime.list({ threadId })).toEqual([]);
      // A turn carrying the provider id "x#2" is refused: it neither runs nor replays the record
      // of the earlier release.
      const [fresh] = await runtime.runTurn({ threadId, calls: [call('x#2', 'send_email', { to: 'mallory@x.org' })] });
      expect([fresh.kind, settled(fresh).diagnostic]).toEqual([
        'refused',
        expect.objectContaining({ code: 'ERR_INVALID_CALL' }),
      ]);
      expect(seen.calls).toBe(6);
    });
  });

  if (!target.shared) return; // the data lives in the process: nothing survives it

  describe('durability', () => {
    it('records, outcomes, claims and counts survive close and reopen', async () => {
      const first = await open();
      const waiting = makeRecord();
      const finished = makeRecord();
      const expired = makeRecord({ expiresAt: 1_500 });
      const tokenId = `token-${randomUUID()}`;
      for (const r of [waiting, finished, expired]) await first.commit(r);
      const taken = await first.take(keyOf(finished), 1_200);
      if (taken.status !== 'taken') throw new Error(`expected taken, got ${taken.status}`);
      await first.finish(keyOf(finished), taken.claim, { kind: 'completed', output: '{"content":[]}' });
      expect((await first.take(keyOf(expired), 2_000)).status).toBe('expired');
      await first.claim(tokenId, Date.now() + 60_000);
      await first.countCall(waiting.threadId, 'x');
      await first.close();

      const second = await open();
      expect(await second.get(keyOf(waiting))).toEqual({ record: waiting });
      expect(await second.get(keyOf(finished))).toEqual({
        record: finished,
        outcome: { kind: 'completed', output: '{"content":[]}' },
      });
      expect((await second.take(keyOf(expired), 1_000)).status).toBe('expired');
      await expect(second.claim(tokenId, Date.now() + 60_000)).resolves.toBe(false);
      expect(await second.countCall(waiting.threadId, 'x')).toEqual({ tool: 2, total: 2, counted: true });
      expect((await second.take(keyOf(waiting), 2_000)).status).toBe('taken');
    });

    it(
      '1,000 racing takes from 4 processes: exactly one is taken',
      async () => {
        const store = await open();
        const record = makeRecord();
        await store.commit(record);
        const counts = await takeInChildren(target.child(), keyOf(record), 2_000, 4, 250);
        expect(counts).toEqual({ taken: 1, answered: 999, other: 0 });
        expect((await store.take(keyOf(record), 2_000)).status).toBe('answered');
      },
      CHILD_TIMEOUT_MS,
    );

    it(
      'a process killed right after commit resolved leaves the record committed',
      async () => {
        const record = makeRecord();
        const code = await commitInChildThenKill(target.child(), record);
        expect(code).toBe('SIGKILL');
        const fresh = await open();
        expect(await fresh.get(keyOf(record))).toEqual({ record });
        expect((await fresh.take(keyOf(record), 2_000)).status).toBe('taken');
      },
      CHILD_TIMEOUT_MS,
    );
  });
}

// Children start from the sources (spec/support/register.js): allow for a loaded machine.
const CHILD_TIMEOUT_MS = 120_000;
const CHILD = path.join(__dirname, '..', 'support', 'store-child.ts');
const CHILD_OPTIONS = {
  execArgv: ['-r', path.join(__dirname, '..', 'support', 'register.js')],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[],
};

/**
 * Forks `processes` children that each open the target and, once all are ready, take `key`
 * `each` times concurrently; resolves the summed statuses.
 */
async function takeInChildren(
  child: ChildTarget,
  key: { threadId: string; callId: string },
  now: number,
  processes: number,
  each: number,
): Promise<{ taken: number; answered: number; other: number }> {
  const procs = Array.from({ length: processes }, () =>
    fork(CHILD, [JSON.stringify({ mode: 'take', child, key, now, count: each })], CHILD_OPTIONS),
  );
  try {
    const ready = procs.map(
      (proc) =>
        new Promise<void>((resolve, reject) => {
          proc.on('message', (m) => m === 'ready' && resolve());
          proc.on('exit', (code) => reject(new Error(`store child exited (${code}) before it was ready`)));
        }),
    );
    await Promise.all(ready);
    const done = procs.map(
      (proc) =>
        new Promise<{ taken: number; answered: number; other: number }>((resolve, reject) => {
          proc.on('message', (m) => typeof m === 'object' && m !== null && resolve(m as never));
          proc.on('exit', (code) => reject(new Error(`store child exited (${code}) before it reported`)));
        }),
    );
    for (const proc of procs) proc.send('go');
    const all = await Promise.all(done);
    return all.reduce((a, b) => ({
      taken: a.taken + b.taken,
      answered: a.answered + b.answered,
      other: a.other + b.other,
    }));
  } finally {
    for (const proc of procs) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }
}

/**
 * Forks spec/support/store-child.ts, which opens the target, commits `record` and reports it; the
 * parent kills it with SIGKILL the moment the report arrives (before any announce or close).
 */
function commitInChildThenKill(child: ChildTarget, record: SuspensionRecord): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve, reject) => {
    const proc = fork(CHILD, [JSON.stringify({ mode: 'commit', child, record })], CHILD_OPTIONS);
    let reported = false;
    proc.on('message', (message) => {
      if (message === 'committed') {
        reported = true;
        proc.kill('SIGKILL');
      }
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      if (!reported) reject(new Error(`store child exited (${signal ?? code}) before it reported the commit`));
      else resolve(signal ?? code);
    });
  });
}
