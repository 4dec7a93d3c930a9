import { randomUUID } from 'node:crypto';
import type * as Pg from 'pg';
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
import { loadDriver } from './driver';
import { StoreError, _closedError, _driverError } from './errors';
import { notTaken } from './memory';
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
  type ListedRow,
  decodeOutcome,
  decodeRecord,
  decodeRunning,
  decodeSettled,
  encodeRecord,
  encodeSettled,
  listedRecords,
  warnUnreadable,
  underLimits,
} from './record';

const STORE = 'PostgresStore';

/** The version of the tables below; a database of another version is refused (ERR_STORE_SCHEMA). */
export const POSTGRES_SCHEMA_VERSION = 1;

// pg_advisory_xact_lock key: serializes concurrent migrations of several instances.
const MIGRATION_LOCK = 7_421_513_027;

// `record` is the record's JSON text (text, not jsonb: jsonb refuses \u0000 and reorders members);
// the other columns index it; `lease_until` is when a take's lease passes (state 'taken'). Settled
// calls (`settle`): one row each, `entry` its JSON text. Counts: the row of tool '' is the
// thread's total. Tables and columns are only ever added (IF NOT EXISTS): no version bump.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS scope_tool_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS scope_tool_suspensions (
  thread_id text NOT NULL,
  call_id text NOT NULL,
  seq bigserial NOT NULL,
  principal text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  version integer NOT NULL,
  record text NOT NULL,
  state text NOT NULL CHECK (state IN ('waiting', 'taken', 'finished', 'expired')),
  claim text,
  outcome text,
  lease_until bigint,
  PRIMARY KEY (thread_id, call_id)
);
ALTER TABLE scope_tool_suspensions ADD COLUMN IF NOT EXISTS lease_until bigint;
CREATE INDEX IF NOT EXISTS scope_tool_suspensions_thread
  ON scope_tool_suspensions (thread_id, created_at, seq) WHERE state = 'waiting';
CREATE INDEX IF NOT EXISTS scope_tool_suspensions_principal
  ON scope_tool_suspensions (principal, created_at, seq) WHERE state = 'waiting';
CREATE INDEX IF NOT EXISTS scope_tool_suspensions_lease
  ON scope_tool_suspensions (lease_until) WHERE state = 'taken';
CREATE TABLE IF NOT EXISTS scope_tool_call_counts (
  thread_id text NOT NULL,
  tool text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (thread_id, tool)
);
CREATE TABLE IF NOT EXISTS scope_tool_claims (token_id text PRIMARY KEY, expires_at bigint NOT NULL);
CREATE TABLE IF NOT EXISTS scope_tool_counted (
  thread_id text NOT NULL,
  call_id text NOT NULL,
  PRIMARY KEY (thread_id, call_id)
);
CREATE TABLE IF NOT EXISTS scope_tool_settled (
  thread_id text NOT NULL,
  call_id text NOT NULL,
  entry text NOT NULL,
  PRIMARY KEY (thread_id, call_id)
);
ALTER TABLE scope_tool_settled ADD COLUMN IF NOT EXISTS state text, ADD COLUMN IF NOT EXISTS claim text,
  ADD COLUMN IF NOT EXISTS lease_until bigint;
`;

/** Options of PostgresStore.open: a Pool of yours, or a connection string for a pool of the store's own. */
export type PostgresStoreOptions = (
  | {
      /** A `pg` Pool; the store never ends it (close() leaves it to you). */
      readonly pool: Pg.Pool;
      readonly connectionString?: undefined;
    }
  | {
      /** A PostgreSQL connection URI (`postgres://user@host:port/db`); the store's own Pool, ended by close(). */
      readonly connectionString: string;
      /** The most connections of the store's own Pool (default 10). */
      readonly max?: number;
      readonly pool?: undefined;
    }
) & {
  /**
   * Create the tables when missing (`migrate()`) at open (default true). With false, open only
   * checks that they exist in this schema version: for deployments that run migrations apart.
   */
  readonly migrate?: boolean;
  /** The clock used to forget expired token claims, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Told of each row `list` leaves out because it is not a readable record (ERR_STORE_INVALID_RECORD
   * naming the row's key); default: a process warning (`process.emitWarning`).
   */
  readonly onUnreadableRecord?: (error: StoreError) => void;
};

interface Row {
  record: string;
  state: string;
  outcome: string | null;
}

/**
 * A SuspensionStore in PostgreSQL through `pg` 8 (an optional peer dependency, loaded by `open`):
 * for fleets, where any instance may resume a call another one suspended. `take` is one
 * `UPDATE ... WHERE state = 'waiting' RETURNING` (a row lock, no table lock), so exactly one caller
 * across all instances takes a record (again only once its lease passed); `countCall` is one
 * upsert of two rows. After an upgrade, open with `migrate: true` (or run `migrate()`) once: it
 * adds the tables and columns this release reads.
 *
 * Errors (rejections): those of MemoryStore (ERR_STORE_INVALID_RECORD, ERR_STORE_INVALID_ARGUMENT,
 * ERR_STORE_NOT_TAKEN, ERR_STORE_CLOSED), and ERR_STORE_DRIVER when the database fails (the `pg`
 * error as `cause`); a stored row that is not a well-formed record is ERR_STORE_INVALID_RECORD.
 */
export class PostgresStore implements SuspensionStore {
  readonly #pool: Pg.Pool;
  readonly #ownsPool: boolean;
  readonly #now: () => number;
  #claims = 0;
  #closed = false;
  /** Set once close has drained the operations in flight: no query may start after it. */
  #ended = false;
  #closing: Promise<void> | undefined;
  /** The queries and connection requests in flight, which close waits for. */
  readonly #pending = new Set<Promise<unknown>>();

  readonly #unreadable: (error: StoreError) => void;

  private constructor(pool: Pg.Pool, ownsPool: boolean, now: () => number, unreadable: (error: StoreError) => void) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#now = now;
    this.#unreadable = unreadable;
  }

  /**
   * Opens the store on a Pool (yours, or one made from `connectionString`), creating its tables
   * when missing unless `migrate: false`; loads `pg`.
   * @throws StoreError ERR_STORE_DRIVER_MISSING when `pg` is not installed (`npm install pg@8`);
   *   ERR_STORE_DRIVER_LOAD when it fails to load; ERR_STORE_SCHEMA when the database holds tables
   *   of another schema version, or none with `migrate: false`; ERR_STORE_DRIVER when the database
   *   cannot be reached; ERR_STORE_INVALID_ARGUMENT when neither or both of pool and connectionString are given
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const given = options as { pool?: unknown; connectionString?: unknown; max?: number };
    if ((given.pool === undefined) === (given.connectionString === undefined)) {
      throw new StoreError(
        'ERR_STORE_INVALID_ARGUMENT',
        `${STORE}: open: give exactly one of pool (a pg Pool) and connectionString`,
      );
    }
    let pool: Pg.Pool;
    let owns = false;
    if (given.pool !== undefined) {
      pool = given.pool as Pg.Pool;
    } else {
      checkName(STORE, 'open', given.connectionString, 'connectionString', Infinity);
      const pg = loadDriver(STORE, { name: 'pg', install: 'pg@8' }, () => require('pg')) as typeof Pg;
      pool = new pg.Pool({ connectionString: given.connectionString as string, max: given.max ?? 10 });
      // An idle connection that drops emits 'error' on the pool; the next query reports it.
      pool.on('error', () => undefined);
      owns = true;
    }
    const store = new PostgresStore(pool, owns, options.now ?? Date.now, options.onUnreadableRecord ?? warnUnreadable);
    try {
      if (options.migrate !== false) await store.migrate();
      await store.#checkSchema();
      return store;
    } catch (err) {
      await store.close().catch(() => undefined);
      throw _driverError(STORE, 'open', err);
    }
  }

  /**
   * Creates the tables when missing and records the schema version (POSTGRES_SCHEMA_VERSION), in
   * one transaction under an advisory lock, so instances may migrate concurrently. Idempotent.
   * @throws StoreError ERR_STORE_SCHEMA when the database holds another schema version;
   *   ERR_STORE_DRIVER when the database fails; ERR_STORE_CLOSED after close
   */
  async migrate(): Promise<void> {
    if (this.#closed) throw _closedError(STORE, 'migrate');
    let client: Pg.PoolClient | undefined;
    try {
      client = await this.#track(this.#pool.connect());
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(SCHEMA);
      await client.query(`INSERT INTO scope_tool_meta (key, value) VALUES ('schema', $1) ON CONFLICT DO NOTHING`, [
        String(POSTGRES_SCHEMA_VERSION),
      ]);
      await client.query('COMMIT');
    } catch (err) {
      await client?.query('ROLLBACK').catch(() => undefined);
      throw _driverError(STORE, 'migrate', err);
    } finally {
      client?.release();
    }
    await this.#checkSchema();
  }

  async #checkSchema(): Promise<void> {
    const found = await this.#query('open', `SELECT to_regclass('scope_tool_meta') IS NOT NULL AS present`);
    const version = found.rows[0].present
      ? (await this.#query('open', `SELECT value FROM scope_tool_meta WHERE key = 'schema'`)).rows[0]?.value
      : undefined;
    if (version !== String(POSTGRES_SCHEMA_VERSION)) {
      throw new StoreError(
        'ERR_STORE_SCHEMA',
        version === undefined
          ? `${STORE}: open: the database has no scope-tool store tables; run migrate() or open with migrate: true`
          : `${STORE}: open: the database holds store schema version ${version}, this scope-tool reads ` +
              `version ${POSTGRES_SCHEMA_VERSION}; use the release that wrote it`,
      );
    }
  }

  /** Keeps `work` in #pending until it settles, so close waits for it. */
  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const done = () => this.#pending.delete(work);
    work.then(done, done);
    return work;
  }

  // An operation checks #closed when it starts; its later queries run until close has drained them.
  async #query(operation: string, text: string, values?: unknown[]): Promise<Pg.QueryResult> {
    if (this.#ended) throw _closedError(STORE, operation);
    try {
      return await this.#track(this.#pool.query(text, values));
    } catch (err) {
      throw _driverError(STORE, operation, err);
    }
  }

  async commit(record: SuspensionRecord): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'commit');
    const r = checkRecord(STORE, 'commit', record);
    const result = await this.#query(
      'commit',
      `INSERT INTO scope_tool_suspensions (thread_id, call_id, principal, created_at, expires_at, version, record, state)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting') ON CONFLICT DO NOTHING`,
      [r.threadId, r.callId, r.principal, r.createdAt, r.expiresAt, r.version, encodeRecord(r)],
    );
    return result.rowCount === 1;
  }

  async #select(operation: string, key: CallKey): Promise<Row | undefined> {
    const result = await this.#query(
      operation,
      `SELECT record, state, outcome FROM scope_tool_suspensions WHERE thread_id = $1 AND call_id = $2`,
      [key.threadId, key.callId],
    );
    return result.rows[0] as Row | undefined;
  }

  async get(
    key: CallKey,
  ): Promise<{ readonly record: SuspensionRecord; readonly outcome?: StoredOutcome } | undefined> {
    if (this.#closed) throw _closedError(STORE, 'get');
    const row = await this.#select('get', checkKey(STORE, 'get', key));
    if (row === undefined) return undefined;
    const record = decodeRecord(STORE, 'get', row.record);
    const outcome = decodeOutcome(STORE, 'get', row.outcome);
    return outcome === undefined ? { record } : { record, outcome };
  }

  async take(key: CallKey, now: number, leaseMs?: number): Promise<TakeResult> {
    if (this.#closed) throw _closedError(STORE, 'take');
    const k = checkKey(STORE, 'take', key);
    checkNow(STORE, 'take', now);
    const leaseUntil = now + checkLease(STORE, 'take', leaseMs);
    const claim = randomUUID();
    // One statement, a row lock: a waiting record (or one whose take's lease passed) is either
    // expired (recorded once) or taken here.
    const updated = await this.#query(
      'take',
      `UPDATE scope_tool_suspensions
          SET state = CASE WHEN expires_at < $3 THEN 'expired' ELSE 'taken' END,
              claim = CASE WHEN expires_at < $3 THEN NULL ELSE $4 END,
              lease_until = CASE WHEN expires_at < $3 THEN NULL ELSE $6::bigint END,
              outcome = CASE WHEN expires_at < $3 THEN $5 ELSE NULL END
        WHERE thread_id = $1 AND call_id = $2
          AND (state = 'waiting' OR (state = 'taken' AND (lease_until IS NULL OR lease_until < $3)))
        RETURNING state, record`,
      [k.threadId, k.callId, now, claim, JSON.stringify(EXPIRED_OUTCOME), leaseUntil],
    );
    const mine = updated.rows[0] as { state: string; record: string } | undefined;
    const row = mine === undefined ? await this.#select('take', k) : { ...mine, outcome: null };
    if (row === undefined) return { status: 'missing' };
    const record = decodeRecord(STORE, 'take', row.record);
    if (row.state === 'expired') return { status: 'expired', record };
    if (mine !== undefined) return { status: 'taken', record, claim };
    const outcome = decodeOutcome(STORE, 'take', row.outcome);
    return outcome === undefined ? { status: 'answered', record } : { status: 'answered', record, outcome };
  }

  async finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void> {
    if (this.#closed) throw _closedError(STORE, 'finish');
    const k = checkKey(STORE, 'finish', key);
    checkName(STORE, 'finish', claim, 'claim');
    const o = checkOutcome(STORE, 'finish', outcome);
    const result = await this.#query(
      'finish',
      `UPDATE scope_tool_suspensions SET state = 'finished', outcome = $4, lease_until = NULL
        WHERE thread_id = $1 AND call_id = $2 AND state = 'taken' AND claim = $3`,
      [k.threadId, k.callId, claim, JSON.stringify(o)],
    );
    if (result.rowCount === 1) return;
    const row = await this.#select('finish', k);
    throw notTaken(STORE, k, row === undefined ? 'missing' : row.state);
  }

  async release(key: CallKey, claim: string): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'release');
    const k = checkKey(STORE, 'release', key);
    checkName(STORE, 'release', claim, 'claim');
    const result = await this.#query(
      'release',
      `UPDATE scope_tool_suspensions SET state = 'waiting', claim = NULL, lease_until = NULL
        WHERE thread_id = $1 AND call_id = $2 AND state = 'taken' AND claim = $3`,
      [k.threadId, k.callId, claim],
    );
    return result.rowCount === 1;
  }

  async begin(call: RunningCall, now: number, leaseMs?: number): Promise<BeginResult> {
    if (this.#closed) throw _closedError(STORE, 'begin');
    const c = checkRunning(STORE, 'begin', call);
    checkNow(STORE, 'begin', now);
    const leaseUntil = now + checkLease(STORE, 'begin', leaseMs);
    // A row of state NULL is settled; 'running' a call begun. One upsert claims the key, or takes
    // over a running call whose lease passed; a row abandoned between it and the select: again.
    for (;;) {
      const claim = randomUUID();
      const begun = await this.#query(
        'begin',
        `INSERT INTO scope_tool_settled AS s (thread_id, call_id, entry, state, claim, lease_until)
         VALUES ($1, $2, $3, 'running', $4, $5)
         ON CONFLICT (thread_id, call_id) DO UPDATE SET entry = excluded.entry, claim = excluded.claim,
           lease_until = excluded.lease_until WHERE s.state = 'running' AND s.lease_until < $6`,
        [c.threadId, c.callId, JSON.stringify(c), claim, leaseUntil, now],
      );
      if (begun.rowCount === 1) return { status: 'begun', claim };
      const found = await this.#query(
        'begin',
        `SELECT entry, state FROM scope_tool_settled WHERE thread_id = $1 AND call_id = $2`,
        [c.threadId, c.callId],
      );
      const row = found.rows[0] as { entry: string; state: string | null } | undefined;
      if (row === undefined) continue;
      return row.state === null
        ? { status: 'settled', call: decodeSettled(STORE, 'begin', row.entry) }
        : { status: 'running', call: decodeRunning(STORE, 'begin', row.entry) };
    }
  }

  async abandon(key: CallKey, claim: string): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'abandon');
    const k = checkKey(STORE, 'abandon', key);
    checkName(STORE, 'abandon', claim, 'claim');
    const result = await this.#query(
      'abandon',
      `DELETE FROM scope_tool_settled WHERE thread_id = $1 AND call_id = $2 AND state = 'running' AND claim = $3`,
      [k.threadId, k.callId, claim],
    );
    return result.rowCount === 1;
  }

  async settle(call: SettledCall): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'settle');
    const c = checkSettled(STORE, 'settle', call);
    // A settled call replaces a running one (state 'running'), never another settled call.
    const result = await this.#query(
      'settle',
      `INSERT INTO scope_tool_settled AS s (thread_id, call_id, entry) VALUES ($1, $2, $3)
       ON CONFLICT (thread_id, call_id) DO UPDATE SET entry = excluded.entry, state = NULL, claim = NULL,
         lease_until = NULL WHERE s.state = 'running'`,
      [c.threadId, c.callId, encodeSettled(c)],
    );
    return result.rowCount === 1;
  }

  async getSettled(key: CallKey): Promise<SettledCall | undefined> {
    if (this.#closed) throw _closedError(STORE, 'getSettled');
    const k = checkKey(STORE, 'getSettled', key);
    const result = await this.#query(
      'getSettled',
      `SELECT entry FROM scope_tool_settled WHERE thread_id = $1 AND call_id = $2 AND state IS NULL`,
      [k.threadId, k.callId],
    );
    const row = result.rows[0] as { entry: string } | undefined;
    return row === undefined ? undefined : decodeSettled(STORE, 'getSettled', row.entry);
  }

  async countCall(threadId: string, tool: string, options?: CountOptions): Promise<CallCounts> {
    if (this.#closed) throw _closedError(STORE, 'countCall');
    checkName(STORE, 'countCall', threadId, 'threadId');
    checkName(STORE, 'countCall', tool, 'tool');
    const o = checkCountOptions(STORE, 'countCall', options);
    if (o.callId !== undefined || o.perTool !== undefined || o.total !== undefined) {
      return this.#countLimited(threadId, tool, o);
    }
    // One statement; rows always locked in the same order (total, then tool), so no deadlock.
    const result = await this.#query(
      'countCall',
      `INSERT INTO scope_tool_call_counts AS c (thread_id, tool, count) VALUES ($1, '', 1), ($1, $2, 1)
       ON CONFLICT (thread_id, tool) DO UPDATE SET count = c.count + 1 RETURNING tool, count`,
      [threadId, tool],
    );
    const counts = { tool: 0, total: 0, counted: true };
    for (const row of result.rows as { tool: string; count: string }[]) {
      if (row.tool === '') counts.total = Number(row.count);
      else counts.tool = Number(row.count);
    }
    return counts;
  }

  /**
   * countCall with a call id or limits: one transaction that first locks the thread's total row,
   * so the limited counts of a thread run one at a time (and the unlimited upsert locks the same
   * row first: no deadlock).
   */
  async #countLimited(threadId: string, tool: string, o: CountOptions): Promise<CallCounts> {
    let client: Pg.PoolClient | undefined;
    try {
      if (this.#ended) throw _closedError(STORE, 'countCall');
      client = await this.#track(this.#pool.connect());
      const c = client;
      const run = (text: string, values: unknown[] = []) => this.#track(c.query(text, values));
      await run('BEGIN');
      await run(
        `INSERT INTO scope_tool_call_counts (thread_id, tool, count) VALUES ($1, '', 0) ON CONFLICT DO NOTHING`,
        [threadId],
      );
      const locked = await run(
        `SELECT count FROM scope_tool_call_counts WHERE thread_id = $1 AND tool = '' FOR UPDATE`,
        [threadId],
      );
      const total = Number(locked.rows[0].count);
      const own = await run(`SELECT count FROM scope_tool_call_counts WHERE thread_id = $1 AND tool = $2`, [
        threadId,
        tool,
      ]);
      const count = Number(own.rows[0]?.count ?? 0);
      const seen =
        o.callId !== undefined &&
        (await run(`SELECT 1 FROM scope_tool_counted WHERE thread_id = $1 AND call_id = $2`, [threadId, o.callId]))
          .rowCount === 1;
      let counts: CallCounts = { tool: count, total, counted: seen };
      if (!seen && underLimits(o, count, total)) {
        await run(`UPDATE scope_tool_call_counts SET count = count + 1 WHERE thread_id = $1 AND tool = ''`, [threadId]);
        await run(
          `INSERT INTO scope_tool_call_counts AS c (thread_id, tool, count) VALUES ($1, $2, 1)
           ON CONFLICT (thread_id, tool) DO UPDATE SET count = c.count + 1`,
          [threadId, tool],
        );
        if (o.callId !== undefined) {
          await run(`INSERT INTO scope_tool_counted (thread_id, call_id) VALUES ($1, $2)`, [threadId, o.callId]);
        }
        counts = { tool: count + 1, total: total + 1, counted: true };
      }
      await run('COMMIT');
      return counts;
    } catch (err) {
      await client?.query('ROLLBACK').catch(() => undefined);
      throw _driverError(STORE, 'countCall', err);
    } finally {
      client?.release();
    }
  }

  async list(filter: ListFilter, now: number): Promise<SuspensionRecord[]> {
    if (this.#closed) throw _closedError(STORE, 'list');
    const f = checkFilter(STORE, 'list', filter);
    checkNow(STORE, 'list', now);
    const column = f.by === 'threadId' ? 'thread_id' : 'principal';
    const result = await this.#query(
      'list',
      // Two branches, so each uses its partial index: waiting records, and takes whose lease passed.
      // A take without lease_until (written before leases existed) counts as one whose lease passed.
      `SELECT thread_id, call_id, record, created_at, seq FROM scope_tool_suspensions
        WHERE ${column} = $1 AND state = 'waiting' AND expires_at >= $2
       UNION ALL
       SELECT thread_id, call_id, record, created_at, seq FROM scope_tool_suspensions
        WHERE ${column} = $1 AND state = 'taken' AND (lease_until IS NULL OR lease_until < $2) AND expires_at >= $2
       ORDER BY created_at, seq`,
      [f.value, now],
    );
    return listedRecords(STORE, result.rows as ListedRow[], this.#unreadable);
  }

  async claim(tokenId: string, expiresAt: number): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'claim');
    checkName(STORE, 'claim', tokenId, 'tokenId');
    checkNow(STORE, 'claim', expiresAt, 'expiresAt');
    // Forget expired claims now and then (a claim may be forgotten once expired).
    if (++this.#claims % 256 === 0) {
      await this.#query('claim', `DELETE FROM scope_tool_claims WHERE expires_at < $1`, [this.#now()]);
    }
    const result = await this.#query(
      'claim',
      `INSERT INTO scope_tool_claims (token_id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [tokenId, expiresAt],
    );
    return result.rowCount === 1;
  }

  /**
   * Closes the store: every operation started after it rejects with ERR_STORE_CLOSED; it resolves
   * once the operations in flight have settled (each as it would have), then ends the store's Pool
   * when it made it from a connection string (a Pool you gave stays open). Every call resolves
   * together. (Ending a pool first would drop the queries waiting for a connection, which then
   * never settle: node-postgres issue #1980.)
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#end();
    return this.#closing;
  }

  async #end(): Promise<void> {
    while (this.#pending.size > 0) {
      await Promise.allSettled([...this.#pending]);
      // Let an operation whose query just settled start its next one (a take reads after it updates).
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#ended = true;
    if (!this.#ownsPool) return;
    try {
      await this.#pool.end();
    } catch (err) {
      throw _driverError(STORE, 'close', err);
    }
  }
}
