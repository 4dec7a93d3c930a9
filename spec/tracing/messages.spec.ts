/**
 * The wording of lib/tracing/messages.ts, tested once here; other specs assert codes.
 */
import { invalidTracing, tracingUnavailable } from '../../lib/tracing/messages';

describe('tracing messages', () => {
  it('a missing @opentelemetry/api names the package, the install command and the way out', () => {
    const cause = new Error("Cannot find module '@opentelemetry/api'");
    const error = tracingUnavailable('new Runtime(config)', true, cause);
    expect(error).toMatchObject({ name: 'TracingError', code: 'ERR_TRACING_UNAVAILABLE', cause });
    expect(error.message).toBe(
      'new Runtime(config): tracing needs "@opentelemetry/api", which is not installed; it is an optional peer ' +
        'dependency of scope-tool: run `npm install @opentelemetry/api@1` (and an OpenTelemetry SDK to export ' +
        'the spans), or leave the tracing option out',
    );
  });

  it('an @opentelemetry/api that fails to load says why', () => {
    const error = tracingUnavailable('createMcpServer(registry, options)', false, new Error('boom'));
    expect(error.message).toContain('which is installed but failed to load (boom)');
  });

  it('a bad option names its owner and field', () => {
    expect(invalidTracing('new Runtime(config)', 'tracing.recordResults', 'must be a boolean').message).toBe(
      'new Runtime(config): tracing.recordResults must be a boolean',
    );
  });
});
