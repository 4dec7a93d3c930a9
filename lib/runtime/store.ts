/**
 * The suspension store contract: where the runtime commits a suspended tool call before it announces
 * it, and where an answer takes that call back exactly once. Every store (memory, SQLite, PostgreSQL)
 * implements this interface and passes the one shared contract suite (spec/runtime/store-contract.ts).
 *
 * A record is plain JSON (no closures, no class instances): a workflow engine may carry it as is.
 * Times are ms since the epoch. A call is identified by its thread id and its provider call id
 * (providers reuse call ids across conversations, never within one).
 *
 * The stores: MemoryStore, SqliteStore (better-sqlite3), PostgresStore (pg) in lib/runtime/stores/.
 * Every store checks records, keys and outcomes alike (lib/runtime/stores/record.ts) and rejects
 * with a StoreError (lib/runtime/stores/errors.ts) whose `code` is one of:
 * ERR_STORE_INVALID_RECORD (a record not well-formed or not of SUSPENSION_RECORD_VERSION; the
 * message names the field), ERR_STORE_INVALID_ARGUMENT (a malformed key, outcome, filter, instant
 * or token id), ERR_STORE_ID_TOO_LONG (a key string over MAX_ID_BYTES), ERR_STORE_NOT_TAKEN
 * (`finish` without owning the record), ERR_STORE_CLOSED, ERR_STORE_DRIVER (the database failed;
 * its error is the `cause`), and at open ERR_STORE_DRIVER_MISSING, ERR_STORE_DRIVER_LOAD,
 * ERR_STORE_SCHEMA.
 * Key strings (thread, call, principal, tool, token ids) may not hold U+0000 or lone surrogates:
 * no database keeps them unchanged.
 */

/**
 * The most bytes (UTF-8) of an id a store keeps: a thread id, a principal, a tool name, a token
 * id, and a provider call id. A record's `callId` may be 4 bytes longer (`<call id>#<round>`, round
 * ≤ 100, or `<call id>#1`: identity.ts roundKey). Longer ids are refused alike by every store with
 * ERR_STORE_ID_TOO_LONG (and by the Runtime with RuntimeError ERR_ID_TOO_LONG): PostgreSQL cannot
 * index a key much over 2,700 bytes, and a thread id and a call id share one index entry.
 */
export const MAX_ID_BYTES = 1024;

/**
 * How long a `take` owns a record when the taker passes no lease: 600,000 ms (10 min). The Runtime
 * passes its own `leaseMs`.
 */
export const DEFAULT_LEASE_MS = 600_000;

/** The version of the record format below. A store refuses a record of any other version. */
export const SUSPENSION_RECORD_VERSION = 1;

/** One suspended tool call, as committed before the suspension is announced. */
export interface SuspensionRecord {
  /** Always SUSPENSION_RECORD_VERSION. */
  readonly version: typeof SUSPENSION_RECORD_VERSION;
  /** The caller-chosen conversation id the call belongs to (non-empty). */
  readonly threadId: string;
  /** The provider's call id (OpenAI `call_...`, Anthropic `toolu_...`), non-empty. */
  readonly callId: string;
  /** The tool name. */
  readonly tool: string;
  /**
   * The contract the call was admitted by: `sha256:` + hex over the canonical JSON of the tool's
   * Definition. A resume under a different contract is refused.
   */
  readonly contractFingerprint: string;
  /** The normalized arguments JSON text the call ran with (`Invocation.normalizedArguments`). */
  readonly arguments: string;
  /**
   * `sha256:` + hex over the RFC 8785 canonical JSON of `arguments` (identity.ts argumentsDigest;
   * over the text itself when it is not JSON, and in records of earlier releases).
   */
  readonly argumentsDigest: string;
  /** Who called, as the runtime authenticated them; `''` for anonymous calls. */
  readonly principal: string;
  /** The InputRequest wire JSON text (`{"prompt","response_schema","continuation_state"}`). */
  readonly inputRequest: string;
  /** A deterministic key the tool may pass to its own side effects (same call, same key). */
  readonly idempotencyKey: string;
  /** When the record was committed, ms since the epoch. */
  readonly createdAt: number;
  /** After this instant (ms since the epoch) the call can no longer be resumed. */
  readonly expiresAt: number;
}

/**
 * What a resumed (or expired) call ended with, provider-neutral, as JSON. `output` is the Output
 * wire JSON text (`Output.toJSON`); `inputRequest` the InputRequest wire JSON text when the resumed
 * call suspended again; `message` the model-facing text of a refusal or error.
 */
export interface StoredOutcome {
  readonly kind: 'completed' | 'suspended' | 'refused' | 'rejected' | 'failed' | 'expired' | 'error';
  readonly output?: string;
  readonly inputRequest?: string;
  readonly message?: string;
}

/**
 * A call of a turn that settled without suspending (`completed`, `refused`, `rejected`, `failed`),
 * as the runtime stores it with `settle`, so a replayed turn returns this outcome instead of running
 * the tool again. Plain JSON, like a record; not versioned apart (its members only grow).
 */
export interface SettledCall {
  /** The caller-chosen conversation id (non-empty). */
  readonly threadId: string;
  /** The provider's call id (non-empty). */
  readonly callId: string;
  /** The tool name the call proposed (for a refused call: as the model wrote it). */
  readonly tool: string;
  /**
   * The digest of the call's normalized arguments (identity.ts argumentsDigest: over their canonical
   * JSON); for a call that admission refused, of the arguments text as proposed.
   */
  readonly argumentsDigest: string;
  /** Who called (`''` when anonymous). */
  readonly principal: string;
  /** What the call ended with (any kind but `suspended` and `expired`). */
  readonly outcome: StoredOutcome;
  /** When it settled, ms since the epoch. */
  readonly createdAt: number;
}

/**
 * A call of a turn that one caller has begun to run (`begin`), stored under its key with a lease
 * until it settles (`settle`), or is given up (`abandon`: it ended `error`, over budget, or
 * suspended). Plain JSON; the fields are those of SettledCall without outcome and time.
 */
export interface RunningCall {
  readonly threadId: string;
  readonly callId: string;
  /** The tool name the call proposed. */
  readonly tool: string;
  /** As SettledCall.argumentsDigest. */
  readonly argumentsDigest: string;
  /** Who called (`''` when anonymous). */
  readonly principal: string;
}

/**
 * The result of `begin`:
 * - `begun`: this caller runs the call under `claim` (the key had nothing, or a running call whose
 *   lease passed: its caller crashed); it must `settle` or `abandon` it;
 * - `running`: another caller runs it and its lease runs: `call` is what that caller began;
 * - `settled`: the call settled: `call` is its SettledCall.
 */
export type BeginResult =
  | { readonly status: 'begun'; readonly claim: string }
  | { readonly status: 'running'; readonly call: RunningCall }
  | { readonly status: 'settled'; readonly call: SettledCall };

/**
 * Options of `countCall`: the call id (counted once per thread, ever) and the limits (whole
 * numbers ≥ 1) under which alone the count is made.
 */
export interface CountOptions {
  readonly callId?: string;
  readonly perTool?: number;
  readonly total?: number;
}

/** The counts `countCall` resolves, and whether this call is counted (within the limits). */
export interface CallCounts {
  readonly tool: number;
  readonly total: number;
  readonly counted: boolean;
}

/** The key of one call. */
export interface CallKey {
  readonly threadId: string;
  readonly callId: string;
}

/**
 * The result of `take`:
 * - `taken`: this caller now owns the resume (exactly one caller at a time gets it per record) for
 *   its lease; it must later `finish` with the same `claim`;
 * - `answered`: another caller took it first (and its lease runs), or finished it: `outcome` is set
 *   once that caller finished;
 * - `expired`: `expiresAt` had passed; the store recorded the `expired` outcome (once) and nobody
 *   may resume it;
 * - `missing`: no record under this key.
 */
export type TakeResult =
  | { readonly status: 'taken'; readonly record: SuspensionRecord; readonly claim: string }
  | { readonly status: 'answered'; readonly record: SuspensionRecord; readonly outcome?: StoredOutcome }
  | { readonly status: 'expired'; readonly record: SuspensionRecord }
  | { readonly status: 'missing' };

/** A filter for `list`: every waiting record of one thread, or of one principal. */
export type ListFilter = { readonly threadId: string } | { readonly principal: string };

/**
 * The store contract. Errors of the driver (connection lost, disk full) reject with an Error that
 * names the store and the operation, the driver's error as its `cause`; they never resolve as a
 * status.
 */
export interface SuspensionStore {
  /**
   * Writes the record durably before resolving. Committing the same key twice resolves `false`
   * (and keeps the first record), so a turn replayed after a crash re-announces the committed
   * suspension instead of running the tool again; a first commit resolves `true`.
   */
  commit(record: SuspensionRecord): Promise<boolean>;
  /** The record under `key`, waiting or not, and its outcome when it has one. */
  get(key: CallKey): Promise<{ readonly record: SuspensionRecord; readonly outcome?: StoredOutcome } | undefined>;
  /**
   * Atomically claims the record for resumption at instant `now` (ms since the epoch), for a lease
   * of `leaseMs` ms (a whole number ≥ 1; default DEFAULT_LEASE_MS). The record is expired when
   * `now > expiresAt` (at `expiresAt` itself it may still be taken); once recorded expired it stays
   * expired whatever `now` a later take passes. A record taken and not finished by `now + leaseMs`
   * (its taker crashed) counts as waiting again once `now` is past the lease: a later take takes
   * it under a new claim (or records it expired), and the first claim can no longer finish.
   */
  take(key: CallKey, now: number, leaseMs?: number): Promise<TakeResult>;
  /**
   * Stores the outcome of a taken record; `claim` must be the one `take` returned. Rejects with
   * ERR_STORE_NOT_TAKEN when the record is missing, waiting, expired, already finished, or taken
   * under another claim (so an outcome is stored once). A claim whose lease passed may still
   * finish as long as no other take took the record.
   */
  finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void>;
  /**
   * Counts one more call of `tool` in `threadId`, atomically, and resolves the counts after it: of
   * that tool and of every tool in the thread (`counted: true`). The runtime's per-thread budgets
   * pass `options` (CountOptions): a call id counted before in the thread is not counted again
   * (`counted: true`, counts unchanged), and a count that would pass `perTool` or `total` is not
   * made (`counted: false`, counts unchanged), all in one atomic step.
   */
  countCall(threadId: string, tool: string, options?: CountOptions): Promise<CallCounts>;
  /**
   * Gives a taken record back: with the `claim` `take` returned, the record is waiting again at
   * once (a resume that ended `error`: nothing is stored, the call may be answered again). `true`
   * when released; `false` when the record is not taken under this claim (it was finished, or
   * taken again after the lease passed).
   */
  release(key: CallKey, claim: string): Promise<boolean>;
  /**
   * Claims the run of a turn's call atomically, at instant `now`, for a lease of `leaseMs` ms
   * (default DEFAULT_LEASE_MS): inserts a running call under its key unless the key has one (see
   * BeginResult). A running call whose lease passed (`now` past it) is begun again under a new
   * claim. Of many concurrent `begin`s of one key, exactly one is `begun`.
   */
  begin(call: RunningCall, now: number, leaseMs?: number): Promise<BeginResult>;
  /**
   * Removes the running call of `begin` with its `claim`, so the next `begin` runs the call
   * (`true`); `false` when the key has no running call under this claim.
   */
  abandon(key: CallKey, claim: string): Promise<boolean>;
  /**
   * Stores the outcome of a call that settled in its turn, under its key, unless that key has one:
   * `true` the first time, `false` (keeping the first) ever after. It replaces a running call of
   * `begin` under the key. Independent of the records of `commit` (the runtime looks in both).
   */
  settle(call: SettledCall): Promise<boolean>;
  /** The settled call stored under `key` by `settle`, if any (a running call is not settled). */
  getSettled(key: CallKey): Promise<SettledCall | undefined>;
  /**
   * The records still waiting (not taken, or taken with a lease that passed before `now`, or
   * without a lease; and `now <= expiresAt`), oldest first (by `createdAt`, then commit order). A
   * stored row of another record version is left out; so is a row that is not a readable record,
   * which the store reports (SqliteStore, PostgresStore: `onUnreadableRecord`), never rejecting.
   */
  list(filter: ListFilter, now: number): Promise<SuspensionRecord[]>;
  /**
   * Claims a single-use token id (the MCP ContinuationUseStore contract): `true` the first time,
   * `false` ever after; the store may forget the id once `expiresAt` has passed.
   */
  claim(tokenId: string, expiresAt: number): Promise<boolean>;
  /**
   * Releases the driver's resources: every operation started after `close` rejects with
   * ERR_STORE_CLOSED; `close` resolves once the operations already in flight have settled (none
   * is left pending). Idempotent.
   */
  close(): Promise<void>;
}
