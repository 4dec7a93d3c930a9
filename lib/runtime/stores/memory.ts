import { randomUUID } from 'node:crypto';
import type {
  BeginResult,
  CallCounts,
  CallKey,
  CountOptions,
  ListFilter,
  RunningCall,
  SettledCall,
  StoredOutcome,
  SuspensionRecord,
  SuspensionStore,
  TakeResult,
} from '../store';
import { StoreError, _closedError } from './errors';
import {
  EXPIRED_OUTCOME,
  checkCountOptions,
  checkFilter,
  checkKey,
  checkLease,
  checkName,
  checkNow,
  checkOutcome,
  checkRecord,
  checkRunning,
  checkSettled,
  underLimits,
} from './record';

const STORE = 'MemoryStore';

type State = 'waiting' | 'taken' | 'finished' | 'expired';

interface Entry {
  readonly record: SuspensionRecord;
  readonly seq: number;
  state: State;
  claim?: string;
  /** While `taken`: the instant (ms) after which another take may take it again. */
  leaseUntil?: number;
  outcome?: StoredOutcome;
}

/** Whether the entry may be taken at `now`: waiting, or taken with a lease that passed. */
function takeable(entry: Entry, now: number): boolean {
  return entry.state === 'waiting' || (entry.state === 'taken' && now > (entry.leaseUntil as number));
}

/** Options of a MemoryStore. */
export interface MemoryStoreOptions {
  /** The clock used to forget claimed token ids after their expiry, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * A SuspensionStore in this process's memory: for tests and single-process services. Nothing
 * survives the process; every operation is atomic because it runs without awaiting. Records are
 * checked as every store checks them (lib/runtime/stores/record.ts) and kept as frozen copies.
 * A take's lease is kept with the record (see SuspensionStore.take).
 *
 * Errors (rejections): ERR_STORE_INVALID_RECORD (commit of a malformed record or of a version other
 * than SUSPENSION_RECORD_VERSION, naming the field), ERR_STORE_INVALID_ARGUMENT (a malformed key,
 * outcome, settled call, filter, instant, lease or token id), ERR_STORE_ID_TOO_LONG (an id over
 * MAX_ID_BYTES), ERR_STORE_NOT_TAKEN (finish without owning the record),
 * ERR_STORE_CLOSED (any call after close).
 */
export class MemoryStore implements SuspensionStore {
  readonly #records = new Map<string, Entry>();
  readonly #settled = new Map<string, SettledCall>();
  readonly #running = new Map<string, { readonly call: RunningCall; readonly claim: string; readonly until: number }>();
  readonly #counts = new Map<string, number>();
  /** The call ids countCall counted, per thread (entryId). */
  readonly #counted = new Set<string>();
  readonly #claimed = new Map<string, number>();
  readonly #now: () => number;
  #seq = 0;
  #sweepAt = 64;
  #closed = false;

  /** @param options - see MemoryStoreOptions */
  constructor(options: MemoryStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  #open(operation: string): void {
    if (this.#closed) throw _closedError(STORE, operation);
  }

  async commit(record: SuspensionRecord): Promise<boolean> {
    this.#open('commit');
    const checked = checkRecord(STORE, 'commit', record);
    const id = entryId(checked);
    if (this.#records.has(id)) return false;
    this.#records.set(id, { record: checked, seq: this.#seq++, state: 'waiting' });
    return true;
  }

  async get(
    key: CallKey,
  ): Promise<{ readonly record: SuspensionRecord; readonly outcome?: StoredOutcome } | undefined> {
    this.#open('get');
    const entry = this.#records.get(entryId(checkKey(STORE, 'get', key)));
    if (entry === undefined) return undefined;
    return entry.outcome === undefined ? { record: entry.record } : { record: entry.record, outcome: entry.outcome };
  }

  async take(key: CallKey, now: number, leaseMs?: number): Promise<TakeResult> {
    this.#open('take');
    const entry = this.#records.get(entryId(checkKey(STORE, 'take', key)));
    checkNow(STORE, 'take', now);
    const lease = checkLease(STORE, 'take', leaseMs);
    if (entry === undefined) return { status: 'missing' };
    if (takeable(entry, now)) {
      if (now > entry.record.expiresAt) {
        entry.state = 'expired';
        entry.claim = undefined;
        entry.leaseUntil = undefined;
        entry.outcome = EXPIRED_OUTCOME;
      } else {
        const claim = randomUUID();
        entry.state = 'taken';
        entry.claim = claim;
        entry.leaseUntil = now + lease;
        return { status: 'taken', record: entry.record, claim };
      }
    }
    switch (entry.state) {
      case 'expired':
        return { status: 'expired', record: entry.record };
      default:
        return entry.outcome === undefined
          ? { status: 'answered', record: entry.record }
          : { status: 'answered', record: entry.record, outcome: entry.outcome };
    }
  }

  async finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void> {
    this.#open('finish');
    const checkedKey = checkKey(STORE, 'finish', key);
    checkName(STORE, 'finish', claim, 'claim');
    const checked = checkOutcome(STORE, 'finish', outcome);
    const entry = this.#records.get(entryId(checkedKey));
    if (entry === undefined || entry.state !== 'taken' || entry.claim !== claim) {
      throw notTaken(STORE, checkedKey, entry === undefined ? 'missing' : entry.state);
    }
    entry.state = 'finished';
    entry.leaseUntil = undefined;
    entry.outcome = checked;
  }

  async release(key: CallKey, claim: string): Promise<boolean> {
    this.#open('release');
    const entry = this.#records.get(entryId(checkKey(STORE, 'release', key)));
    checkName(STORE, 'release', claim, 'claim');
    if (entry === undefined || entry.state !== 'taken' || entry.claim !== claim) return false;
    entry.state = 'waiting';
    entry.claim = undefined;
    entry.leaseUntil = undefined;
    return true;
  }

  async begin(call: RunningCall, now: number, leaseMs?: number): Promise<BeginResult> {
    this.#open('begin');
    const checked = checkRunning(STORE, 'begin', call);
    checkNow(STORE, 'begin', now);
    const lease = checkLease(STORE, 'begin', leaseMs);
    const id = entryId(checked);
    const settled = this.#settled.get(id);
    if (settled !== undefined) return { status: 'settled', call: settled };
    const running = this.#running.get(id);
    if (running !== undefined && now <= running.until) return { status: 'running', call: running.call };
    const claim = randomUUID();
    this.#running.set(id, { call: checked, claim, until: now + lease });
    return { status: 'begun', claim };
  }

  async abandon(key: CallKey, claim: string): Promise<boolean> {
    this.#open('abandon');
    const id = entryId(checkKey(STORE, 'abandon', key));
    checkName(STORE, 'abandon', claim, 'claim');
    if (this.#running.get(id)?.claim !== claim) return false;
    this.#running.delete(id);
    return true;
  }

  async settle(call: SettledCall): Promise<boolean> {
    this.#open('settle');
    const checked = checkSettled(STORE, 'settle', call);
    const id = entryId(checked);
    if (this.#settled.has(id)) return false;
    this.#settled.set(id, checked);
    this.#running.delete(id);
    return true;
  }

  async getSettled(key: CallKey): Promise<SettledCall | undefined> {
    this.#open('getSettled');
    return this.#settled.get(entryId(checkKey(STORE, 'getSettled', key)));
  }

  async countCall(threadId: string, tool: string, options?: CountOptions): Promise<CallCounts> {
    this.#open('countCall');
    checkName(STORE, 'countCall', threadId, 'threadId');
    checkName(STORE, 'countCall', tool, 'tool');
    const o = checkCountOptions(STORE, 'countCall', options);
    const toolKey = JSON.stringify([threadId, tool]);
    const totalKey = JSON.stringify([threadId]);
    const toolCount = this.#counts.get(toolKey) ?? 0;
    const total = this.#counts.get(totalKey) ?? 0;
    const callKey = o.callId === undefined ? undefined : entryId({ threadId, callId: o.callId });
    if (callKey !== undefined && this.#counted.has(callKey)) return { tool: toolCount, total, counted: true };
    if (!underLimits(o, toolCount, total)) return { tool: toolCount, total, counted: false };
    this.#counts.set(toolKey, toolCount + 1);
    this.#counts.set(totalKey, total + 1);
    if (callKey !== undefined) this.#counted.add(callKey);
    return { tool: toolCount + 1, total: total + 1, counted: true };
  }

  async list(filter: ListFilter, now: number): Promise<SuspensionRecord[]> {
    this.#open('list');
    const { by, value } = checkFilter(STORE, 'list', filter);
    checkNow(STORE, 'list', now);
    const out: Entry[] = [];
    for (const entry of this.#records.values()) {
      if (takeable(entry, now) && now <= entry.record.expiresAt && entry.record[by] === value) out.push(entry);
    }
    out.sort((a, b) => a.record.createdAt - b.record.createdAt || a.seq - b.seq);
    return out.map((entry) => entry.record);
  }

  async claim(tokenId: string, expiresAt: number): Promise<boolean> {
    this.#open('claim');
    checkName(STORE, 'claim', tokenId, 'tokenId');
    checkNow(STORE, 'claim', expiresAt, 'expiresAt');
    if (this.#claimed.has(tokenId)) return false;
    if (this.#claimed.size >= this.#sweepAt) {
      const now = this.#now();
      for (const [id, expiry] of this.#claimed) if (expiry < now) this.#claimed.delete(id);
      this.#sweepAt = Math.max(64, 2 * this.#claimed.size);
    }
    this.#claimed.set(tokenId, expiresAt);
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

function entryId(key: CallKey): string {
  return JSON.stringify([key.threadId, key.callId]);
}

/** The ERR_STORE_NOT_TAKEN error of `finish`. @internal */
export function notTaken(store: string, key: CallKey, state: string): StoreError {
  const why =
    state === 'missing'
      ? 'no record has this key'
      : state === 'taken'
        ? 'the record was taken under another claim'
        : `the record is ${state}, not taken`;
  return new StoreError(
    'ERR_STORE_NOT_TAKEN',
    `${store}: finish ${JSON.stringify(key.threadId)}/${JSON.stringify(key.callId)}: ${why}; ` +
      'finish only with the claim that take returned, once',
  );
}
