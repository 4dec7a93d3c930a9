/**
 * Issue 11, item 10 in NestJS: `ScopeToolModule.forRoot({ timeoutMs })` is the deadline of every
 * tool whose `@Tool()` sets none; a bad value fails start-up.
 */
import 'reflect-metadata';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { DEFAULT_TIMEOUT_MS } from '../../lib/protocol';
import { ClockModule, MANIFEST, start, startFailure } from './fixtures';

describe('forRoot({ timeoutMs })', () => {
  it('sets the deadline of the discovered tools (default 60,000 ms without it)', async () => {
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, timeoutMs: 1234 }), ClockModule],
    });
    expect(app.get(ToolRegistry).resolve('now')?.timeoutMs).toBe(1234);
    await app.close();
    const plain = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
    expect(plain.get(ToolRegistry).resolve('now')?.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    await plain.close();
  });

  it('fails start-up on a timeout that is not a whole number of ms from 1 to 2147483647 nor Infinity', async () => {
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, timeoutMs: -1 }), ClockModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain('options.timeoutMs is -1');
  });
});
