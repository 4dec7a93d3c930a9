/**
 * Checks and (de)serializes what the stores keep: SuspensionRecord and StoredOutcome as JSON text,
 * keys, filters and instants. Every store runs the same checks, so they refuse the same inputs.
 * @internal
 */
import {
  DEFAULT_LEASE_MS,
  MAX_ID_BYTES,
  SUSPENSION_RECORD_VERSION,
  type CallKey,
  type CountOptions,
  type RunningCall,
  type SettledCall,
  type StoredOutcome,
  type SuspensionRecord,
} from '../store';
import { hasPlainPrototype } from '../../protocol/json';
import { StoreError, type StoreErrorCode } from './errors';
import { frozenWith } from '../frozen';

const RECORD_FIELDS = [
  'version',
  'threadId',
  'callId',
  'tool',
  'contractFingerprint',
  'arguments',
  'argumentsDigest',
  'principal',
  'inputRequest',
  'idempotencyKey',
  'createdAt',
  'expiresAt',
] as const;
const OUTCOME_KINDS = new Set(['completed', 'suspended', 'refused', 'rejected', 'failed', 'expired', 'error']);
const OUTCOME_FIELDS = new Set(['kind', 'output', 'inputRequest', 'message']);
const SHA256 = /^sha256:[0-9a-f]{64}$/;
// A NUL cannot be stored in a PostgreSQL text column, and a lone surrogate would be changed to
// U+FFFD on its way to the database, so two keys could collide: neither is admitted in a key.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  return typeof value;
}

/** A plain object of any realm (a record a workflow engine parsed in a vm context is one). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && hasPlainPrototype(value);
}

/** How a check fails: the detail, and a code other than the check's own (ERR_STORE_ID_TOO_LONG). */
type Fail = (detail: string, code?: StoreErrorCode) => never;

/** The bytes a record's callId may hold beyond MAX_ID_BYTES: `#<round>`, round ≤ 100. */
const ROUND_SUFFIX_BYTES = 4;

/** Refuses an id of more than `max` UTF-8 bytes with ERR_STORE_ID_TOO_LONG. */
function idLength(value: string, where: string, fail: Fail, max = MAX_ID_BYTES): void {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short strings need no count.
  if (value.length * 3 <= max) return;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > max) {
    fail(`${where}: ${bytes} bytes of UTF-8, over the ${max} a store keeps (MAX_ID_BYTES)`, 'ERR_STORE_ID_TOO_LONG');
  }
}

function keyString(value: unknown, where: string, fail: Fail, max = MAX_ID_BYTES): string {
  if (typeof value !== 'string' || value === '')
    fail(`${where}: expected a non-empty string, received ${describe(value)}`);
  if (UNSTORABLE.test(value as string)) fail(`${where}: contains a NUL or a lone surrogate, which no store can keep`);
  idLength(value as string, where, fail, max);
  return value as string;
}

/** A principal: a string ('' for anonymous) without NUL or lone surrogates, at most MAX_ID_BYTES. */
function principalString(value: unknown, where: string, fail: Fail): string {
  if (typeof value !== 'string') fail(`${where}: expected a string, received ${describe(value)}`);
  if (UNSTORABLE.test(value as string)) fail(`${where}: contains a NUL or a lone surrogate`);
  idLength(value as string, where, fail);
  return value as string;
}

function instant(value: unknown, where: string, fail: Fail): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(`${where}: expected ms since the epoch (a non-negative safe integer), received ${describe(value)}`);
  }
  return value;
}

/**
 * Checks a record given to `commit` (or read back from a database) and returns a plain copy of its
 * known fields, frozen.
 * @throws StoreError ERR_STORE_INVALID_RECORD naming the first field that is wrong
 */
export function checkRecord(store: string, operation: string, value: unknown): SuspensionRecord {
  const fail = (detail: string, code: StoreErrorCode = 'ERR_STORE_INVALID_RECORD'): never => {
    throw new StoreError(
      code,
      `${store}: ${operation}: invalid suspension record: ${detail}; build the record as lib/runtime/store.ts describes`,
    );
  };
  if (!isPlainObject(value)) fail(`expected a plain JSON object, received ${describe(value)}`);
  const record = value as Record<string, unknown>;
  if (record.version !== SUSPENSION_RECORD_VERSION) {
    fail(
      `version: expected ${SUSPENSION_RECORD_VERSION} (SUSPENSION_RECORD_VERSION), received ${describe(record.version)}` +
        ' (a record of another version is written by another scope-tool release: resume it with that release)',
    );
  }
  for (const key of Object.keys(record)) {
    if (!(RECORD_FIELDS as readonly string[]).includes(key)) fail(`${JSON.stringify(key)}: unknown member`);
  }
  keyString(record.threadId, 'threadId', fail);
  keyString(record.callId, 'callId', fail, MAX_ID_BYTES + ROUND_SUFFIX_BYTES);
  keyString(record.tool, 'tool', fail);
  for (const field of ['contractFingerprint', 'argumentsDigest'] as const) {
    if (typeof record[field] !== 'string' || !SHA256.test(record[field] as string)) {
      fail(`${field}: expected "sha256:" and 64 lower-case hex digits, received ${describe(record[field])}`);
    }
  }
  if (typeof record.arguments !== 'string')
    fail(`arguments: expected a JSON text, received ${describe(record.arguments)}`);
  principalString(record.principal, 'principal', fail);
  if (typeof record.inputRequest !== 'string' || record.inputRequest === '') {
    fail(`inputRequest: expected the InputRequest wire JSON text, received ${describe(record.inputRequest)}`);
  }
  keyString(record.idempotencyKey, 'idempotencyKey', fail);
  instant(record.createdAt, 'createdAt', fail);
  instant(record.expiresAt, 'expiresAt', fail);
  const copy: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) copy[field] = record[field];
  return Object.freeze(copy) as unknown as SuspensionRecord;
}

/** The `fail` of checkOutcome (made here: a closure named where it is made costs a defineProperty per call in the build). */
function outcomeFailer(store: string, operation: string, code: Code): (detail: string) => never {
  return (detail) => {
    throw new StoreError(code, `${store}: ${operation}: invalid outcome: ${detail}; pass a StoredOutcome`);
  };
}

/**
 * Checks an outcome given to `finish` (or read back) and returns a frozen plain copy.
 * @throws StoreError ERR_STORE_INVALID_ARGUMENT naming the field (ERR_STORE_INVALID_RECORD when read back)
 */
export function checkOutcome(
  store: string,
  operation: string,
  value: unknown,
  code: 'ERR_STORE_INVALID_ARGUMENT' | 'ERR_STORE_INVALID_RECORD' = 'ERR_STORE_INVALID_ARGUMENT',
): StoredOutcome {
  const fail = outcomeFailer(store, operation, code);
  if (!isPlainObject(value)) fail(`expected a plain JSON object, received ${describe(value)}`);
  const outcome = value as Record<string, unknown>;
  for (const key of Object.keys(outcome)) if (!OUTCOME_FIELDS.has(key)) fail(`${JSON.stringify(key)}: unknown member`);
  if (typeof outcome.kind !== 'string' || !OUTCOME_KINDS.has(outcome.kind)) {
    fail(`kind: expected one of ${[...OUTCOME_KINDS].join(', ')}, received ${describe(outcome.kind)}`);
  }
  const copy: Record<string, unknown> = { kind: outcome.kind };
  for (const field of ['output', 'inputRequest', 'message'] as const) {
    if (outcome[field] === undefined) continue;
    if (typeof outcome[field] !== 'string') fail(`${field}: expected a string, received ${describe(outcome[field])}`);
    copy[field] = outcome[field];
  }
  return Object.freeze(copy) as unknown as StoredOutcome;
}

function argumentError(store: string, operation: string): Fail {
  return (detail: string, code: StoreErrorCode = 'ERR_STORE_INVALID_ARGUMENT'): never => {
    throw new StoreError(code, `${store}: ${operation}: ${detail}`);
  };
}

/**
 * Checks a CallKey.
 * @throws StoreError ERR_STORE_INVALID_ARGUMENT naming the member, ERR_STORE_ID_TOO_LONG
 */
export function checkKey(store: string, operation: string, key: unknown): CallKey {
  const fail = argumentError(store, operation);
  if (typeof key !== 'object' || key === null) fail(`key: expected { threadId, callId }, received ${describe(key)}`);
  const k = key as Record<string, unknown>;
  return {
    threadId: keyString(k.threadId, 'key.threadId', fail),
    callId: keyString(k.callId, 'key.callId', fail, MAX_ID_BYTES + ROUND_SUFFIX_BYTES),
  };
}

/**
 * Checks countCall's options: a non-empty call id, limits that are whole numbers ≥ 1.
 * @throws StoreError ERR_STORE_INVALID_ARGUMENT naming the member, ERR_STORE_ID_TOO_LONG
 */
export function checkCountOptions(store: string, operation: string, options: unknown): CountOptions {
  if (options === undefined) return {};
  const fail = argumentError(store, operation);
  if (typeof options !== 'object' || options === null) {
    fail(`options: expected { callId?, perTool?, total? }, received ${describe(options)}`);
  }
  const o = options as Record<string, unknown>;
  for (const limit of ['perTool', 'total'] as const) {
    const value = o[limit];
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)) {
      fail(`options.${limit}: expected a whole number ≥ 1, received ${describe(value)}`);
    }
  }
  const checked: { callId?: string; perTool?: number; total?: number } = {};
  if (o.callId !== undefined) checked.callId = keyString(o.callId, 'options.callId', fail);
  if (o.perTool !== undefined) checked.perTool = o.perTool as number;
  if (o.total !== undefined) checked.total = o.total as number;
  return checked;
}

/** Whether counts `tool` and `total` leave room for one more call under `options`' limits. */
export function underLimits(options: CountOptions, tool: number, total: number): boolean {
  return (
    (options.perTool === undefined || tool < options.perTool) && (options.total === undefined || total < options.total)
  );
}

/** Checks a lease in ms (a whole number ≥ 1; undefined: DEFAULT_LEASE_MS). @throws StoreError ERR_STORE_INVALID_ARGUMENT */
export function checkLease(store: string, operation: string, leaseMs: unknown): number {
  if (leaseMs === undefined) return DEFAULT_LEASE_MS;
  if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 1) {
    argumentError(store, operation)(`leaseMs: expected a whole number of ms ≥ 1, received ${describe(leaseMs)}`);
  }
  return leaseMs as number;
}

const RUNNING_FIELDS = ['threadId', 'callId', 'tool', 'argumentsDigest', 'principal'] as const;
const SETTLED_FIELDS = [...RUNNING_FIELDS, 'outcome', 'createdAt'] as const;
type Code = 'ERR_STORE_INVALID_ARGUMENT' | 'ERR_STORE_INVALID_RECORD';

/**
 * The members a RunningCall and a SettledCall share, checked: a plain object with no member outside
 * `fields`, key strings within MAX_ID_BYTES, a tool name a store can keep, a sha256 digest.
 */
function callFields(
  value: unknown,
  fields: readonly string[],
  fail: (detail: string, other?: StoreErrorCode) => never,
): RunningCall & Record<string, unknown> {
  if (!isPlainObject(value)) fail(`expected a plain JSON object, received ${describe(value)}`);
  const call = value as Record<string, unknown>;
  for (const key of Object.keys(call)) {
    if (!fields.includes(key)) fail(`${JSON.stringify(key)}: unknown member`);
  }
  keyString(call.threadId, 'threadId', fail);
  keyString(call.callId, 'callId', fail);
  // A refused call's tool name is the model's: any string a store can keep, not indexed.
  if (typeof call.tool !== 'string' || UNSTORABLE.test(call.tool)) {
    fail(`tool: expected a string without NUL or lone surrogates, received ${describe(call.tool)}`);
  }
  if (typeof call.argumentsDigest !== 'string' || !SHA256.test(call.argumentsDigest)) {
    fail(
      `argumentsDigest: expected "sha256:" and 64 lower-case hex digits, received ${describe(call.argumentsDigest)}`,
    );
  }
  principalString(call.principal, 'principal', fail);
  return call as RunningCall & Record<string, unknown>;
}

/** The `fail` of a check: throws StoreError `code` (or `other`) naming the store, operation and type. */
function failer(store: string, operation: string, type: 'SettledCall' | 'RunningCall', code: Code) {
  const what = type === 'SettledCall' ? 'settled call' : 'running call';
  return (detail: string, other?: StoreErrorCode): never => {
    throw new StoreError(other ?? code, `${store}: ${operation}: invalid ${what}: ${detail}; pass a ${type}`);
  };
}

/**
 * Checks a SettledCall given to `settle` (or read back) and returns a frozen plain copy.
 * @throws StoreError ERR_STORE_INVALID_ARGUMENT naming the field (ERR_STORE_INVALID_RECORD when
 *   read back), ERR_STORE_ID_TOO_LONG
 */
export function checkSettled(
  store: string,
  operation: string,
  value: unknown,
  code: Code = 'ERR_STORE_INVALID_ARGUMENT',
): SettledCall {
  const fail = failer(store, operation, 'SettledCall', code);
  const call = callFields(value, SETTLED_FIELDS, fail);
  const outcome = checkOutcome(store, `${operation}: outcome`, call.outcome, code);
  if (outcome.kind === 'suspended' || outcome.kind === 'expired') {
    fail(`outcome.kind: a settled call cannot be ${outcome.kind}`);
  }
  instant(call.createdAt, 'createdAt', fail);
  return frozenWith(runningCopy(call), { outcome, createdAt: call.createdAt as number });
}

/**
 * Checks a RunningCall given to `begin` (or read back) and returns a frozen plain copy.
 * @throws StoreError ERR_STORE_INVALID_ARGUMENT naming the field (ERR_STORE_INVALID_RECORD when
 *   read back), ERR_STORE_ID_TOO_LONG
 */
export function checkRunning(
  store: string,
  operation: string,
  value: unknown,
  code: Code = 'ERR_STORE_INVALID_ARGUMENT',
): RunningCall {
  return Object.freeze(runningCopy(callFields(value, RUNNING_FIELDS, failer(store, operation, 'RunningCall', code))));
}

/** A plain copy of a checked call's RunningCall members, in their documented order. */
function runningCopy(call: RunningCall): RunningCall {
  const { threadId, callId, tool, argumentsDigest, principal } = call;
  return { threadId, callId, tool, argumentsDigest, principal };
}

/**
 * Parses a running call read back from a database.
 * @throws StoreError ERR_STORE_INVALID_RECORD
 */
export function decodeRunning(store: string, operation: string, text: string): RunningCall {
  const value = parseStored(store, operation, 'running call', text);
  return checkRunning(store, `${operation}: stored running call`, value, 'ERR_STORE_INVALID_RECORD');
}

/** The JSON text a store keeps for a settled call. */
export function encodeSettled(call: SettledCall): string {
  return JSON.stringify(call);
}

/** Parses and checks a settled call read back from a database. @throws StoreError ERR_STORE_INVALID_RECORD */
export function decodeSettled(store: string, operation: string, text: string): SettledCall {
  const value = parseStored(store, operation, 'settled call', text);
  return checkSettled(store, `${operation}: stored settled call`, value, 'ERR_STORE_INVALID_RECORD');
}

/** Checks an instant `now` (ms since the epoch). @throws StoreError ERR_STORE_INVALID_ARGUMENT */
export function checkNow(store: string, operation: string, now: unknown, name = 'now'): number {
  return instant(now, name, argumentError(store, operation));
}

/**
 * Checks a non-empty key string such as a thread id, tool name or token id, of at most `max` UTF-8
 * bytes (MAX_ID_BYTES unless given). @throws StoreError ERR_STORE_INVALID_ARGUMENT, ERR_STORE_ID_TOO_LONG
 */
export function checkName(store: string, operation: string, value: unknown, name: string, max = MAX_ID_BYTES): string {
  return keyString(value, name, argumentError(store, operation), max);
}

/** Checks a ListFilter: exactly one of `threadId`, `principal`. @throws StoreError ERR_STORE_INVALID_ARGUMENT */
export function checkFilter(
  store: string,
  operation: string,
  filter: unknown,
): { readonly by: 'threadId' | 'principal'; readonly value: string } {
  const fail = argumentError(store, operation);
  if (typeof filter !== 'object' || filter === null)
    fail(`filter: expected { threadId } or { principal }, received ${describe(filter)}`);
  const f = filter as Record<string, unknown>;
  const hasThread = f.threadId !== undefined;
  const hasPrincipal = f.principal !== undefined;
  if (hasThread === hasPrincipal) fail('filter: give exactly one of threadId and principal');
  if (hasThread) return { by: 'threadId', value: keyString(f.threadId, 'filter.threadId', fail) };
  return { by: 'principal', value: principalString(f.principal, 'filter.principal', fail) };
}

/**
 * Parses the JSON text of a stored record, outcome, running or settled call (`what`).
 * @throws StoreError ERR_STORE_INVALID_RECORD when it is not JSON, naming the parser's reason
 */
function parseStored(store: string, operation: string, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new StoreError(
      'ERR_STORE_INVALID_RECORD',
      `${store}: ${operation}: a stored ${what} is not JSON (${(err as Error).message}); ` +
        'the database was changed outside scope-tool',
      err,
    );
  }
}

/** The JSON text a store keeps for a record (members in RECORD_FIELDS order). */
export function encodeRecord(record: SuspensionRecord): string {
  return JSON.stringify(record, RECORD_FIELDS as unknown as string[]);
}

/** Parses and checks a record read back from a database. @throws StoreError ERR_STORE_INVALID_RECORD */
export function decodeRecord(store: string, operation: string, text: string): SuspensionRecord {
  const value = parseStored(store, operation, 'record', text);
  return checkRecord(store, `${operation}: stored record`, value);
}

/** A row `list` read: its key and its record text. */
export interface ListedRow {
  readonly thread_id: string;
  readonly call_id: string;
  readonly record: string;
}

/**
 * The records of the rows `list` read, in order, leaving out the rows that are not records of this
 * release: a record of another SUSPENSION_RECORD_VERSION silently (another release resumes it),
 * any other unreadable row (not JSON, a field wrong) after passing its ERR_STORE_INVALID_RECORD,
 * which names the row's key, to `report` (so one bad row does not hide every waiting call).
 */
export function listedRecords(
  store: string,
  rows: readonly ListedRow[],
  report: (error: StoreError) => void,
): SuspensionRecord[] {
  const out: SuspensionRecord[] = [];
  for (const row of rows) {
    try {
      out.push(decodeRecord(store, 'list', row.record));
    } catch (err) {
      if (ofOtherVersion(row.record)) continue;
      const detail = err instanceof Error ? err.message : String(err);
      try {
        report(
          new StoreError(
            'ERR_STORE_INVALID_RECORD',
            `${store}: list: the row ${JSON.stringify(row.thread_id)}/${JSON.stringify(row.call_id)} is not a readable ` +
              `record and is left out (${detail}); repair or delete that row`,
            err,
          ),
        );
      } catch {
        // A reporter that throws must not break list for everyone.
      }
    }
  }
  return out;
}

/** Whether `text` is a JSON object whose `version` is a number other than SUSPENSION_RECORD_VERSION. */
function ofOtherVersion(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    const version = isPlainObject(value) ? value.version : undefined;
    return typeof version === 'number' && version !== SUSPENSION_RECORD_VERSION;
  } catch {
    return false;
  }
}

/** The default report of an unreadable row `list` left out: a process warning. */
export function warnUnreadable(error: StoreError): void {
  process.emitWarning(error);
}

/** Parses and checks an outcome read back from a database (undefined for none). @throws StoreError ERR_STORE_INVALID_RECORD */
export function decodeOutcome(
  store: string,
  operation: string,
  text: string | null | undefined,
): StoredOutcome | undefined {
  if (text === null || text === undefined) return undefined;
  const value = parseStored(store, operation, 'outcome', text);
  return checkOutcome(store, `${operation}: stored outcome`, value, 'ERR_STORE_INVALID_RECORD');
}

/** The outcome a store records, once, when a waiting record is taken after its expiry. */
export const EXPIRED_OUTCOME: StoredOutcome = Object.freeze({ kind: 'expired' });
