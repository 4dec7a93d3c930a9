/**
 * The driving runtime (issue 13): takes the tool calls of one model turn and resolves exactly one
 * outcome per call id; commits a suspension to its SuspensionStore before announcing it; routes an
 * answer back to its call exactly once, on any instance sharing the store; keeps per-thread call
 * budgets. The seed leaves these duties to "the driving runtime" (call identity, checkpoint
 * commitment, input waits, routing answers).
 *
 * Store contract: lib/runtime/store.ts (not edited here). Record keys: a call's first suspension is
 * stored under its provider call id; a resume that suspends again commits a NEW record under
 * `<call id>#<round>` (identity.ts roundKey) and finishes the previous round with a StoredOutcome
 * of kind `suspended`, so every record is written once and each round is taken exactly once.
 *
 * Asked of the store contract (lib/runtime/store.ts, not changed here): (1) `get` cannot tell a
 * waiting record from one taken and still running, so a turn replayed during a resume re-announces
 * the request; a `state` on get's result would let it say "being answered". (2) StoredOutcome has
 * no kind for `tool-changed`: it is stored as `refused` (its text says the tool changed).
 */
import type { Binding, Continuation, Invocation, Registry, Result } from '../protocol';
import { DEFAULT_TIMEOUT_MS, InputRequest, MAX_TIMEOUT_MS, ToolError } from '../protocol';
import { detailOf } from '../protocol/detail';
import { prepareToolCall } from '../providers/prepare';
import type { ToolOutcome } from '../providers/outcome';
import { oneCallPerId } from '../providers/tool-call';
import type { AssembledToolCall, ProviderToolCall } from '../providers/tool-call';
import {
  MAX_SUSPENSION_ROUNDS,
  argumentsDigest,
  contractFingerprint,
  countKeyOf,
  idempotencyKeyOf,
  roundKey,
  roundOfKey,
  textDigest,
} from './identity';
import { ToolTracing, TracingError } from '../tracing';
import type { ToolTracingOption } from '../tracing';
import { RuntimeError } from './errors';
import * as text from './messages';
import { checkCallerId, readCall } from './turn-input';
import type { CallProblem } from './turn-input';
import { fromStored, settledOf, statedOf, storedOf } from './outcome';
import type { CallIdentity, CallOutcome, SettledCallOutcome, SuspendedCallOutcome } from './outcome';
import { frozenWith } from './frozen';
import { DEFAULT_LEASE_MS, MAX_ID_BYTES, SUSPENSION_RECORD_VERSION } from './store';
import type {
  CallKey,
  ListFilter,
  RunningCall,
  SettledCall,
  StoredOutcome,
  SuspensionRecord,
  SuspensionStore,
} from './store';

/** How long a suspended call waits for its answer unless configured: 86,400,000 ms (24 h). */
export const DEFAULT_SUSPENSION_TTL_MS = 86_400_000;

/** The longest `suspensionTtlMs` a Runtime takes: 31,622,400,000 ms (366 days). */
export const MAX_SUSPENSION_TTL_MS = 31_622_400_000;

/** The longest `leaseMs` a Runtime takes: 86,400,000 ms (24 h). */
export const MAX_LEASE_MS = 86_400_000;

/** Per-thread call budgets: how many admitted calls a thread may make, of one tool and in total. */
export interface RuntimeBudget {
  /** Calls of any one tool per thread (a whole number ≥ 1). */
  readonly perTool?: number;
  /** Calls of all tools together per thread (a whole number ≥ 1). */
  readonly total?: number;
}

/**
 * Configuration of a Runtime.
 * - `registry`: the tools the model was offered (a protocol Registry).
 * - `store`: where suspensions, outcomes and call counts live (MemoryStore, SQLite, PostgreSQL).
 * - `timeoutMs`: the deadline of every call in ms (1 to MAX_TIMEOUT_MS, and below `leaseMs`); the
 *   smaller of it and the binding's own deadline applies. Unset: each binding's own deadline
 *   (DEFAULT_TIMEOUT_MS, 60,000 ms, unless the tool declares one), but at most `leaseMs` - 1 ms.
 *   A call cut at its deadline ends `failed` and is stored so (a replay gets `failed`), although
 *   the tool may still be running: what it does after is not awaited, so give its side effects the
 *   call's idempotency key (they then dedupe with a later call of the same key).
 * - `suspensionTtlMs`: how long a suspension waits for its answer, in ms (1 to
 *   MAX_SUSPENSION_TTL_MS, 366 days; default 24 h).
 * - `leaseMs`: how long a resume owns the call it took, in ms (1 to MAX_LEASE_MS, 24 h; default
 *   DEFAULT_LEASE_MS, 10 min):
 *   if its process dies before the outcome is stored, a later answer resumes the call once this
 *   has passed (the tool runs again with the same idempotency key). The same lease holds a turn's
 *   claim (`store.begin`). It must outlast the call's deadline (a call still running past its lease
 *   could run a second time): `timeoutMs` must be below it, and no call runs longer.
 * - `budget`: per-thread call budgets; unset: no budget (and no `countCall` on the store).
 * - `now`: the clock, ms since the epoch as a whole number ≥ 0 (default `Date.now`); the
 *   constructor reads it once to check it.
 * - `tracing`: `true` or `{ tracer?, recordArguments?, recordResults? }` to start an OpenTelemetry
 *   `execute_tool` span per call of a turn and per resume (docs/tracing.md); needs the optional peer
 *   `@opentelemetry/api`. Default: off, and the package is never loaded.
 */
export interface RuntimeConfig {
  readonly registry: Registry;
  readonly store: SuspensionStore;
  readonly timeoutMs?: number;
  readonly suspensionTtlMs?: number;
  readonly leaseMs?: number;
  readonly budget?: RuntimeBudget;
  readonly now?: () => number;
  readonly tracing?: ToolTracingOption;
}

/**
 * One model turn: the calls the provider readers produced (`openAIChatToolCalls`,
 * `anthropicToolCalls`, `openAIResponsesToolCalls`, `geminiFunctionCalls`, the stream assemblers).
 * - `threadId`: the caller-chosen conversation id (non-empty); budgets and call ids are per thread.
 * - `principal`: who is calling, as the application authenticated them (default `''`, anonymous);
 *   only this principal may answer the turn's suspensions.
 * - `context`, `signal`: passed to policies and tools as CallOptions.
 */
export interface TurnInput {
  readonly threadId: string;
  readonly principal?: string;
  readonly context?: unknown;
  readonly signal?: AbortSignal;
  readonly calls: readonly ProviderToolCall[];
}

/**
 * An answer to a suspended call.
 * - `callId`: the key of the question answered, exactly as shown: `outcome.record.callId` of the
 *   suspended outcome, or the `callId` of a record `list()` returned (`<call id>#<round>` from
 *   round 2 on). The provider call id (`outcome.call.id`) is the key of round 1 (runTurn refuses
 *   a provider call id that ends in `#` and digits), so it answers round 1 only.
 * - `answer`: the person's answer as JSON text, valid against the request's `response_schema`.
 * - `principal`: must be the principal of the turn that suspended the call (default `''`).
 * - `context`, `signal`: as for runTurn; policies decide again with them.
 */
export interface ResumeInput {
  readonly threadId: string;
  readonly callId: string;
  readonly answer: string;
  readonly principal?: string;
  readonly context?: unknown;
  readonly signal?: AbortSignal;
}

/** What runTurn and resume pass to Binding.call. */
interface CallScope {
  readonly threadId: string;
  readonly principal: string;
  readonly context: unknown;
  readonly signal: AbortSignal | undefined;
}

/** A record and its outcome, as `store.get` resolves them. */
type Stored = { readonly record: SuspensionRecord; readonly outcome?: StoredOutcome };

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function wholeAtLeastOne(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The driving runtime over one Registry and one SuspensionStore. Stateless itself: every instance
 * over the same store sees the same suspensions, outcomes and budgets. Frozen.
 */
export class Runtime {
  readonly #registry: Registry;
  readonly #store: SuspensionStore;
  readonly #timeoutMs: number | undefined;
  readonly #ttlMs: number;
  readonly #leaseMs: number;
  readonly #perTool: number | undefined;
  readonly #total: number | undefined;
  readonly #now: () => number;
  readonly #tracing: ToolTracing | undefined;

  /**
   * @throws RuntimeError ERR_INVALID_RUNTIME_CONFIG naming the field: no registry (an object with
   *   `resolve`), no store (an object with the SuspensionStore methods), a `timeoutMs` that is not
   *   1 to MAX_TIMEOUT_MS ms, a `suspensionTtlMs` that is not 1 to
   *   MAX_SUSPENSION_TTL_MS ms, a `leaseMs` that is not 1 to MAX_LEASE_MS ms or not above
   *   `timeoutMs` (Infinity included: the lease must outlast the call's deadline), a budget that is not
   *   a whole number ≥ 1, a `now` that is not a function returning a whole number of ms ≥ 0 (a
   *   fraction or a time past Number.MAX_SAFE_INTEGER less the TTL would make every instant a
   *   store keeps invalid); `config` (naming no field) when reading a member of it throws
   * @throws TracingError ERR_INVALID_TRACING for a `tracing` option of the wrong shape;
   *   ERR_TRACING_UNAVAILABLE when `tracing` is on and `@opentelemetry/api` is not installed
   */
  constructor(config: RuntimeConfig) {
    try {
      if (typeof config !== 'object' || config === null) {
        throw text.invalidConfig('config', 'must be an object { registry, store, ... }');
      }
      const { registry, store, budget, now } = config;
      if (typeof (registry as Partial<Registry> | undefined)?.resolve !== 'function') {
        throw text.invalidConfig(
          'config.registry',
          'must be a Registry (new Registry(...tools) or createRegistry(...))',
        );
      }
      const methods = [
        'commit',
        'get',
        'take',
        'finish',
        'release',
        'begin',
        'abandon',
        'settle',
        'getSettled',
        'countCall',
        'list',
      ] as const;
      const missing = methods.filter((m) => typeof (store as Partial<SuspensionStore> | undefined)?.[m] !== 'function');
      if (missing.length > 0) {
        // SqliteStore.open and PostgresStore.open return promises: say so, not what a promise lacks.
        const promise = typeof (store as { then?: unknown } | null)?.then === 'function';
        throw text.invalidConfig(
          'config.store',
          promise
            ? 'is a promise; await the store first (const store = await SqliteStore.open(...))'
            : `must be a SuspensionStore (missing ${missing.join(', ')})`,
        );
      }
      const timeoutMs: unknown = config.timeoutMs;
      if (
        timeoutMs !== undefined &&
        timeoutMs !== Infinity &&
        !(typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)
      ) {
        throw text.invalidConfig(
          'config.timeoutMs',
          `must be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}, below leaseMs`,
        );
      }
      this.#timeoutMs = timeoutMs;
      const ttl = config.suspensionTtlMs ?? DEFAULT_SUSPENSION_TTL_MS;
      if (!wholeAtLeastOne(ttl) || ttl > MAX_SUSPENSION_TTL_MS) {
        throw text.invalidConfig(
          'config.suspensionTtlMs',
          `must be a whole number of ms from 1 to ${MAX_SUSPENSION_TTL_MS}`,
        );
      }
      const lease = config.leaseMs ?? DEFAULT_LEASE_MS;
      if (!wholeAtLeastOne(lease) || lease > MAX_LEASE_MS) {
        throw text.invalidConfig('config.leaseMs', `must be a whole number of ms from 1 to ${MAX_LEASE_MS}`);
      }
      if (timeoutMs !== undefined && lease <= timeoutMs) {
        // A resume or turn still running past its lease lets a second one run the call too.
        throw text.invalidConfig(
          'config.leaseMs',
          `must outlast the call's deadline: ${lease} ms is not more than timeoutMs ${String(timeoutMs)}`,
        );
      }
      if (budget !== undefined && (typeof budget !== 'object' || budget === null)) {
        throw text.invalidConfig('config.budget', 'must be an object { perTool?, total? }');
      }
      if (budget?.perTool !== undefined && !wholeAtLeastOne(budget.perTool)) {
        throw text.invalidConfig('config.budget.perTool', 'must be a whole number of calls ≥ 1');
      }
      if (budget?.total !== undefined && !wholeAtLeastOne(budget.total)) {
        throw text.invalidConfig('config.budget.total', 'must be a whole number of calls ≥ 1');
      }
      if (now !== undefined) {
        const rule = 'must be a function returning ms since the epoch, a whole number ≥ 0';
        if (typeof now !== 'function') throw text.invalidConfig('config.now', rule);
        let reading: unknown;
        try {
          reading = now();
        } catch {
          throw text.invalidConfig('config.now', `${rule} (it threw)`);
        }
        if (!(
          Number.isSafeInteger(reading) &&
          (reading as number) >= 0 &&
          Number.isSafeInteger((reading as number) + ttl)
        )) {
          throw text.invalidConfig('config.now', `${rule} (it returned ${String(reading)})`);
        }
      }
      this.#registry = registry;
      this.#store = store;
      this.#ttlMs = ttl;
      this.#leaseMs = lease;
      this.#perTool = budget?.perTool;
      this.#total = budget?.total;
      this.#now = now ?? Date.now;
      this.#tracing = ToolTracing.of(config.tracing, 'new Runtime(config)');
    } catch (e) {
      if (e instanceof RuntimeError || e instanceof TracingError) throw e;
      // A getter of the config (or of its budget or store) that throws: refused as a bad config.
      throw text.invalidConfig('config', 'could not be read (reading a member threw)');
    }
    Object.freeze(this);
  }

  /**
   * Runs the calls of one model turn concurrently, each under its deadline, and resolves exactly one
   * outcome per call id, in the order of the calls (calls sharing an id become one `refused` outcome,
   * as the provider readers' oneCallPerId does). Per call, first match wins:
   * 1. a suspension or a settled call is stored under the call id (a replayed turn): the tool does
   *    not run again; the stored outcome is returned (`replayed`), or the waiting request
   *    re-announced, or `expired`. Else the call is claimed in the store (`store.begin`, a lease of
   *    `leaseMs`); a call another turn runs is awaited and its stored outcome returned (`replayed`;
   *    `error` when it is still running after its deadline). A stored or running call of another
   *    principal: `error`; of another tool or with other arguments (argumentsDigest: canonical
   *    JSON of the normalized arguments): `call-id-conflict`; nothing runs;
   * 2. admission (prepareToolCall) refuses it: `refused`;
   * 3. a budget is spent (`store.countCall` counts atomically, only while the budgets have room,
   *    and a call id once per thread and tool (identity.ts countKeyOf), so it holds across
   *    instances; every admitted call counts, whatever the policy then decides (`rejected`, an
   *    authorizer's `error`), and a budget-exceeded call counts nothing): `budget-exceeded`;
   * 4. the call through its Binding (Guards authorize; deadline): `completed`, `rejected`,
   *    `failed`, `error`, or `suspended` once its record is committed (a commit that rejects makes
   *    the outcome `error`; a commit that finds the key taken announces the stored record).
   * A `completed`, `refused`, `rejected` or `failed` outcome is stored (`store.settle`) before it is
   * returned, so a replayed turn gets it back (a `settle` that rejects sets `storeError`); `error`
   * and `budget-exceeded` are not stored (the claim is abandoned: a replay tries the call again).
   * A call without an id (Gemini may omit it) runs, but cannot be stored: if it suspends, its
   * outcome is `error`. Outcomes never reject; store failures become `error` outcomes.
   * Every call is checked before any runs (turn-input.ts): a malformed one (not an object, an id or
   * name that is not a string, arguments that are not text, an id no store keeps, an id that ends
   * in `#` and digits, the form of a round key: identity.ts hasRoundSuffix) is `refused` on its
   * own, `diagnostic` RuntimeError ERR_INVALID_CALL (ERR_ID_TOO_LONG for a long id); the others run.
   * @throws RuntimeError ERR_INVALID_TURN when `threadId` is not a non-empty string, `calls` is not
   *   an array or cannot be read (a getter or a Proxy's iterator throws), or `principal` is not a
   *   string, or either holds a NUL or a lone surrogate;
   *   ERR_ID_TOO_LONG when the thread id or the principal is over MAX_ID_BYTES bytes of UTF-8
   *   (nothing runs)
   */
  async runTurn(turn: TurnInput): Promise<CallOutcome[]> {
    if (typeof turn !== 'object' || turn === null) throw text.invalidTurn('turn', 'must be an object');
    if (!nonEmpty(turn.threadId)) throw text.invalidTurn('threadId', 'must be a non-empty string');
    if (turn.principal !== undefined && typeof turn.principal !== 'string') {
      throw text.invalidTurn('principal', 'must be a string (or left out for anonymous calls)');
    }
    let given: unknown;
    try {
      given = turn.calls;
    } catch {
      throw text.invalidTurn('calls', 'could not be read (its getter threw)');
    }
    if (!Array.isArray(given)) throw text.invalidTurn('calls', 'must be an array of tool calls');
    checkIdBytes('runTurn', 'threadId', turn.threadId);
    if (turn.principal !== undefined) checkIdBytes('runTurn', 'principal', turn.principal);
    const scope: CallScope = {
      threadId: turn.threadId,
      principal: turn.principal ?? '',
      context: turn.context,
      signal: turn.signal,
    };
    // Every call read once and checked before any runs: a malformed one is refused on its own.
    let read: ReturnType<typeof readCall>[];
    try {
      read = Array.from(given as readonly unknown[], (call, index) => readCall(call, index));
    } catch {
      // An element getter or a Proxy's iterator that throws: the caller's own turn is malformed.
      throw text.invalidTurn('calls', 'could not be read (iterating it or reading an element threw)');
    }
    const problems = new Map<AssembledToolCall, CallProblem>();
    for (const { call, problem } of read) if (problem !== undefined) problems.set(call, problem);
    const calls = oneCallPerId(read.map(({ call }) => call));
    return Promise.all(
      calls.map((call) => {
        const problem = problems.get(call);
        const identity: CallIdentity = { threadId: scope.threadId, call, idempotencyKey: undefined };
        if (problem !== undefined) {
          return statedOf(identity, 'refused', text.malformedCall(problem.model), false, problem.error);
        }
        // #runCall never rejects; should a defect make it, the call alone ends `error`, not the turn.
        return this.#traced(call, scope, false, () => this.#runCall(call, scope)).catch((e: unknown) => {
          const why = new Error('runtime: the call failed unexpectedly', { cause: e });
          return settledOf(identity, { error: why }, { kind: 'error' });
        });
      }),
    );
  }

  /**
   * Routes a person's answer to its suspended call, exactly once across every instance sharing the
   * store. Order: find the record of the round the answer names; the principal must match; a round
   * that already has its outcome resolves `already-answered` with it as `previous` (the tool does not
   * run again; for a round whose tool asked again, `previous` is the `suspended` outcome of the next
   * round, never answered by this answer); the answer is validated against the stored request's response schema BEFORE the record
   * is taken (an invalid answer leaves the call waiting); `store.take`: `expired` resolves `expired`,
   * `answered` (another answer won) `already-answered`; on `taken`: the tool must still be registered
   * with the same contract fingerprint (else `tool-changed`), the stored arguments must match their
   * digest (else `error`, nothing runs), they are admitted again
   * with the Continuation, the call runs through its Binding (Guards authorize again, with this
   * context), and the outcome is stored with `store.finish` before it is returned, except `error`
   * (an authorizer outage, an abort, a store failure): then the take is given back
   * (`store.release`) and the call waits again, answerable at once. A resume that suspends again
   * commits a new record under its next round's key (identity.ts roundKey) first; one whose tool
   * asks again after MAX_SUSPENSION_ROUNDS rounds ends `failed` (diagnostic ERR_TOO_MANY_ROUNDS),
   * committing nothing. `callId` is the key of the record answered, exactly as `record.callId` of
   * the suspended outcome or of `list()` shows it (`<call id>#<n>` from round 2 on; the provider
   * call id in round 1, since runTurn refuses a provider call id of the form `<id>#<n>`): the
   * answer binds to the record under that key and no other. A resumed call does not count
   * against budgets again.
   * @returns the outcome for the model (render it with toOpenAIChatMessages, ...)
   * An answer to a call whose stored outcome is `expired` gets that `expired` outcome again
   * (`replayed`). A resume owns the call for `leaseMs`: if its process dies before `finish`, a
   * later answer resumes the call once the lease has passed.
   * @throws RuntimeError ERR_INVALID_TURN (malformed input), ERR_ID_TOO_LONG (a thread id, call id
   *   or principal over MAX_ID_BYTES bytes of UTF-8; a call id `<id>#<round>` may be 4 bytes
   *   longer), ERR_UNKNOWN_CALL (nothing stored under the key), ERR_PRINCIPAL_MISMATCH,
   *   ERR_INVALID_ANSWER (with `issues`; the call stays waiting)
   * @throws the store's error when `get` or `take` rejects: the tool did not run; answer again. A
   *   `take` that took the call but whose reply was lost (a connection dropped after the commit)
   *   holds the call for `leaseMs`: until then an answer gets `already-answered` and `list` leaves
   *   the call out
   * @throws `signal.reason` when `signal` is already aborted before the record is taken (the call
   *   stays waiting; answer again)
   */
  async resume(input: ResumeInput): Promise<CallOutcome> {
    if (typeof input !== 'object' || input === null) throw text.invalidResume('input', 'must be an object');
    if (!nonEmpty(input.threadId)) throw text.invalidResume('threadId', 'must be a non-empty string');
    if (!nonEmpty(input.callId)) throw text.invalidResume('callId', 'must be a non-empty string');
    if (typeof input.answer !== 'string') throw text.invalidResume('answer', 'must be JSON text (a string)');
    if (input.principal !== undefined && typeof input.principal !== 'string') {
      throw text.invalidResume('principal', 'must be a string (or left out for anonymous calls)');
    }
    checkIdBytes('resume', 'threadId', input.threadId);
    const roundOf = /^(.+)#[1-9][0-9]{0,2}$/.exec(input.callId);
    checkIdBytes('resume', 'callId', roundOf === null ? input.callId : roundOf[1]);
    if (input.principal !== undefined) checkIdBytes('resume', 'principal', input.principal);
    const scope: CallScope = {
      threadId: input.threadId,
      principal: input.principal ?? '',
      context: input.context,
      signal: input.signal,
    };
    // An answer is bound to the record stored under the key it names, and to no other: the key
    // list() and a suspended outcome show (`record.callId`). A provider call id is the key of its
    // round 1 (runTurn refuses an id of the form `<id>#<n>`, the key of round n of call <id>). A
    // repeated answer to an answered round gets its stored outcome, never the next round's
    // question (docs/runtime.md).
    const found = await this.#store.get({ threadId: scope.threadId, callId: input.callId });
    if (found === undefined) throw text.unknownCall(scope.threadId, input.callId);
    const { callId, round } = providerCallIdOf(found.record);
    const record = found.record;
    if (record.principal !== scope.principal) {
      throw text.principalMismatch(
        scope.threadId,
        input.callId,
        record.principal !== '', // '' is anonymous (lib/runtime/store.ts)
        scope.principal !== '',
      );
    }
    const identity = identityOf(scope.threadId, callId, record);
    return this.#traced(identity.call, scope, true, () => this.#resumeFound(input, scope, found, identity, round));
  }

  /** The rest of `resume`, once the record answered and its principal are known. */
  async #resumeFound(
    input: ResumeInput,
    scope: CallScope,
    found: Stored,
    identity: CallIdentity,
    round: number,
  ): Promise<CallOutcome> {
    const { callId } = providerCallIdOf(found.record);
    const record = found.record;
    if (found.outcome !== undefined) {
      // An expired call stays expired: every later answer gets the outcome the first one got.
      if (found.outcome.kind === 'expired') return fromStored(identity, found.outcome);
      if (found.outcome.kind === 'suspended') return this.#answeredRound(identity, round, scope);
      return answered(identity, found.outcome);
    }
    // The next round is committed before this round's outcome is stored (see #suspend): a round
    // with a next round was answered, even if storing its outcome failed. It never runs again.
    const later = await this.#store.get({ threadId: scope.threadId, callId: roundKey(callId, round + 1) });
    if (later !== undefined) return this.#repairRound(identity, found.record, later.record, round, scope);
    const now = this.#now();
    // Validated before taking, so an invalid answer leaves the call waiting (unless it has expired,
    // which take reports).
    const continuation = now <= record.expiresAt ? continuationOf(record, input.answer) : undefined;
    // An answer whose request was already cancelled must not consume the call: nothing ran yet.
    scope.signal?.throwIfAborted();
    const key: CallKey = { threadId: scope.threadId, callId: record.callId };
    const taken = await this.#store.take(key, now, this.#leaseMs);
    switch (taken.status) {
      case 'missing':
        throw text.unknownCall(scope.threadId, input.callId);
      case 'expired':
        return statedOf(identity, 'expired', text.expiredCall(record.tool));
      case 'answered':
        return taken.outcome?.kind === 'suspended'
          ? this.#answeredRound(identity, round, scope)
          : answered(identity, taken.outcome);
      default:
        break;
    }
    let outcome: CallOutcome;
    try {
      const answer = continuation ?? continuationOf(record, input.answer);
      outcome = await this.#runResumed(identity, taken.record, answer, round, scope);
    } catch (e) {
      outcome = settledOf(identity, { error: e }, { kind: 'error', signal: scope.signal });
    }
    if (outcome.kind === 'error') {
      // Nothing final happened (an authorizer outage, an abort, a store failure committing the next
      // round): the call is given back, waiting, and may be answered again at once.
      try {
        await this.#store.release(key, taken.claim);
      } catch (e) {
        return frozenWith(outcome, { storeError: e });
      }
      return outcome;
    }
    const stored: StoredOutcome =
      outcome.kind === 'suspended'
        ? { kind: 'suspended', inputRequest: outcome.record.inputRequest }
        : storedOf(outcome);
    try {
      await this.#store.finish(key, taken.claim, stored);
    } catch (e) {
      return frozenWith(outcome, { storeError: e });
    }
    return outcome;
  }

  /**
   * The suspended calls still waiting (not taken, or taken by a resume whose lease has passed; not
   * expired now), oldest first: the store's `list`, less a round whose next round is committed
   * (answered, though storing its outcome failed). A record's `callId` is `<call id>#<round>` for a resume that suspended again; resume
   * accepts it as it is (see providerCallIdOf).
   * @throws RuntimeError ERR_INVALID_TURN when the filter is neither `{ threadId }` nor `{ principal }`;
   *   ERR_ID_TOO_LONG when its id is over MAX_ID_BYTES bytes of UTF-8
   */
  async list(filter: ListFilter): Promise<SuspensionRecord[]> {
    const f = filter as { threadId?: unknown; principal?: unknown } | null;
    const byThread = typeof f?.threadId === 'string';
    const byPrincipal = typeof f?.principal === 'string';
    if (byThread === byPrincipal) {
      throw text.invalidFilter();
    }
    checkIdBytes('list', byThread ? 'threadId' : 'principal', (byThread ? f!.threadId : f!.principal) as string);
    const records = await this.#store.list(
      byThread ? { threadId: f!.threadId as string } : { principal: f!.principal as string },
      this.#now(),
    );
    // A round whose next round is committed was answered (its stored outcome may be missing, when
    // `finish` failed): only the next round waits.
    const superseded = await Promise.all(
      records.map(async (record) => {
        const { callId, round } = providerCallIdOf(record);
        return (
          (await this.#store.get({ threadId: record.threadId, callId: roundKey(callId, round + 1) })) !== undefined
        );
      }),
    );
    return records.filter((_, i) => !superseded[i]);
  }

  /**
   * `already-answered` for an answer to round `round` of a call, which an earlier answer resumed
   * and whose tool asked again: `previous` is that stored outcome, the `suspended` outcome of the
   * next round (its `record.callId` is the key that answers it). Without `previous` when the next
   * round's record is missing.
   */
  async #answeredRound(identity: CallIdentity, round: number, scope: CallScope): Promise<SettledCallOutcome> {
    const next = await this.#store.get({ threadId: scope.threadId, callId: roundKey(identity.call.id, round + 1) });
    const outcome = statedOf(identity, 'already-answered', text.roundAnswered(identity.call.request.name), true);
    if (next === undefined) return outcome;
    const previous: SuspendedCallOutcome = frozenWith(identity, {
      kind: 'suspended' as const,
      replayed: true,
      inputRequest: InputRequest.parse(next.record.inputRequest),
      record: next.record,
    });
    return frozenWith(outcome, { previous });
  }

  /**
   * A round whose next round is committed but whose own outcome is missing (its `finish` failed):
   * stores that outcome (`suspended`) when the round can be taken now, then answers as for any
   * answered round. A take that fails leaves the record as it is: the answer still runs nothing.
   */
  async #repairRound(
    identity: CallIdentity,
    record: SuspensionRecord,
    next: SuspensionRecord,
    round: number,
    scope: CallScope,
  ): Promise<SettledCallOutcome> {
    const key: CallKey = { threadId: scope.threadId, callId: record.callId };
    const now = this.#now();
    try {
      const taken = now <= record.expiresAt ? await this.#store.take(key, now, this.#leaseMs) : undefined;
      if (taken?.status === 'taken') {
        await this.#store.finish(key, taken.claim, { kind: 'suspended', inputRequest: next.inputRequest });
      }
    } catch {
      // Left to the next answer: this one runs nothing either way.
    }
    return this.#answeredRound(identity, round, scope);
  }

  /**
   * Runs one call of a turn, or the resume of one, inside an `execute_tool` span when the runtime
   * traces (lib/tracing/tracing.ts): `scope_tool.outcome` is the outcome's kind; an outcome the model
   * is told as an error sets `error.type` to its kind; a suspension is not an error.
   */
  #traced(
    call: ProviderToolCall,
    scope: CallScope,
    resumed: boolean,
    run: () => Promise<CallOutcome>,
  ): Promise<CallOutcome> {
    const tracing = this.#tracing;
    if (tracing === undefined) return run();
    const name = call.request.name;
    return tracing.trace(
      {
        toolName: name,
        callId: call.id,
        description: this.#registry.resolve(name)?.contract.definition().description,
        arguments: call.request.arguments,
        conversationId: scope.threadId,
        attributes: resumed ? { 'scope_tool.resumed': true } : undefined,
      },
      run,
      (outcome) =>
        outcome.kind === 'suspended'
          ? { kind: outcome.kind, isError: false }
          : {
              kind: outcome.kind,
              isError: outcome.rendered.isError,
              result: outcome.kind === 'completed' ? outcome.rendered.output : undefined,
            },
    );
  }

  /** One call of a turn (see runTurn). Never rejects. */
  async #runCall(call: AssembledToolCall, scope: CallScope): Promise<CallOutcome> {
    const stored = call.id !== '';
    const identity: CallIdentity = {
      threadId: scope.threadId,
      call,
      idempotencyKey: stored ? idempotencyKeyOf(scope.threadId, call.id) : undefined,
    };
    let claim: string | undefined;
    let outcome: CallOutcome;
    try {
      let prepared: { readonly binding: Binding; readonly invocation: Invocation } | { readonly refusal: unknown };
      try {
        prepared = prepareToolCall(this.#registry, call);
      } catch (e) {
        prepared = { refusal: e };
      }
      const digest = argumentsDigest(
        'refusal' in prepared ? call.request.arguments : prepared.invocation.normalizedArguments,
      );
      if (stored) {
        const timeoutMs = Math.min(
          this.#timeoutMs ?? Infinity,
          'binding' in prepared ? prepared.binding.timeoutMs : DEFAULT_TIMEOUT_MS,
        );
        const begun = await this.#begin(identity, digest, timeoutMs, scope);
        if ('kind' in begun) return begun;
        claim = begun.claim;
      }
      outcome = await this.#runBegun(identity, prepared, digest, scope);
    } catch (e) {
      // A store that failed (begin, countCall, commit): nothing is announced.
      outcome = settledOf(identity, { error: e }, { kind: 'error', signal: scope.signal });
    }
    if (claim !== undefined && (!SETTLED_KINDS.has(outcome.kind as never) || 'storeError' in outcome)) {
      // Not settled (error, budget-exceeded, suspended: its record is committed): the next turn
      // runs it, or finds its record. A failing abandon leaves it to the lease.
      await this.#store.abandon({ threadId: scope.threadId, callId: call.id }, claim).catch(() => false);
    }
    return outcome;
  }

  /**
   * Claims the run of a turn's call (store.begin, see runTurn step 1): `{ claim }` when this turn
   * runs it; else what the call resolves to without running: a stored suspension or settled call
   * replayed, `call-id-conflict`, or, while another turn runs it, the outcome it stores once it has
   * (polled, for at most the call's deadline or the lease, and a second), else `error`.
   */
  async #begin(
    identity: CallIdentity,
    digest: string,
    timeoutMs: number,
    scope: CallScope,
  ): Promise<{ readonly claim: string } | CallOutcome> {
    const { call } = identity;
    const key: CallKey = { threadId: scope.threadId, callId: call.id };
    const running: RunningCall = {
      threadId: key.threadId,
      callId: key.callId,
      tool: call.request.name,
      argumentsDigest: digest,
      principal: scope.principal,
    };
    const recordKey: CallKey = { threadId: scope.threadId, callId: roundKey(call.id, 1) };
    const until = Date.now() + Math.min(timeoutMs, this.#leaseMs) + WAIT_GRACE_MS;
    for (let pause = FIRST_POLL_MS; ; pause = Math.min(2 * pause, MAX_POLL_MS)) {
      const found = await this.#store.get(recordKey);
      if (found !== undefined) return this.#replay(identity, found, scope);
      const begun = await this.#store.begin(running, this.#now(), this.#leaseMs);
      if (begun.status === 'begun') {
        // A turn whose call suspended commits the record, then abandons its claim: a claim won
        // after that abandon finds the record here.
        const committed = await this.#store.get(recordKey);
        if (committed === undefined) return { claim: begun.claim };
        await this.#store.abandon(key, begun.claim).catch(() => false);
        return this.#replay(identity, committed, scope);
      }
      if (begun.status === 'settled') return this.#replaySettled(identity, begun.call, scope);
      const other = this.#otherCall(identity, begun.call, scope);
      if (other !== undefined) return other;
      if (Date.now() + pause > until || scope.signal?.aborted === true) {
        const why =
          scope.signal?.aborted === true
            ? scope.signal.reason
            : new Error(
                `runtime: call ${JSON.stringify(call.id)} is still running in another turn (on this or another ` +
                  'instance); run the turn again to get its outcome',
              );
        return settledOf(identity, { error: why }, { kind: 'error', signal: scope.signal });
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** Runs a turn's call this turn has begun (see runTurn steps 2 to 4). */
  async #runBegun(
    identity: CallIdentity,
    prepared: { readonly binding: Binding; readonly invocation: Invocation } | { readonly refusal: unknown },
    digest: string,
    scope: CallScope,
  ): Promise<CallOutcome> {
    const stored = identity.call.id !== '';
    if ('refusal' in prepared) {
      const refused = settledOf(identity, { error: prepared.refusal }, { signal: scope.signal });
      return await this.#settle(identity, refused, digest, scope);
    }
    const { binding, invocation } = prepared;
    const spent = await this.#spend(scope.threadId, binding.contract.name, identity.call.id);
    if (spent !== undefined) return statedOf(identity, 'budget-exceeded', spent);
    const result = await this.#call(binding, invocation, scope, identity.idempotencyKey);
    if (!('result' in result) || !('inputRequest' in result.result)) {
      const outcome = settledOf(identity, result, { signal: scope.signal });
      return await this.#settle(identity, outcome, digest, scope);
    }
    if (!stored) {
      const why = new Error(
        `runtime: tool ${JSON.stringify(binding.contract.name)} asked for input on a call without a provider call id, ` +
          'which cannot be stored or answered; give every call an id',
      );
      return settledOf(identity, { error: why }, { kind: 'error' });
    }
    return await this.#suspend(identity, binding, invocation, result.result.inputRequest, 1, scope);
  }

  /**
   * Stores a settled outcome of a turn's call (`completed`, `refused`, `rejected`, `failed`) under
   * its key with the digest of its arguments, so a replayed turn returns it; other kinds and calls
   * without an id are returned as they are. A store that fails sets `storeError`: the tool ran.
   */
  async #settle(
    identity: CallIdentity,
    outcome: SettledCallOutcome,
    digest: string,
    scope: CallScope,
  ): Promise<SettledCallOutcome> {
    if (identity.call.id === '' || !SETTLED_KINDS.has(outcome.kind)) return outcome;
    const entry: SettledCall = {
      threadId: scope.threadId,
      callId: identity.call.id,
      tool: identity.call.request.name,
      argumentsDigest: digest,
      principal: scope.principal,
      outcome: storedOf(outcome),
      createdAt: this.#now(),
    };
    try {
      await this.#store.settle(entry);
    } catch (e) {
      return frozenWith(outcome, { storeError: e });
    }
    return outcome;
  }

  /** A turn's call whose id has a settled call stored (see runTurn step 1). */
  #replaySettled(identity: CallIdentity, settled: SettledCall, scope: CallScope): SettledCallOutcome {
    return (
      this.#otherCall(identity, settled, scope) ??
      frozenWith(fromStored(identity, settled.outcome), { call: identity.call })
    );
  }

  /**
   * `error` when the call stored (settled or running) under the id of a turn's call is another
   * principal's; `call-id-conflict` when of another tool or with other arguments; else undefined.
   */
  #otherCall(
    identity: CallIdentity,
    stored: Pick<SettledCall, 'tool' | 'argumentsDigest' | 'principal'>,
    scope: CallScope,
  ): SettledCallOutcome | undefined {
    const { call } = identity;
    if (stored.principal !== scope.principal) {
      const why = new Error(
        `runtime: call id ${JSON.stringify(call.id)} is stored for another principal; provider call ids are unique ` +
          'within a thread, so the tool did not run',
      );
      return settledOf(identity, { error: why }, { kind: 'error' });
    }
    if (stored.tool !== call.request.name || !this.#sameArguments(call, stored.argumentsDigest)) {
      return conflictOf(identity, scope.threadId, `a call of tool ${JSON.stringify(stored.tool)}`);
    }
    return undefined;
  }

  /**
   * Whether `call` carries the arguments whose digest is `digest`: equal as JSON values to its text
   * as proposed, or to the normalized text admission makes of it (admission only: nothing is
   * authorized or run); or, for a digest an earlier release stored, equal as text.
   */
  #sameArguments(call: ProviderToolCall, digest: string): boolean {
    const proposed = call.request.arguments;
    if (argumentsDigest(proposed) === digest || textDigest(proposed) === digest) return true;
    try {
      const normalized = prepareToolCall(this.#registry, call).invocation.normalizedArguments;
      return argumentsDigest(normalized) === digest || textDigest(normalized) === digest;
    } catch {
      return false;
    }
  }

  /** Runs an admitted invocation through its Binding; what it throws becomes the outcome. */
  async #call(
    binding: Binding,
    invocation: Invocation,
    scope: CallScope,
    idempotencyKey: string | undefined,
  ): Promise<ToolOutcome> {
    try {
      const result: Result = await binding.call(invocation, {
        signal: scope.signal,
        context: scope.context,
        idempotencyKey,
        // Under the lease, whatever the binding declares (docs/runtime.md, Replayed turns).
        timeoutMs: this.#timeoutMs ?? this.#leaseMs - 1,
      });
      return { result };
    } catch (e) {
      return { error: e };
    }
  }

  /**
   * Counts the call against the budgets, only while they have room (one atomic countCall), and a
   * call id once per thread and tool (a replay of a call that ran and ended `error` runs without
   * counting again; the id reused for another tool counts again); the model-facing text when a
   * budget is spent (nothing counted), else undefined.
   */
  async #spend(threadId: string, tool: string, callId: string): Promise<string | undefined> {
    if (this.#perTool === undefined && this.#total === undefined) return undefined;
    const options: { callId?: string; perTool?: number; total?: number } = {};
    if (callId !== '') options.callId = countKeyOf(tool, callId);
    if (this.#perTool !== undefined) options.perTool = this.#perTool;
    if (this.#total !== undefined) options.total = this.#total;
    const counts = await this.#store.countCall(threadId, tool, options);
    if (counts.counted) return undefined;
    if (this.#perTool !== undefined && counts.tool >= this.#perTool) return text.toolBudgetSpent(tool, this.#perTool);
    return text.totalBudgetSpent(this.#total as number);
  }

  /**
   * Commits the suspension of round `round`, then announces it. A commit that finds the key taken
   * (a replay after a crash) announces what the store holds instead. Rejects when the store does.
   */
  async #suspend(
    identity: CallIdentity,
    binding: Binding,
    invocation: Invocation,
    request: InputRequest,
    round: number,
    scope: CallScope,
  ): Promise<CallOutcome> {
    const now = this.#now();
    const args = invocation.normalizedArguments;
    const record: SuspensionRecord = Object.freeze({
      version: SUSPENSION_RECORD_VERSION,
      threadId: scope.threadId,
      callId: roundKey(identity.call.id, round),
      tool: binding.contract.name,
      contractFingerprint: contractFingerprint(binding.contract.definition()),
      arguments: args,
      argumentsDigest: argumentsDigest(args),
      principal: scope.principal,
      inputRequest: JSON.stringify(request),
      idempotencyKey: identity.idempotencyKey as string,
      createdAt: now,
      expiresAt: now + this.#ttlMs,
    });
    if (await this.#store.commit(record)) {
      return frozenWith(identity, { kind: 'suspended' as const, replayed: false, inputRequest: request, record });
    }
    const found = await this.#store.get({ threadId: scope.threadId, callId: record.callId });
    if (found === undefined) {
      throw new Error(`runtime: store.commit found ${JSON.stringify(record.callId)} taken but get finds no record`);
    }
    return this.#replay(identity, found, scope);
  }

  /**
   * What a stored call resolves to in a turn, without running the tool: its stored outcome (after
   * following its rounds), its waiting request re-announced, or `expired`.
   */
  async #replay(identity: CallIdentity, first: Stored, scope: CallScope): Promise<CallOutcome> {
    const { call } = identity;
    // A record with another call's idempotency key belongs to another call (a store written by
    // hand, or by a release that took provider ids of the form `<id>#<n>`). Never this call's.
    const mismatch =
      first.record.idempotencyKey !== identity.idempotencyKey
        ? `key ${JSON.stringify(first.record.callId)} is stored for call ${JSON.stringify(providerCallIdOf(first.record).callId)}`
        : first.record.principal !== scope.principal
          ? `call id ${JSON.stringify(call.id)} is stored for another principal`
          : undefined;
    if (mismatch !== undefined) {
      const why = new Error(
        `runtime: ${mismatch}; provider call ids are unique within a thread, so the tool did not run`,
      );
      return settledOf(identity, { error: why }, { kind: 'error' });
    }
    if (first.record.tool !== call.request.name || !this.#sameArguments(call, first.record.argumentsDigest)) {
      return conflictOf(identity, scope.threadId, `a suspended call of tool ${JSON.stringify(first.record.tool)}`);
    }
    const current = await this.#currentRound(scope.threadId, call.id, providerCallIdOf(first.record).round, first);
    if (current === undefined) {
      return settledOf(
        identity,
        { error: new Error('runtime: a round of the call is missing from the store') },
        { kind: 'error' },
      );
    }
    const { found } = current;
    if (found.outcome !== undefined) {
      const stored = fromStored(identity, found.outcome);
      return frozenWith(stored, { call });
    }
    if (this.#now() > found.record.expiresAt) {
      return statedOf(identity, 'expired', text.expiredCall(found.record.tool), true);
    }
    return frozenWith(identity, {
      kind: 'suspended' as const,
      replayed: true,
      inputRequest: InputRequest.parse(found.record.inputRequest),
      record: found.record,
    });
  }

  /**
   * Follows a call's rounds from `first` (round `round`) while their stored outcome is `suspended`
   * (a resume that suspended again), or missing while the next round is committed (a `finish`
   * that failed): the record of the current round. Undefined when a round is
   * missing or there are more than MAX_SUSPENSION_ROUNDS.
   */
  async #currentRound(
    threadId: string,
    callId: string,
    round: number,
    first: Stored,
  ): Promise<{ readonly found: Stored; readonly round: number } | undefined> {
    let found = first;
    let at = round;
    // A round without an outcome whose next round is committed was answered (its `finish` failed).
    while (found.outcome === undefined || found.outcome.kind === 'suspended') {
      const asked = found.outcome?.kind === 'suspended';
      if (at + 1 > MAX_SUSPENSION_ROUNDS) return asked ? undefined : { found, round: at };
      const next = await this.#store.get({ threadId, callId: roundKey(callId, at + 1) });
      if (next === undefined) return asked ? undefined : { found, round: at };
      found = next;
      at += 1;
    }
    return { found, round: at };
  }

  /** Runs a taken record with the answer (see resume). */
  async #runResumed(
    identity: CallIdentity,
    record: SuspensionRecord,
    continuation: Continuation,
    round: number,
    scope: CallScope,
  ): Promise<CallOutcome> {
    const binding = this.#registry.resolve(record.tool);
    if (binding === undefined || contractFingerprint(binding.contract.definition()) !== record.contractFingerprint) {
      return statedOf(identity, 'tool-changed', text.toolChanged(record.tool));
    }
    if (
      argumentsDigest(record.arguments) !== record.argumentsDigest &&
      textDigest(record.arguments) !== record.argumentsDigest
    ) {
      const why = new Error(
        `runtime: the stored arguments of call ${JSON.stringify(record.callId)} do not match their digest ` +
          '(the record was changed outside scope-tool), so the tool did not run',
      );
      return settledOf(identity, { error: why }, { kind: 'error' });
    }
    let invocation: Invocation;
    try {
      invocation = binding.contract.prepare({ name: record.tool, arguments: record.arguments }, continuation);
    } catch (e) {
      return settledOf(identity, { error: e }, { signal: scope.signal });
    }
    const result = await this.#call(binding, invocation, scope, record.idempotencyKey);
    if ('result' in result && 'inputRequest' in result.result) {
      if (round >= MAX_SUSPENSION_ROUNDS) {
        // The round past the cap is not committed: the call ends here, for good.
        const diagnostic = text.tooManyRoundsError(identity.threadId, identity.call.id, MAX_SUSPENSION_ROUNDS);
        return statedOf(identity, 'failed', text.tooManyRounds(record.tool, MAX_SUSPENSION_ROUNDS), false, diagnostic);
      }
      return this.#suspend(identity, binding, invocation, result.result.inputRequest, round + 1, scope);
    }
    return settledOf(identity, result, { signal: scope.signal });
  }
}

/**
 * The provider call id and round of a record: the call id and round its key encodes (identity.ts
 * roundKey: `<id>#<n>` is round n of call `<id>`, `<id>#1` round 1 of an id that ends in `#` and
 * digits), when its idempotency key is that call's; any other record (one an earlier release
 * stored under a provider id such as `x#1`) is round 1 of the call named by its key.
 */
export function providerCallIdOf(record: SuspensionRecord): { readonly callId: string; readonly round: number } {
  const decoded = roundOfKey(record.callId);
  if (decoded !== undefined && idempotencyKeyOf(record.threadId, decoded.callId) === record.idempotencyKey) {
    return decoded;
  }
  return { callId: record.callId, round: 1 };
}

/** How long a turn first waits before it looks again at a call another turn runs, in ms (doubling). */
const FIRST_POLL_MS = 10;
/** The longest pause between two looks at a call another turn runs, in ms. */
const MAX_POLL_MS = 200;
/** How long past the call's deadline (or the lease) a turn waits for another turn's outcome, in ms. */
const WAIT_GRACE_MS = 1_000;

/** The outcome kinds of a turn's call that `settle` stores. */
const SETTLED_KINDS: ReadonlySet<SettledCallOutcome['kind']> = new Set(['completed', 'refused', 'rejected', 'failed']);

/**
 * Refuses a caller's id that no store keeps (turn-input.ts): over `max` UTF-8 bytes (MAX_ID_BYTES,
 * lib/runtime/store.ts), or holding a NUL or a lone surrogate.
 * @throws RuntimeError ERR_ID_TOO_LONG, ERR_INVALID_TURN
 */
function checkIdBytes(operation: string, field: string, value: string, max = MAX_ID_BYTES): void {
  checkCallerId(operation, field, value, max);
}

/** `call-id-conflict`: the call's id is stored for `stored` with other arguments or another tool. */
function conflictOf(identity: CallIdentity, threadId: string, stored: string): SettledCallOutcome {
  const diagnostic = text.callIdConflictError(threadId, identity.call.id, `${stored} with other arguments`);
  return statedOf(identity, 'call-id-conflict', text.callIdConflict(identity.call.request.name), false, diagnostic);
}

/** The identity of a stored call: its provider call id, stored tool and arguments, its key. */
function identityOf(threadId: string, callId: string, record: SuspensionRecord): CallIdentity {
  return {
    threadId,
    call: { id: callId, request: { name: record.tool, arguments: record.arguments } },
    idempotencyKey: record.idempotencyKey,
  };
}

/** `already-answered`, carrying the stored outcome when it is final. */
function answered(identity: CallIdentity, stored: StoredOutcome | undefined): SettledCallOutcome {
  if (stored === undefined || stored.kind === 'suspended') {
    return statedOf(identity, 'already-answered', text.answerRunning(identity.call.request.name), true);
  }
  const previous = fromStored(identity, stored);
  return frozenWith(previous, { kind: 'already-answered' as const, previous });
}

/**
 * The Continuation of `answer` to the record's stored request.
 * @throws RuntimeError ERR_INVALID_ANSWER when the answer is not JSON text its response schema admits
 */
function continuationOf(record: SuspensionRecord, answer: string): Continuation {
  const request = InputRequest.parse(record.inputRequest);
  try {
    return request.continuation(answer);
  } catch (e) {
    const issues = e instanceof ToolError ? e.issues.map((i) => ({ path: i.path, message: i.message })) : [];
    const detail = detailOf(e);
    throw text.invalidAnswer(record.callId, detail, issues, e);
  }
}
