/**
 * Method tools with deadlines (lib/container/method-tool.ts): `@Tool({ timeoutMs })` and
 * createRegistry's `timeoutMs` reach the binding (a DeadlineTool that bind reads through the
 * Guards). Deadlines are small; the tests assert outcomes, never elapsed time.
 */
import 'reflect-metadata';
import { IsOptional, IsString } from 'class-validator';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import { createRegistry } from '../../lib/container';
import { DEFAULT_TIMEOUT_MS, Failure } from '../../lib/protocol';
import type { Binding } from '../../lib/protocol';
import { renderOutcome } from '../../lib/providers';
import { entry, manifest } from './fixtures';

let seen: AbortSignal | undefined;

class HangInput {
  @IsOptional() @IsString() note?: string;
}
const HANG_SCHEMA = { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: false };

@Toolset()
@Authorize(() => true)
class SlowTools {
  /** Never settles: only the deadline ends it. */
  @Tool({ name: 'hang', timeoutMs: 20 })
  hang(_input: HangInput, call: ToolCall): Promise<string> {
    seen = call.signal;
    return new Promise<string>(() => undefined);
  }

  @Tool({ name: 'plain' })
  plain(): Promise<string> {
    return new Promise<string>(() => undefined);
  }

  @Tool({ name: 'unbounded', timeoutMs: Infinity })
  unbounded(): string {
    return 'done';
  }
}

const MANIFEST = manifest(
  entry('hang', 'SlowTools', 'hang', 'HangInput', HANG_SCHEMA),
  entry('plain', 'SlowTools', 'plain', null),
  entry('unbounded', 'SlowTools', 'unbounded', null),
);

function binding(registry: { resolve(name: string): Binding | undefined }, name: string): Binding {
  const found = registry.resolve(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

async function errorOf(b: Binding, name: string): Promise<unknown> {
  return b.call(b.contract.prepare({ name, arguments: '{}' })).then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('deadlines of decorated tools', () => {
  it('ends a method that never settles at its @Tool({ timeoutMs }) deadline, aborting call.signal', async () => {
    const registry = createRegistry({ manifest: MANIFEST, toolsets: [new SlowTools()] });
    const b = binding(registry, 'hang');
    expect(b.timeoutMs).toBe(20);
    const error = await errorOf(b, 'hang');
    expect(error).toBeInstanceOf(Failure);
    expect((error as Failure).kind).toBe('failed');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe((error as Failure).diagnosticCause);
    expect((error as Failure).diagnosticCause).toMatchObject({ name: 'TimeoutError' });
    // The model is told which tool ran out of time and the deadline, in ms.
    const told = renderOutcome('hang', { error }).output.asText();
    expect(told).toContain('"hang"');
    expect(told).toContain(' 20 ms');
  });

  it("applies createRegistry's timeoutMs to the tools without their own, and the default otherwise", async () => {
    const registry = createRegistry({ manifest: MANIFEST, toolsets: [new SlowTools()], timeoutMs: 25 });
    expect(binding(registry, 'hang').timeoutMs).toBe(20);
    expect(binding(registry, 'unbounded').timeoutMs).toBe(Infinity);
    const plain = binding(registry, 'plain');
    expect(plain.timeoutMs).toBe(25);
    const error = await errorOf(plain, 'plain');
    expect((error as Failure).diagnosticCause).toMatchObject({ name: 'TimeoutError' });
    expect(renderOutcome('plain', { error }).output.asText()).toContain(' 25 ms');
    const defaults = createRegistry({ manifest: MANIFEST, toolsets: [new SlowTools()] });
    expect(binding(defaults, 'plain').timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });

  it.each([[-1], [0], [NaN], [2.5], ['60000']])('refuses createRegistry({ timeoutMs: %p })', (value) => {
    expect(() =>
      createRegistry({ manifest: MANIFEST, toolsets: [new SlowTools()], timeoutMs: value as number }),
    ).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_TOOL',
        message: expect.stringContaining('createRegistry: options.timeoutMs is '),
      }),
    );
  });
});
