/**
 * Every text of the tracing layer: the TracingErrors its caller gets. (Spans carry no sentence:
 * their attributes are the names of docs/tracing.md.)
 */
import { TracingError } from './errors';

/** `@opentelemetry/api` is not installed (or fails to load) while tracing was asked for. */
export function tracingUnavailable(where: string, missing: boolean, cause: unknown): TracingError {
  const why = missing
    ? 'is not installed; it is an optional peer dependency of scope-tool'
    : `is installed but failed to load (${cause instanceof Error ? cause.message : String(cause)})`;
  return new TracingError(
    'ERR_TRACING_UNAVAILABLE',
    `${where}: tracing needs "@opentelemetry/api", which ${why}: run \`npm install @opentelemetry/api@1\` ` +
      '(and an OpenTelemetry SDK to export the spans), or leave the tracing option out',
    cause,
  );
}

/** The `tracing` option has the wrong shape. */
export function invalidTracing(where: string, field: string, want: string): TracingError {
  return new TracingError('ERR_INVALID_TRACING', `${where}: ${field} ${want}`);
}
