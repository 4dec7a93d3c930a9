/**
 * Fault injection for policies (Guard authorizers) and input validators, and aborts that land while
 * they are slow: the inner tool never runs unless a policy decided `true` before any abort (the
 * table in docs/guarantees.md, "Policies" and "Aborts").
 */
import {
  AuthorizationError,
  Continuation,
  FuncTool,
  Guard,
  InputValidatorError,
  Output,
  ToolError,
  bind,
  findError,
  isError,
} from '../../lib/protocol';
import type { Authorizer, JsonObject, Result, Tool } from '../../lib/protocol';
import { renderOutcome } from '../../lib/providers';
import { OPEN_SCHEMA, hostileThrows, rawTool, runTool, thrown } from './support';

/** A tool that records whether it ran. */
function spyTool(name = 't'): { tool: Tool; ran: () => number } {
  let count = 0;
  const tool = rawTool(name, async () => {
    count++;
    return { output: Output.text('ran') };
  });
  return { tool, ran: () => count };
}

function guarded(authorizer: Authorizer['authorize']): { tool: Tool; ran: () => number } {
  const spy = spyTool();
  return { tool: new Guard({ tool: spy.tool, authorizer }), ran: spy.ran };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a policy that throws or decides a non-boolean', () => {
  it.each(hostileThrows())(
    'turns a thrown %s into an AuthorizationError carrying it as diagnosticCause; the tool never runs',
    async (_l, make) => {
      const value = make();
      const g = guarded(() => {
        throw value;
      });
      const error = thrown(await runTool(g.tool));
      expect(error).toBeInstanceOf(AuthorizationError);
      expect((error as AuthorizationError).diagnosticCause).toBe(value);
      expect(g.ran()).toBe(0);
      expect(renderOutcome('t', { error }).output.asText()).toBe(
        'error: authorization for tool "t" could not be decided',
      );
    },
  );

  it.each(hostileThrows())(
    'turns a rejection with %s into an AuthorizationError; the tool never runs',
    async (_l, make) => {
      const value = make();
      const g = guarded(() => Promise.reject(value));
      expect(thrown(await runTool(g.tool))).toBeInstanceOf(AuthorizationError);
      expect(g.ran()).toBe(0);
    },
  );

  it.each([
    ['"yes"', 'yes'],
    ['1', 1],
    ['null', null],
    ['undefined', undefined],
    ['an object', {}],
    ['a Promise of "true"', Promise.resolve('true')],
  ])('fails closed on a decision of %s (AuthorizationError, tool not run)', async (_l, decision) => {
    const g = guarded(() => decision as boolean);
    expect(thrown(await runTool(g.tool))).toBeInstanceOf(AuthorizationError);
    expect(g.ran()).toBe(0);
  });

  it('fails closed on a decision whose then getter throws', async () => {
    const g = guarded(
      () =>
        Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('then');
          },
        }) as unknown as boolean,
    );
    expect(thrown(await runTool(g.tool))).toBeInstanceOf(AuthorizationError);
    expect(g.ran()).toBe(0);
  });

  it('takes the first decision of a thenable that resolves twice (false, then true): rejected', async () => {
    const g = guarded(
      () =>
        ({
          then: (ok: (v: boolean) => void) => {
            ok(false);
            ok(true);
          },
        }) as unknown as boolean,
    );
    const error = thrown(await runTool(g.tool));
    expect(renderOutcome('t', { error }).kind).toBe('rejected');
    expect(g.ran()).toBe(0);
  });
});

describe('a policy that is slow while the signal aborts', () => {
  it('throws the abort reason as soon as the signal aborts; the late decision true never runs the tool', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    let permit: (v: boolean) => void = () => undefined;
    const g = guarded(
      () =>
        new Promise<boolean>((resolve) => {
          permit = resolve;
        }),
    );
    const pending = runTool(g.tool, { signal: controller.signal });
    await tick();
    controller.abort(reason);
    expect(thrown(await pending)).toBe(reason);
    permit(true);
    await tick();
    expect(g.ran()).toBe(0);
  });

  it('swallows a late rejection after the abort (no unhandled rejection) and throws the reason', async () => {
    const unhandled: unknown[] = [];
    const listener = (e: unknown): void => {
      unhandled.push(e);
    };
    process.on('unhandledRejection', listener);
    try {
      const controller = new AbortController();
      let deny: (e: unknown) => void = () => undefined;
      const g = guarded(
        () =>
          new Promise<boolean>((_ok, fail) => {
            deny = fail;
          }),
      );
      const pending = runTool(g.tool, { signal: controller.signal });
      await tick();
      controller.abort();
      expect(thrown(await pending)).toBe(controller.signal.reason);
      deny('late');
      await tick();
      await tick();
      expect(unhandled).toEqual([]);
      expect(g.ran()).toBe(0);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('joins the abort and the AuthorizationError when the policy aborts and then throws', async () => {
    const controller = new AbortController();
    const g = guarded(() => {
      controller.abort(new Error('stop'));
      throw null;
    });
    const error = thrown(await runTool(g.tool, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AggregateError);
    expect(isError(error, controller.signal.reason)).toBe(true);
    expect(findError(error, AuthorizationError)).toBeDefined();
    expect(renderOutcome('t', { error }, { signal: controller.signal }).kind).toBe('cancelled');
    expect(g.ran()).toBe(0);
  });

  it('lets the abort win over a decision true reached after it (synchronous policy that aborts)', async () => {
    const controller = new AbortController();
    const g = guarded(() => {
      controller.abort();
      return true;
    });
    expect(thrown(await runTool(g.tool, { signal: controller.signal }))).toBe(controller.signal.reason);
    expect(g.ran()).toBe(0);
  });

  it('stops a chain of guards at the slow second policy when the signal aborts (class then method policies)', async () => {
    const controller = new AbortController();
    const spy = spyTool();
    const inner = new Guard({ tool: spy.tool, authorizer: () => new Promise<boolean>(() => undefined) });
    const outer = new Guard({ tool: inner, authorizer: async () => true });
    const pending = runTool(outer, { signal: controller.signal });
    await tick();
    controller.abort();
    expect(thrown(await pending)).toBe(controller.signal.reason);
    expect(spy.ran()).toBe(0);
  });
});

describe('a decoder or input validator that is slow while the signal aborts', () => {
  it('never enters the function when the signal aborted while the decoder ran (regression: FuncTool re-checks)', async () => {
    const controller = new AbortController();
    let decodes = 0;
    let entered = 0;
    // The first decode is prepare's input validator, whose input the first call runs; the second is
    // a retry's own decode, during which the abort lands (a slow decoder, modelled synchronously).
    const decode = (value: unknown): unknown => {
      if (++decodes === 2) controller.abort(new Error('aborted during decode'));
      return value;
    };
    const binding = bind(
      FuncTool.create({ name: 'f', inputSchema: OPEN_SCHEMA, decode }, () => {
        entered++;
        return 'ran';
      }),
    );
    const invocation = binding.contract.prepare({ name: 'f', arguments: '{}' });
    await binding.call(invocation);
    expect(entered).toBe(1);
    await expect(binding.call(invocation, { signal: controller.signal })).rejects.toBe(controller.signal.reason);
    expect(decodes).toBe(2);
    expect(entered).toBe(1);
  });

  it('never runs a guarded tool whose signal aborted during prepare (the Guard checks first)', async () => {
    const controller = new AbortController();
    const spy = spyTool();
    const validating: Tool & { inputValidator(): (a: string) => void } = {
      definition: () => spy.tool.definition(),
      call: (inv, o) => spy.tool.call(inv, o),
      inputValidator: () => () => {
        controller.abort();
      },
    };
    const binding = bind(new Guard({ tool: validating, authorizer: () => true }));
    const invocation = binding.contract.prepare({ name: 't', arguments: '{}' });
    await expect(binding.call(invocation, { signal: controller.signal })).rejects.toBe(controller.signal.reason);
    expect(spy.ran()).toBe(0);
  });
});

describe('an input validator that throws a non-ToolError (a defect)', () => {
  function validating(validator: () => void): Tool {
    return { ...rawTool('v', async () => ({ output: Output.empty })), inputValidator: () => validator } as Tool;
  }

  it.each(hostileThrows())(
    'refuses the call with ERR_INVALID_INVOCATION wrapping InputValidatorError for %s (regression: a Proxy no longer escapes prepare)',
    (_l, make) => {
      const value = make();
      const binding = bind(
        validating(() => {
          throw value;
        }),
      );
      let error: unknown;
      try {
        binding.contract.prepare({ name: 'v', arguments: '{}' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
      expect(findError(error, InputValidatorError)?.thrown).toBe(value);
      expect(renderOutcome('v', { error }).output.asText()).toBe('error: tool "v" failed');
    },
  );

  it('refuses a validator that returns a Promise (validators are synchronous)', () => {
    const binding = bind(validating((() => Promise.reject(new Error('async'))) as unknown as () => void));
    expect(() => binding.contract.prepare({ name: 'v', arguments: '{}' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }),
    );
  });
});

describe('a continuation that is not one', () => {
  const tool = rawTool('c', async (): Promise<Result> => ({ output: Output.empty }), { type: 'object' } as JsonObject);

  it.each([
    ['a plain object shaped like one', () => ({ state: '{}', response: 'true' })],
    [
      'an object made with Object.create(Continuation.prototype) (regression: was admitted)',
      () => Object.create(Continuation.prototype),
    ],
    [
      'a Proxy whose traps throw',
      () =>
        new Proxy(
          {},
          {
            getPrototypeOf: () => {
              throw new Error('trap');
            },
          },
        ),
    ],
  ])('is refused by prepare with ERR_INVALID_INVOCATION wrapping ERR_INVALID_INPUT_REQUEST: %s', (_l, make) => {
    const contract = bind(tool).contract;
    expect(() => contract.prepare({ name: 'c', arguments: '{}' }, make() as Continuation)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_INVOCATION',
        message: expect.stringContaining('continuation must come from InputRequest.continuation()'),
      }),
    );
  });
});

describe('a policy that never settles', () => {
  it('ends at the deadline with a failed Failure the model reads; the tool never runs', async () => {
    const g = guarded(() => new Promise<boolean>(() => undefined));
    const outcome = await runTool(g.tool, { timeoutMs: 20 });
    expect(renderOutcome('t', outcome)).toEqual({
      kind: 'failed',
      isError: true,
      output: Output.text('error: tool "t" timed out after 20 ms'),
    });
    await tick();
    expect(g.ran()).toBe(0);
  });
});
