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
 * or token id), ERR_STORE_NOT_TAKEN (`finish` without owning the record), ERR_STORE_CLOSED,
 * ERR_STORE_DRIVER (the database failed; its error is the `cause`), and at open
 * ERR_STORE_DRIVER_MISSING, ERR_STORE_DRIVER_LOAD, ERR_STORE_SCHEMA.
 * Key strings (thread, call, principal, token ids) may not hold U+0000 or lone surrogates: no
 * database keeps them unchanged.
 */

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
  /** `sha256:` + hex over `arguments` (UTF-8). */
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

/** The key of one call. */
export interface CallKey {
  readonly threadId: string;
  readonly callId: string;
}

/**
 * The result of `take`:
 * - `taken`: this caller now owns the resume (exactly one caller ever gets it per record); it must
 *   later `finish` with the same `claim`;
 * - `answered`: another caller took it first; `outcome` is set once that caller finished;
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
   * Atomically claims the record for resumption at instant `now` (ms since the epoch). The record
   * is expired when `now > expiresAt` (at `expiresAt` itself it may still be taken); once recorded
   * expired it stays expired whatever `now` a later take passes.
   */
  take(key: CallKey, now: number): Promise<TakeResult>;
  /**
   * Stores the outcome of a taken record; `claim` must be the one `take` returned. Rejects with
   * ERR_STORE_NOT_TAKEN when the record is missing, waiting, expired, already finished, or taken
   * under another claim (so an outcome is stored once).
   */
  finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void>;
  /**
   * Counts one more call of `tool` in `threadId`, atomically, and resolves the counts after it: of
   * that tool and of every tool in the thread. The runtime's per-thread budgets read them.
   */
  countCall(threadId: string, tool: string): Promise<{ readonly tool: number; readonly total: number }>;
  /**
   * The records still waiting (not taken, and `now <= expiresAt`), oldest first (by `createdAt`,
   * then commit order).
   */
  list(filter: ListFilter, now: number): Promise<SuspensionRecord[]>;
  /**
   * Claims a single-use token id (the MCP ContinuationUseStore contract): `true` the first time,
   * `false` ever after; the store may forget the id once `expiresAt` has passed.
   */
  claim(tokenId: string, expiresAt: number): Promise<boolean>;
  /** Releases the driver's resources; the store is unusable after. Idempotent. */
  close(): Promise<void>;
}
