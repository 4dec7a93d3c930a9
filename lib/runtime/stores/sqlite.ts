import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
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

const STORE = 'SqliteStore';

/** The version of the tables below; a database of another version is refused (ERR_STORE_SCHEMA). */
export const SQLITE_SCHEMA_VERSION = 1;

// One row per suspended call; `record` is the record's JSON text, the other columns index it;
// `lease_until` is when a take's lease passes (state 'taken'). Settled calls (`settle`): one row
// each, `entry` its JSON text. Counts: the row of tool '' is the thread's total (tool names are
// never empty). Tables and columns are only ever added (ADDED_COLUMNS): no version bump.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS scope_tool_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS scope_tool_suspensions (
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  principal TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  version INTEGER NOT NULL,
  record TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'taken', 'finished', 'expired')),
  claim TEXT,
  outcome TEXT,
  lease_until INTEGER,
  PRIMARY KEY (thread_id, call_id)
);
CREATE INDEX IF NOT EXISTS scope_tool_suspensions_thread ON scope_tool_suspensions (thread_id, state, created_at);
CREATE INDEX IF NOT EXISTS scope_tool_suspensions_principal ON scope_tool_suspensions (principal, state, created_at);
CREATE TABLE IF NOT EXISTS scope_tool_call_counts (
  thread_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (thread_id, tool)
);
CREATE TABLE IF NOT EXISTS scope_tool_claims (token_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS scope_tool_counted (
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  PRIMARY KEY (thread_id, call_id)
);
CREATE TABLE IF NOT EXISTS scope_tool_settled (
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  entry TEXT NOT NULL,
  state TEXT,
  claim TEXT,
  lease_until INTEGER,
  PRIMARY KEY (thread_id, call_id)
);
`;

// Columns added to tables of schema version 1 since it was first written: added at open when missing.
// A settled-calls row of state 'running' is a call begun (`begin`) and not settled yet; NULL: settled.
const ADDED_COLUMNS = [
  { table: 'scope_tool_suspensions', column: 'lease_until', type: 'INTEGER' },
  { table: 'scope_tool_settled', column: 'state', type: 'TEXT' },
  { table: 'scope_tool_settled', column: 'claim', type: 'TEXT' },
  { table: 'scope_tool_settled', column: 'lease_until', type: 'INTEGER' },
] as const;

/** Options of SqliteStore.open. */
export interface SqliteStoreOptions {
  /** How long a write waits for another connection's lock before it fails, in ms (default 5,000). */
  readonly busyTimeoutMs?: number;
  /** The clock used to forget expired token claims, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Told of each row `list` leaves out because it is not a readable record (ERR_STORE_INVALID_RECORD
   * naming the row's key); default: a process warning (`process.emitWarning`).
   */
  readonly onUnreadableRecord?: (error: StoreError) => void;
}

interface Row {
  record: string;
  state: string;
  outcome: string | null;
}

/**
 * A SuspensionStore in one SQLite file through better-sqlite3 12 (an optional peer dependency,
 * loaded by `open`): the embedded default, no server. The file is in WAL mode with
 * `synchronous = FULL`, so a resolved `commit` survives a crash of the process; several processes
 * and stores may open the same file. `take` is one `UPDATE ... WHERE state = 'waiting' RETURNING`,
 * so exactly one caller across all connections takes a record (again only once its lease passed).
 *
 * Errors (rejections): those of MemoryStore (ERR_STORE_INVALID_RECORD, ERR_STORE_INVALID_ARGUMENT,
 * ERR_STORE_NOT_TAKEN, ERR_STORE_CLOSED), and ERR_STORE_DRIVER when SQLite fails (the driver's error
 * as `cause`); a stored row that is not a well-formed record is ERR_STORE_INVALID_RECORD.
 */
export class SqliteStore implements SuspensionStore {
  readonly #db: BetterSqlite3.Database;
  readonly #now: () => number;
  readonly #statements: ReturnType<typeof prepare>;
  readonly #countCall: BetterSqlite3.Transaction<(threadId: string, tool: string, o: CountOptions) => CallCounts>;
  readonly #begin: BetterSqlite3.Transaction<(call: RunningCall, now: number, leaseUntil: number) => BeginResult>;
  #claims = 0;
  #closed = false;
  readonly #unreadable: (error: StoreError) => void;

  private constructor(db: BetterSqlite3.Database, now: () => number, unreadable: (error: StoreError) => void) {
    this.#db = db;
    this.#now = now;
    this.#unreadable = unreadable;
    this.#statements = prepare(db);
    const s = this.#statements;
    // One immediate transaction: a call id counted before, or a count over a limit, changes nothing.
    this.#countCall = db.transaction((threadId: string, tool: string, o: CountOptions) => {
      const read = (name: string) => (s.countRead.get(threadId, name) as { count: number } | undefined)?.count ?? 0;
      const seen = o.callId !== undefined && s.countedGet.get(threadId, o.callId) !== undefined;
      if (seen || !underLimits(o, read(tool), read(''))) return { tool: read(tool), total: read(''), counted: seen };
      const total = (s.count.get(threadId, '') as { count: number }).count;
      const count = (s.count.get(threadId, tool) as { count: number }).count;
      if (o.callId !== undefined) s.countedAdd.run(threadId, o.callId);
      return { tool: count, total, counted: true };
    });
    this.#begin = db.transaction((call: RunningCall, now: number, leaseUntil: number): BeginResult => {
      const row = s.selectSettled.get(call.threadId, call.callId) as
        { entry: string; state: string | null; lease_until: number | null } | undefined;
      if (row !== undefined && row.state === null) {
        return { status: 'settled', call: decodeSettled(STORE, 'begin', row.entry) };
      }
      if (row !== undefined && row.lease_until !== null && now <= row.lease_until) {
        return { status: 'running', call: decodeRunning(STORE, 'begin', row.entry) };
      }
      const claim = randomUUID();
      s.begin.run(call.threadId, call.callId, JSON.stringify(call), claim, leaseUntil);
      return { status: 'begun', claim };
    });
  }

  /**
   * Opens (and creates when needed) the store in the SQLite file `file`; loads better-sqlite3.
   * @param file - the database file path (created with its tables when missing)
   * @throws StoreError ERR_STORE_DRIVER_MISSING when better-sqlite3 is not installed
   *   (`npm install better-sqlite3@12`); ERR_STORE_DRIVER_LOAD when it fails to load;
   *   ERR_STORE_SCHEMA when the file holds tables of another schema version;
   *   ERR_STORE_DRIVER when the file cannot be opened; ERR_STORE_INVALID_ARGUMENT for an empty path
   */
  static async open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    checkName(STORE, 'open', file, 'file', Infinity);
    const Database = loadDriver(STORE, { name: 'better-sqlite3', install: 'better-sqlite3@12' }, () =>
      require('better-sqlite3'),
    ) as typeof BetterSqlite3;
    let db: BetterSqlite3.Database | undefined;
    try {
      db = new Database(file, { timeout: options.busyTimeoutMs ?? 5_000 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      const database = db;
      database
        .transaction(() => {
          database.exec(SCHEMA);
          for (const { table, column, type } of ADDED_COLUMNS) {
            const columns = database.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
            if (!columns.some((c) => c.name === column)) {
              database.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
            }
          }
          database
            .prepare(`INSERT OR IGNORE INTO scope_tool_meta (key, value) VALUES ('schema', ?)`)
            .run(String(SQLITE_SCHEMA_VERSION));
          const found = (
            database.prepare(`SELECT value FROM scope_tool_meta WHERE key = 'schema'`).get() as {
              value: string;
            }
          ).value;
          if (found !== String(SQLITE_SCHEMA_VERSION)) {
            throw new StoreError(
              'ERR_STORE_SCHEMA',
              `${STORE}: open ${JSON.stringify(file)}: the file holds store schema version ${found}, this ` +
                `scope-tool reads version ${SQLITE_SCHEMA_VERSION}; open it with the release that wrote it`,
            );
          }
        })
        .immediate();
      return new SqliteStore(db, options.now ?? Date.now, options.onUnreadableRecord ?? warnUnreadable);
    } catch (err) {
      db?.close();
      throw _driverError(STORE, `open ${JSON.stringify(file)}`, err);
    }
  }

  #run<T>(operation: string, body: () => T): T {
    if (this.#closed) throw _closedError(STORE, operation);
    try {
      return body();
    } catch (err) {
      throw _driverError(STORE, operation, err);
    }
  }

  async commit(record: SuspensionRecord): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'commit');
    const r = checkRecord(STORE, 'commit', record);
    return this.#run(
      'commit',
      () =>
        this.#statements.insert.run(
          r.threadId,
          r.callId,
          r.principal,
          r.createdAt,
          r.expiresAt,
          r.version,
          encodeRecord(r),
        ).changes === 1,
    );
  }

  async get(
    key: CallKey,
  ): Promise<{ readonly record: SuspensionRecord; readonly outcome?: StoredOutcome } | undefined> {
    if (this.#closed) throw _closedError(STORE, 'get');
    const k = checkKey(STORE, 'get', key);
    const row = this.#run('get', () => this.#statements.select.get(k.threadId, k.callId) as Row | undefined);
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
    const s = this.#statements;
    const row = this.#run('take', () => {
      const updated = s.take.get({ now, claim, leaseUntil, expired: JSON.stringify(EXPIRED_OUTCOME), ...k }) as
        { state: string; record: string } | undefined;
      if (updated !== undefined) return { ...updated, outcome: null, mine: true };
      const current = s.select.get(k.threadId, k.callId) as Row | undefined;
      return current === undefined ? undefined : { ...current, mine: false };
    });
    if (row === undefined) return { status: 'missing' };
    const record = decodeRecord(STORE, 'take', row.record);
    if (row.state === 'expired') return { status: 'expired', record };
    if (row.mine) return { status: 'taken', record, claim };
    const outcome = decodeOutcome(STORE, 'take', row.outcome);
    return outcome === undefined ? { status: 'answered', record } : { status: 'answered', record, outcome };
  }

  async finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void> {
    if (this.#closed) throw _closedError(STORE, 'finish');
    const k = checkKey(STORE, 'finish', key);
    checkName(STORE, 'finish', claim, 'claim');
    const o = checkOutcome(STORE, 'finish', outcome);
    const state = this.#run('finish', () => {
      if (this.#statements.finish.run(JSON.stringify(o), k.threadId, k.callId, claim).changes === 1) return undefined;
      const row = this.#statements.select.get(k.threadId, k.callId) as Row | undefined;
      return row === undefined ? 'missing' : row.state;
    });
    if (state !== undefined) throw notTaken(STORE, k, state);
  }

  async release(key: CallKey, claim: string): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'release');
    const k = checkKey(STORE, 'release', key);
    checkName(STORE, 'release', claim, 'claim');
    return this.#run('release', () => this.#statements.release.run(k.threadId, k.callId, claim).changes === 1);
  }

  async begin(call: RunningCall, now: number, leaseMs?: number): Promise<BeginResult> {
    if (this.#closed) throw _closedError(STORE, 'begin');
    const c = checkRunning(STORE, 'begin', call);
    checkNow(STORE, 'begin', now);
    const leaseUntil = now + checkLease(STORE, 'begin', leaseMs);
    return this.#run('begin', () => this.#begin.immediate(c, now, leaseUntil));
  }

  async abandon(key: CallKey, claim: string): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'abandon');
    const k = checkKey(STORE, 'abandon', key);
    checkName(STORE, 'abandon', claim, 'claim');
    return this.#run('abandon', () => this.#statements.abandon.run(k.threadId, k.callId, claim).changes === 1);
  }

  async settle(call: SettledCall): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'settle');
    const c = checkSettled(STORE, 'settle', call);
    return this.#run('settle', () => this.#statements.settle.run(c.threadId, c.callId, encodeSettled(c)).changes === 1);
  }

  async getSettled(key: CallKey): Promise<SettledCall | undefined> {
    if (this.#closed) throw _closedError(STORE, 'getSettled');
    const k = checkKey(STORE, 'getSettled', key);
    const row = this.#run(
      'getSettled',
      () => this.#statements.getSettled.get(k.threadId, k.callId) as { entry: string } | undefined,
    );
    return row === undefined ? undefined : decodeSettled(STORE, 'getSettled', row.entry);
  }

  async countCall(threadId: string, tool: string, options?: CountOptions): Promise<CallCounts> {
    if (this.#closed) throw _closedError(STORE, 'countCall');
    checkName(STORE, 'countCall', threadId, 'threadId');
    checkName(STORE, 'countCall', tool, 'tool');
    const o = checkCountOptions(STORE, 'countCall', options);
    return this.#run('countCall', () => this.#countCall.immediate(threadId, tool, o));
  }

  async list(filter: ListFilter, now: number): Promise<SuspensionRecord[]> {
    if (this.#closed) throw _closedError(STORE, 'list');
    const f = checkFilter(STORE, 'list', filter);
    checkNow(STORE, 'list', now);
    const statement = f.by === 'threadId' ? this.#statements.listThread : this.#statements.listPrincipal;
    const rows = this.#run('list', () => statement.all({ value: f.value, now }) as ListedRow[]);
    return listedRecords(STORE, rows, this.#unreadable);
  }

  async claim(tokenId: string, expiresAt: number): Promise<boolean> {
    if (this.#closed) throw _closedError(STORE, 'claim');
    checkName(STORE, 'claim', tokenId, 'tokenId');
    checkNow(STORE, 'claim', expiresAt, 'expiresAt');
    return this.#run('claim', () => {
      // Forget expired claims now and then (a claim may be forgotten once expired).
      if (++this.#claims % 256 === 0) this.#statements.sweep.run(this.#now());
      return this.#statements.claim.run(tokenId, expiresAt).changes === 1;
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#db.close();
    } catch (err) {
      throw _driverError(STORE, 'close', err);
    }
  }
}

function prepare(db: BetterSqlite3.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO scope_tool_suspensions (thread_id, call_id, principal, created_at, expires_at, version, record, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting') ON CONFLICT DO NOTHING`,
    ),
    select: db.prepare(`SELECT record, state, outcome FROM scope_tool_suspensions WHERE thread_id = ? AND call_id = ?`),
    // One statement: a waiting record (or one whose take's lease passed) is either expired
    // (recorded once) or taken by this caller.
    take: db.prepare(
      `UPDATE scope_tool_suspensions
          SET state = CASE WHEN expires_at < @now THEN 'expired' ELSE 'taken' END,
              claim = CASE WHEN expires_at < @now THEN NULL ELSE @claim END,
              lease_until = CASE WHEN expires_at < @now THEN NULL ELSE @leaseUntil END,
              outcome = CASE WHEN expires_at < @now THEN @expired ELSE NULL END
        WHERE thread_id = @threadId AND call_id = @callId
          AND (state = 'waiting' OR (state = 'taken' AND (lease_until IS NULL OR lease_until < @now)))
        RETURNING state, record`,
    ),
    finish: db.prepare(
      `UPDATE scope_tool_suspensions SET state = 'finished', outcome = ?, lease_until = NULL
        WHERE thread_id = ? AND call_id = ? AND state = 'taken' AND claim = ?`,
    ),
    release: db.prepare(
      `UPDATE scope_tool_suspensions SET state = 'waiting', claim = NULL, lease_until = NULL
        WHERE thread_id = ? AND call_id = ? AND state = 'taken' AND claim = ?`,
    ),
    // A settled call replaces a running one (state 'running'), never another settled call.
    settle: db.prepare(
      `INSERT INTO scope_tool_settled (thread_id, call_id, entry) VALUES (?, ?, ?)
       ON CONFLICT (thread_id, call_id) DO UPDATE SET entry = excluded.entry, state = NULL, claim = NULL,
         lease_until = NULL WHERE scope_tool_settled.state = 'running'`,
    ),
    getSettled: db.prepare(
      `SELECT entry FROM scope_tool_settled WHERE thread_id = ? AND call_id = ? AND state IS NULL`,
    ),
    selectSettled: db.prepare(
      `SELECT entry, state, lease_until FROM scope_tool_settled WHERE thread_id = ? AND call_id = ?`,
    ),
    begin: db.prepare(
      `INSERT INTO scope_tool_settled (thread_id, call_id, entry, state, claim, lease_until)
       VALUES (?, ?, ?, 'running', ?, ?)
       ON CONFLICT (thread_id, call_id) DO UPDATE SET entry = excluded.entry, state = 'running',
         claim = excluded.claim, lease_until = excluded.lease_until`,
    ),
    abandon: db.prepare(
      `DELETE FROM scope_tool_settled WHERE thread_id = ? AND call_id = ? AND state = 'running' AND claim = ?`,
    ),
    count: db.prepare(
      `INSERT INTO scope_tool_call_counts (thread_id, tool, count) VALUES (?, ?, 1)
       ON CONFLICT (thread_id, tool) DO UPDATE SET count = count + 1 RETURNING count`,
    ),
    // A take without lease_until (written before leases existed) counts as one whose lease passed.
    listThread: db.prepare(
      `SELECT thread_id, call_id, record FROM scope_tool_suspensions WHERE thread_id = @value AND expires_at >= @now
          AND (state = 'waiting' OR (state = 'taken' AND (lease_until IS NULL OR lease_until < @now)))
        ORDER BY created_at, rowid`,
    ),
    listPrincipal: db.prepare(
      `SELECT thread_id, call_id, record FROM scope_tool_suspensions WHERE principal = @value AND expires_at >= @now
          AND (state = 'waiting' OR (state = 'taken' AND (lease_until IS NULL OR lease_until < @now)))
        ORDER BY created_at, rowid`,
    ),
    countRead: db.prepare(`SELECT count FROM scope_tool_call_counts WHERE thread_id = ? AND tool = ?`),
    countedGet: db.prepare(`SELECT 1 AS one FROM scope_tool_counted WHERE thread_id = ? AND call_id = ?`),
    countedAdd: db.prepare(`INSERT INTO scope_tool_counted (thread_id, call_id) VALUES (?, ?)`),
    claim: db.prepare(`INSERT INTO scope_tool_claims (token_id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING`),
    sweep: db.prepare(`DELETE FROM scope_tool_claims WHERE expires_at < ?`),
  };
}
