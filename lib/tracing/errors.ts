/**
 * The error a tracing option raises at its caller (the application, never the model).
 */

/**
 * The codes of TracingError:
 * - `ERR_TRACING_UNAVAILABLE`: tracing was asked for (`tracing: true`, or options without a
 *   `tracer`) but `@opentelemetry/api`, an optional peer dependency, is not installed or fails to
 *   load; the message gives the install command. Nothing is thrown while tracing is off;
 * - `ERR_INVALID_TRACING`: the `tracing` option is not `true`, `false`, undefined or an object
 *   `{ tracer?, recordArguments?, recordResults? }` with a Tracer and booleans.
 */
export type TracingErrorCode = 'ERR_TRACING_UNAVAILABLE' | 'ERR_INVALID_TRACING';

/** An Error with a `code`; `cause` is the load error for ERR_TRACING_UNAVAILABLE. */
export class TracingError extends Error {
  /** Why: see TracingErrorCode. */
  readonly code: TracingErrorCode;

  constructor(code: TracingErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TracingError';
    this.code = code;
  }
}
