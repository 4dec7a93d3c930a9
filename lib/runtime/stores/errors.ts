/**
 * The one error class of the suspension stores (lib/runtime/store.ts). Match on `code`, never on
 * the message; a driver's own error travels as the standard `cause`.
 */

/**
 * The error codes of the stores:
 * - `ERR_STORE_INVALID_RECORD`: a SuspensionRecord (given to `commit`, or read back from the
 *   database) is not well-formed or not of version SUSPENSION_RECORD_VERSION; the message names the field;
 * - `ERR_STORE_INVALID_ARGUMENT`: a key, outcome, instant, filter or token id given to a method is
 *   not well-formed; the message names the parameter;
 * - `ERR_STORE_ID_TOO_LONG`: a thread id, call id, principal, tool name or token id is longer than
 *   MAX_ID_BYTES (1,024) bytes of UTF-8 (a record's call id: 4 more, for `#<round>`), in a record,
 *   a key, a filter or a settled call; the message names the field;
 * - `ERR_STORE_NOT_TAKEN`: `finish` on a record that this claim does not own (missing, waiting,
 *   expired, finished, or taken under another claim);
 * - `ERR_STORE_CLOSED`: the store was closed;
 * - `ERR_STORE_DRIVER`: the database driver failed (connection lost, disk full, lock timeout);
 * - `ERR_STORE_DRIVER_MISSING`: the optional driver package (better-sqlite3, pg) is not installed;
 * - `ERR_STORE_DRIVER_LOAD`: the driver package is installed but could not be loaded (for example
 *   a native module built for another Node.js version);
 * - `ERR_STORE_SCHEMA`: the database holds tables of another scope-tool store schema version.
 */
export type StoreErrorCode =
  | 'ERR_STORE_INVALID_RECORD'
  | 'ERR_STORE_INVALID_ARGUMENT'
  | 'ERR_STORE_ID_TOO_LONG'
  | 'ERR_STORE_NOT_TAKEN'
  | 'ERR_STORE_CLOSED'
  | 'ERR_STORE_DRIVER'
  | 'ERR_STORE_DRIVER_MISSING'
  | 'ERR_STORE_DRIVER_LOAD'
  | 'ERR_STORE_SCHEMA';

/** An error of a suspension store. The message says which store, what failed and what to do. */
export class StoreError extends Error {
  /** The stable error code (see StoreErrorCode). */
  readonly code: StoreErrorCode;

  /**
   * @param code - the error code
   * @param message - the full message: `<store>: <operation>: <what was wrong>; <what to do>`
   * @param cause - the driver's error, when there is one
   */
  constructor(code: StoreErrorCode, message: string, cause?: unknown) {
    super(message);
    if (cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: cause, writable: true, configurable: true, enumerable: false });
    }
    this.name = 'StoreError';
    this.code = code;
  }
}

/** Wraps a driver failure of `operation` in `store` as ERR_STORE_DRIVER (a StoreError passes unchanged). @internal */
export function _driverError(store: string, operation: string, err: unknown): StoreError {
  if (err instanceof StoreError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreError(
    'ERR_STORE_DRIVER',
    `${store}: ${operation} failed in the database driver: ${detail}; check the database and retry`,
    err,
  );
}

/** The error of any operation on a closed store. @internal */
export function _closedError(store: string, operation: string): StoreError {
  return new StoreError('ERR_STORE_CLOSED', `${store}: ${operation}: the store is closed; open a new store to go on`);
}
