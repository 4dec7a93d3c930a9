/**
 * A call has a deadline. A policy or tool that never settles, called without a
 * signal, ends at the binding's (or the call's) deadline as a classified Failure the model reads.
 * Deadlines are small (20 to 50 ms); the tests assert outcomes, never elapsed time.
 */
import {
  DEFAULT_TIMEOUT_MS,
  Failure,
  FuncTool,
  Guard,
  MAX_TIMEOUT_MS,
  Output,
  Registry,
  ToolError,
  bind,
  classifyFailure,
} from '../../lib/protocol';
import type { CallOptions, Definition, JsonValue, Tool } from '../../lib/protocol';
import * as protocol from '../../lib/protocol';
import { getEventListeners } from 'node:events';
import { renderOutcome } from '../../lib/providers';
import { FakeTool, Wrapper, rejectionOf, thrownBy } from './helpers';

const def: Definition = { name: 't', inputSchema: { type: 'object' } };
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const prepare = (binding: ReturnType<typeof bind>) => binding.contract.prepare({ name: 't', arguments: '{}' });

/** A tool that declares its deadline (what `@Tool({ timeoutMs })` gives a method tool). */
class DeclaringTool extends Wrapper {
  constructor(
    inner: Tool,
    private readonly declared: () => unknown,
  ) {
    super(inner);
  }
  timeoutMs(): number | undefined {
    return this.declared() as number | undefined;
  }
}

/** Asserts `error` is the deadline's Failure for tool "t" after `ms` and returns its cause. */
function expectTimedOut(error: unknown, ms: number): DOMException {
  expect(error).toBeInstanceOf(Failure);
  const failure = error as Failure;
  expect(failure.kind).toBe('failed');
  expect(failure.output.asText()).toBe(`error: tool "t" timed out after ${ms} ms`);
  expect(classifyFailure(error)).toBe(failure);
  const cause = failure.diagnosticCause as DOMException;
  expect(cause).toBeInstanceOf(DOMException);
  expect(cause.name).toBe('TimeoutError');
  expect(cause.message).toBe(`tool "t" timed out after ${ms} ms`);
  return cause;
}

/** The number of active Node.js timers (setTimeout/setInterval handles). */
const activeTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('a call has a deadline', () => {
  it('ends a call whose policy never settles (no signal given) with a failed Failure, aborting the signal the policy got', async () => {
    let seen: AbortSignal | undefined;
    const tool = new FakeTool(def);
    const guard = new Guard({
      tool,
      authorizer: (_a, options) => {
        seen = options.signal;
        return never<boolean>();
      },
    });
    const binding = bind(guard, { timeoutMs: 30 });
    const cause = expectTimedOut(await rejectionOf(binding.call(prepare(binding))), 30);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(cause);
    expect(tool.calls).toHaveLength(0);
  });

  it('ends a call whose tool never settles (no signal given), aborting the signal the tool got', async () => {
    let seen: AbortSignal | undefined;
    const binding = bind(
      new FakeTool(def, (_i, options) => {
        seen = options?.signal;
        return never();
      }),
      { timeoutMs: 20 },
    );
    const cause = expectTimedOut(await rejectionOf(binding.call(prepare(binding))), 20);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(cause);
  });

  it('ends a FuncTool whose function never settles, through a Guard, and swallows its late rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      let seen: AbortSignal | undefined;
      const fn = FuncTool.create(
        { name: 't', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v },
        (_input, call) => {
          seen = call.signal;
          // Honors the signal: rejects with its reason once the deadline aborts it.
          return new Promise<never>((_resolve, reject) =>
            call.signal?.addEventListener('abort', () => reject(call.signal?.reason)),
          );
        },
      );
      const binding = bind(new Guard({ tool: fn, authorizer: () => true }), { timeoutMs: 20 });
      const cause = expectTimedOut(await rejectionOf(binding.call(prepare(binding), { context: 'tenant-1' })), 20);
      expect(seen?.reason).toBe(cause);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('shows the model the timed-out text through renderOutcome', async () => {
    const binding = bind(new FakeTool(def, () => never()), { timeoutMs: 20 });
    const error = await rejectionOf(binding.call(prepare(binding)));
    expect(renderOutcome('t', { error })).toEqual({
      kind: 'failed',
      isError: true,
      output: Output.text('error: tool "t" timed out after 20 ms'),
    });
  });

  it('takes the smaller of the call deadline and the binding deadline', async () => {
    const binding = bind(new FakeTool(def, () => never()));
    expect(binding.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expectTimedOut(await rejectionOf(binding.call(prepare(binding), { timeoutMs: 25 })), 25);
    const short = bind(new FakeTool(def, () => never()), { timeoutMs: 20 });
    expectTimedOut(await rejectionOf(short.call(prepare(short), { timeoutMs: 10_000 })), 20);
    const none = bind(new FakeTool(def, () => never()), { timeoutMs: Infinity });
    expect(none.timeoutMs).toBe(Infinity);
    expectTimedOut(await rejectionOf(none.call(prepare(none), { timeoutMs: 20 })), 20);
  });

  it('keeps a result that settled before the deadline, and leaves no timer behind', async () => {
    let seen: AbortSignal | undefined;
    const before = activeTimers();
    let armed = -1;
    const binding = bind(
      new FakeTool(def, async (_i, options) => {
        seen = options?.signal;
        // Settles after a macrotask turn, so the deadline's timer is armed meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        armed = activeTimers();
        return { output: Output.text('done') };
      }),
      { timeoutMs: 50 },
    );
    const result = await binding.call(prepare(binding));
    expect(result).toEqual({ output: Output.text('done') });
    expect(armed).toBe(before + 1);
    expect(activeTimers()).toBe(before);
    // The call settled: its deadline never aborts the signal the tool kept.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen?.aborted).toBe(false);
  });

  it('arms no timer for a call that settles at once', async () => {
    const before = activeTimers();
    const binding = bind(new Guard({ tool: new FakeTool(def), authorizer: () => true }), { timeoutMs: 20 });
    const pending = binding.call(prepare(binding));
    await Promise.resolve();
    await Promise.resolve();
    expect(activeTimers()).toBe(before);
    expect(await pending).toEqual({ output: Output.text('ok') });
  });

  it("keeps the caller's abort reason (a cancellation, not a timeout), for a pending policy and a pending tool", async () => {
    const reason = new Error('user pressed stop');
    const controller = new AbortController();
    const policy = bind(new Guard({ tool: new FakeTool(def), authorizer: () => never<boolean>() }), {
      timeoutMs: 10_000,
    });
    const pendingPolicy = policy.call(prepare(policy), { signal: controller.signal });
    let seen: AbortSignal | undefined;
    const tool = bind(
      new FakeTool(def, (_i, options) => {
        seen = options?.signal;
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        );
      }),
      { timeoutMs: 10_000 },
    );
    const pendingTool = tool.call(prepare(tool), { signal: controller.signal, context: 'c' });
    controller.abort(reason);
    expect(await rejectionOf(pendingPolicy)).toBe(reason);
    expect(await rejectionOf(pendingTool)).toBe(reason);
    expect(seen?.reason).toBe(reason);
    expect(renderOutcome('t', { error: reason }, { signal: controller.signal }).kind).toBe('cancelled');
  });

  it("hands the tool the caller's context and a signal already aborted with the caller's reason", async () => {
    const controller = new AbortController();
    controller.abort('gone');
    let seen: CallOptions | undefined;
    const binding = bind(
      new FakeTool(def, async (_i, options) => {
        seen = options;
        return { output: Output.empty };
      }),
    );
    await binding.call(prepare(binding), { signal: controller.signal, context: 'tenant-1' });
    expect(seen?.context).toBe('tenant-1');
    expect(seen?.signal?.aborted).toBe(true);
    expect(seen?.signal?.reason).toBe('gone');
  });

  it('reads the deadline a tool declares (DeadlineTool) through Guards, also when a Registry binds it', async () => {
    const declaring = new DeclaringTool(new FakeTool(def, () => never()), () => 20);
    const registry = new Registry(new Guard({ tool: declaring, authorizer: () => true }));
    const binding = registry.resolve('t')!;
    expect(binding.timeoutMs).toBe(20);
    expectTimedOut(await rejectionOf(binding.call(prepare(binding))), 20);
    expect(bind(declaring, { timeoutMs: 40 }).timeoutMs).toBe(40);
    expect(bind(new DeclaringTool(new FakeTool(def), () => undefined)).timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });

  it.each([
    ['-1', -1],
    ['0', 0],
    ['NaN', NaN],
    ['1.5', 1.5],
    ['-Infinity', -Infinity],
    ['2 ** 31', 2 ** 31],
    ['"100"', '100'],
    ['null', null],
  ])('refuses the timeout %s at bind, as the declared deadline and at call', async (_label, value) => {
    const bad = thrownBy(() => bind(new FakeTool(def), { timeoutMs: value as number })) as ToolError;
    expect(bad.code).toBe('ERR_INVALID_TOOL');
    expect(bad.message).toContain('timeoutMs is ');
    const declared = thrownBy(() => bind(new DeclaringTool(new FakeTool(def), () => value))) as ToolError;
    expect(declared.code).toBe('ERR_INVALID_TOOL');
    expect(declared.message).toContain('timeoutMs() of the tool is ');
    const tool = new FakeTool(def);
    const binding = bind(tool);
    const atCall = (await rejectionOf(binding.call(prepare(binding), { timeoutMs: value as number }))) as ToolError;
    expect(atCall).toBeInstanceOf(ToolError);
    expect(atCall.code).toBe('ERR_INVALID_INVOCATION');
    expect(tool.calls).toHaveLength(0);
  });

  it('words a refused timeout once: what, the value, and the rule', () => {
    const err = thrownBy(() => bind(new FakeTool(def), { timeoutMs: -5 })) as ToolError;
    expect(err.message).toBe(
      `tool: invalid tool: timeoutMs is -5; pass a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or Infinity for no deadline`,
    );
  });

  it('refuses a declaration that throws, naming it', () => {
    const err = thrownBy(() =>
      bind(
        new DeclaringTool(new FakeTool(def), () => {
          throw new Error('boom');
        }),
      ),
    ) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toMatch(/timeoutMs declaration: .*boom/);
  });

  it('accepts the bounds: 1 ms, MAX_TIMEOUT_MS and Infinity', () => {
    expect(bind(new FakeTool(def), { timeoutMs: 1 }).timeoutMs).toBe(1);
    expect(bind(new FakeTool(def), { timeoutMs: MAX_TIMEOUT_MS }).timeoutMs).toBe(MAX_TIMEOUT_MS);
    expect(bind(new FakeTool(def), { timeoutMs: Infinity }).timeoutMs).toBe(Infinity);
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
  });

  it("leaves no listener on the caller's signal once the call settled (one long-lived signal, many calls)", async () => {
    const controller = new AbortController();
    const binding = bind(
      new FakeTool(def, async (_i, options) => {
        expect(options?.signal?.aborted).toBe(false);
        await new Promise((resolve) => setImmediate(resolve));
        return { output: Output.empty };
      }),
      { timeoutMs: 1000 },
    );
    for (let i = 0; i < 3; i++) await binding.call(prepare(binding), { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('exports the deadline constants and capability check, and keeps its helpers internal', () => {
    expect(protocol).toMatchObject({ DEFAULT_TIMEOUT_MS: 60_000, MAX_TIMEOUT_MS: 2_147_483_647 });
    expect(protocol.isDeadlineTool({ timeoutMs: () => 5 })).toBe(true);
    expect(protocol.isDeadlineTool(new FakeTool(def))).toBe(false);
    for (const name of ['CallScope', 'callWithin', 'checkTimeout', 'isCallAborted', 'abortReasonOf', 'funcCallOf']) {
      expect(protocol).not.toHaveProperty(name);
    }
  });

  it('passes the options unchanged to the tool when there is no deadline', async () => {
    const tool = new FakeTool(def);
    const binding = bind(tool, { timeoutMs: Infinity });
    const options = { signal: new AbortController().signal, context: 'x' };
    await binding.call(prepare(binding), options);
    expect(tool.calls[0].options).toBe(options);
  });
});
