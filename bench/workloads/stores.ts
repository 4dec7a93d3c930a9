/**
 * The suspension store rows (issue 13): commit and resume (take + finish) through each store
 * (MemoryStore, SqliteStore, PostgresStore), each beside the bare driver call it is built on (a
 * plain INSERT, a plain `UPDATE ... RETURNING` through the same driver and database) as the
 * group's floor; and the memory (or storage) each suspended call holds. PostgreSQL is a throwaway
 * server started here with spec/support/postgres.ts, stopped by `close()`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import {
  SUSPENSION_RECORD_VERSION,
  type CallKey,
  type SuspensionRecord,
  type SuspensionStore,
} from '../../lib/runtime/store';
import { MemoryStore, PostgresStore, SqliteStore } from '../../lib/runtime/stores';
import { startPostgres } from '../../spec/support/postgres';
import { settledHeap } from '../probes';
import type { Probe } from '../report';
import { workload } from '../workload';
import type { Workload, WorkloadSet } from '../workload';

/** The bare driver calls of a store's floor rows: insert one row, then take it by id. */
interface Floor {
  readonly insertLabel: string;
  readonly takeLabel: string;
  insert(id: string, body: string): unknown;
  take(id: string): unknown;
}

/** One store under measurement, with its floor and what it holds per suspended call. */
interface StoreTarget {
  readonly kind: string;
  readonly name: string;
  readonly store: SuspensionStore;
  readonly floor: Floor;
  /** Bytes held per waiting record (heap or storage), with the probe's label and unit. */
  footprint(): Promise<Probe>;
  close(): Promise<void>;
}

const RUN = `bench-${process.pid}-${Date.now()}`;
const INPUT_REQUEST = JSON.stringify({
  prompt: JSON.stringify('Transfer 120.00 EUR to account DE89 3704 0044 0532 0130 00? Reply yes or no.'),
  response_schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
  continuation_state: JSON.stringify({ step: 'confirm', transferId: 'tr_8f3a2c' }),
});

/** A realistic record; `n` makes its key unique. */
export function benchRecord(n: number, thread = `${RUN}-thread-${n % 64}`): SuspensionRecord {
  return {
    version: SUSPENSION_RECORD_VERSION,
    threadId: thread,
    callId: `call_${n}`,
    tool: 'transfer_money',
    contractFingerprint: `sha256:${'3'.repeat(64)}`,
    arguments: '{"amount":120,"currency":"EUR","to":"DE89370400440532013000"}',
    argumentsDigest: `sha256:${'c'.repeat(64)}`,
    principal: 'user-42',
    inputRequest: INPUT_REQUEST,
    idempotencyKey: `${thread}/call_${n}`,
    createdAt: Date.now(),
    expiresAt: Date.now() + 3_600_000,
  };
}

/** A first-in first-out queue with O(1) take (Array#shift is O(n) on the long queues fast rows leave). */
class Queue<T> {
  #items: T[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  shift(): T {
    if (this.length === 0) throw new Error('bench: empty queue');
    const item = this.#items[this.#head++];
    if (this.#head > 4096 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}

/** The commit and resume rows of one target. Commits leave waiting records that resume takes. */
function targetWorkloads(t: StoreTarget): Workload[] {
  let n = 0;
  const waiting = new Queue<CallKey>();
  const commit = async () => {
    const record = benchRecord(n++);
    if (!(await t.store.commit(record))) throw new Error(`bench: ${t.name} commit refused a fresh key`);
    waiting.push({ threadId: record.threadId, callId: record.callId });
    return true;
  };
  let f = 0;
  const floorWaiting = new Queue<string>();
  const body = JSON.stringify(benchRecord(0));
  const floorInsert = async () => {
    const id = `${RUN}-floor-${f++}`;
    await t.floor.insert(id, body);
    floorWaiting.push(id);
    return true;
  };
  const commitGroup = `store/${t.kind}-commit`;
  const resumeGroup = `store/${t.kind}-resume`;
  return [
    workload(commitGroup, t.floor.insertLabel, 'floor', floorInsert),
    workload(commitGroup, `${t.name}.commit`, 'scope', commit),
    workload(resumeGroup, t.floor.takeLabel, 'floor', async () => {
      if (floorWaiting.length === 0) await floorInsert();
      const row = await t.floor.take(floorWaiting.shift());
      if (row === undefined) throw new Error(`bench: ${t.name} floor took nothing`);
      return true;
    }),
    workload(resumeGroup, `${t.name}.take + finish`, 'scope', async () => {
      if (waiting.length === 0) await commit();
      const key = waiting.shift();
      const taken = await t.store.take(key, Date.now());
      if (taken.status !== 'taken') throw new Error(`bench: ${t.name} take was ${taken.status}`);
      await t.store.finish(key, taken.claim, {
        kind: 'completed',
        output: '{"content":[{"type":"text","text":"ok"}]}',
      });
      return true;
    }),
  ];
}

async function memoryTarget(footprintCalls: number): Promise<StoreTarget> {
  const store = new MemoryStore();
  const map = new Map<string, { state: string; body: string }>();
  return {
    kind: 'memory',
    name: 'MemoryStore',
    store,
    floor: {
      insertLabel: 'bare Map.set',
      takeLabel: 'bare Map.get + state change',
      insert: (id, body) => map.set(id, { state: 'waiting', body }),
      take: (id) => {
        const entry = map.get(id);
        if (entry?.state !== 'waiting') return undefined;
        entry.state = 'taken';
        return entry.body;
      },
    },
    footprint: async () => {
      const probe = new MemoryStore();
      const before = settledHeap();
      for (let i = 0; i < footprintCalls; i++) await probe.commit(benchRecord(i, `footprint-${i % 64}`));
      const bytes = (settledHeap() - before) / footprintCalls;
      await probe.close();
      return {
        id: 'store/memory-bytes-per-call',
        label: `MemoryStore heap per suspended call (${footprintCalls.toLocaleString('en-US')} records, after GC)`,
        value: bytes,
        unit: 'bytes',
      };
    },
    close: () => store.close(),
  };
}

async function sqliteTarget(): Promise<StoreTarget> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-bench-sqlite-'));
  const file = path.join(dir, 'bench.db');
  const store = await SqliteStore.open(file);
  // The floor: the same driver, file and durability settings, one plain statement each.
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.exec('CREATE TABLE IF NOT EXISTS bench_floor (id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL)');
  const insert = raw.prepare(`INSERT INTO bench_floor (id, state, body) VALUES (?, 'waiting', ?)`);
  const take = raw.prepare(`UPDATE bench_floor SET state = 'taken' WHERE id = ? AND state = 'waiting' RETURNING body`);
  return {
    kind: 'sqlite',
    name: 'SqliteStore',
    store,
    floor: {
      insertLabel: 'bare better-sqlite3 INSERT',
      takeLabel: 'bare better-sqlite3 UPDATE ... RETURNING',
      insert: (id, body) => insert.run(id, body),
      take: (id) => take.get(id),
    },
    footprint: async () => {
      raw.pragma('wal_checkpoint(TRUNCATE)');
      const { bytes } = raw
        .prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'scope_tool_suspensions%'`)
        .get() as { bytes: number };
      const { rows } = raw.prepare('SELECT COUNT(*) AS rows FROM scope_tool_suspensions').get() as { rows: number };
      return {
        id: 'store/sqlite-bytes-per-call',
        label: `SqliteStore file bytes per suspended call (table and indexes, ${rows.toLocaleString('en-US')} records)`,
        value: bytes / rows,
        unit: 'bytes',
      };
    },
    close: async () => {
      await store.close();
      raw.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(): Promise<StoreTarget> {
  const server = await startPostgres();
  try {
    const store = await PostgresStore.open({ connectionString: server.connectionString });
    const pool = new Pool({ connectionString: server.connectionString, max: 10 });
    await pool.query(
      'CREATE TABLE IF NOT EXISTS bench_floor (id text PRIMARY KEY, state text NOT NULL, body text NOT NULL)',
    );
    return {
      kind: 'postgres',
      name: 'PostgresStore',
      store,
      floor: {
        insertLabel: 'bare pg INSERT',
        takeLabel: 'bare pg UPDATE ... RETURNING',
        insert: (id, body) =>
          pool.query(`INSERT INTO bench_floor (id, state, body) VALUES ($1, 'waiting', $2)`, [id, body]),
        take: async (id) =>
          (
            await pool.query(
              `UPDATE bench_floor SET state = 'taken' WHERE id = $1 AND state = 'waiting' RETURNING body`,
              [id],
            )
          ).rows[0],
      },
      footprint: async () => {
        await pool.query('VACUUM ANALYZE scope_tool_suspensions');
        const { rows } = await pool.query(
          `SELECT pg_total_relation_size('scope_tool_suspensions') AS bytes, COUNT(*) AS n FROM scope_tool_suspensions`,
        );
        const n = Number(rows[0].n);
        return {
          id: 'store/postgres-bytes-per-call',
          label: `PostgresStore bytes per suspended call (table, TOAST and indexes, ${n.toLocaleString('en-US')} records)`,
          value: Number(rows[0].bytes) / n,
          unit: 'bytes',
        };
      },
      close: async () => {
        try {
          await store.close();
          await pool.end();
        } finally {
          server.stop();
        }
      },
    };
  } catch (err) {
    server.stop();
    throw err;
  }
}

/**
 * The store rows of every store whose target could start (a store that cannot start, e.g. no
 * PostgreSQL binaries, is reported in `skipped` with the reason). `footprint()` gives the probes;
 * call it after measuring, before `close()`.
 */
export async function storeSet(
  options: { readonly footprintCalls?: number; readonly postgres?: boolean } = {},
): Promise<WorkloadSet & { readonly skipped: readonly string[]; footprint(): Promise<Probe[]> }> {
  const targets: StoreTarget[] = [];
  const skipped: string[] = [];
  const starts: [string, () => Promise<StoreTarget>][] = [
    ['MemoryStore', () => memoryTarget(options.footprintCalls ?? 20_000)],
    ['SqliteStore', sqliteTarget],
  ];
  if (options.postgres !== false) starts.push(['PostgresStore', postgresTarget]);
  for (const [name, start] of starts) {
    try {
      targets.push(await start());
    } catch (err) {
      skipped.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    workloads: targets.flatMap(targetWorkloads),
    skipped,
    footprint: async () => {
      const probes: Probe[] = [];
      for (const t of targets) probes.push(await t.footprint());
      return probes;
    },
    close: async () => void (await Promise.all(targets.map((t) => t.close()))),
  };
}
