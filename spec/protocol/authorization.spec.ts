import {
  Authorization,
  AuthorizationError,
  Failure,
  FuncTool,
  Guard,
  Output,
  ToolError,
  bind,
  classifyFailure,
  findError,
  hasErrorCode,
  isError,
  type Authorizer,
  type CallOptions,
} from '../../lib/protocol';
import { authorizationFailedText, notAuthorizedText, policyRefusedText } from '../../lib/protocol/messages';
import { FakeTool, rejectionOf, thrownBy } from './helpers';

const def = { name: 'delete_note', description: 'delete', inputSchema: { type: 'object' } };

function setup(authorizer: Authorizer | ((a: Authorization, o: CallOptions) => unknown)) {
  const tool = new FakeTool(def);
  const binding = bind(new Guard({ tool, authorizer: authorizer as Authorizer }));
  const invocation = binding.contract.prepare({ name: 'delete_note', arguments: '{"id":7}' });
  return { tool, binding, invocation };
}

describe('new Guard', () => {
  it('checks the authorizer first, so an empty config reports it', () => {
    const err = thrownBy(() => new Guard({} as never)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toMatch(/^tool: invalid tool: authorizer is nil/);
  });

  it('refuses a missing tool', () => {
    expect(() => new Guard({ tool: null as never, authorizer: () => true })).toThrow('authorization guard tool is nil');
  });

  it('reads definition() once, validates it and snapshots it', () => {
    const tool = new FakeTool(def);
    const guard = new Guard({ tool, authorizer: () => true });
    expect(tool.definitionCalls).toBe(1);
    tool.def = { name: 'other', inputSchema: { type: 'object' } };
    expect(guard.definition().name).toBe('delete_note');
    expect(guard.unwrap()).toBe(tool);
  });

  it('refuses an invalid definition with `authorization guard definition: ...`', () => {
    const err = thrownBy(
      () => new Guard({ tool: new FakeTool({ name: '', inputSchema: { type: 'object' } }), authorizer: () => true }),
    ) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_DEFINITION')).toBe(true);
  });

  it('accepts an object with authorize() and keeps its `this`', async () => {
    const policy = {
      allowed: true,
      authorize(this: { allowed: boolean }) {
        return this.allowed;
      },
    };
    const { binding, invocation, tool } = setup(policy);
    await binding.call(invocation);
    expect(tool.calls).toHaveLength(1);
  });
});

describe('Guard.call', () => {
  it('runs the tool when the policy permits, passing the Authorization and options', async () => {
    let seen: { authorization?: Authorization; options?: CallOptions } = {};
    const { binding, invocation, tool } = setup(async (authorization, options) => {
      seen = { authorization, options };
      return true;
    });
    const result = await binding.call(invocation, { context: { user: 'ada' } });
    expect((result as { output: Output }).output.asText()).toBe('ok');
    expect(tool.calls).toHaveLength(1);
    expect(seen.authorization?.arguments).toBe('{"id":7}');
    expect(seen.authorization?.definition()).toEqual(def);
    expect(seen.options?.context).toEqual({ user: 'ada' });
  });

  it('refuses with a Failure of kind rejected and the exact output text', async () => {
    const { binding, invocation, tool } = setup(() => false);
    const err = await rejectionOf(binding.call(invocation));
    const failure = classifyFailure(err) as Failure;
    expect(failure).toBeInstanceOf(Failure);
    expect(failure.kind).toBe('rejected');
    // Changed from the seed (no cause, `tool: rejected`): docs/architecture.md section 3.11.
    expect(failure.message).toBe(policyRefusedText('delete_note', undefined));
    expect(failure.output.asText()).toBe(notAuthorizedText('delete_note'));
    expect(failure.diagnosticCause).toBeInstanceOf(Error);
    expect(failure.cause).toBeUndefined();
    expect(tool.calls).toHaveLength(0);
  });

  it('names the policy function or Authorizer class in the rejected Failure, never in its output', async () => {
    function ownerOnly(): boolean {
      return false;
    }
    class OwnerPolicy implements Authorizer {
      authorize(): boolean {
        return false;
      }
    }
    for (const [authorizer, name] of [
      [ownerOnly, 'ownerOnly'],
      [new OwnerPolicy(), 'OwnerPolicy'],
      [{ authorize: () => false }, undefined],
    ] as const) {
      const { binding, invocation } = setup(authorizer);
      const failure = classifyFailure(await rejectionOf(binding.call(invocation))) as Failure;
      expect(failure.kind).toBe('rejected');
      expect(failure.message).toBe(policyRefusedText('delete_note', name));
      expect(failure.output.asText()).toBe(notAuthorizedText('delete_note'));
    }
  });

  it('seals a policy that throws in an AuthorizationError; the cause stays hidden', async () => {
    const secret = new Error('database password is hunter2');
    const { binding, invocation, tool } = setup(() => {
      throw secret;
    });
    const err = (await rejectionOf(binding.call(invocation))) as AuthorizationError;
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err.message).toBe(authorizationFailedText('delete_note'));
    expect(err.toolName).toBe('delete_note');
    expect(err.diagnosticCause).toBe(secret);
    expect(isError(err, secret)).toBe(false);
    expect(tool.calls).toHaveLength(0);
  });

  it('keeps a Failure thrown by the policy unfindable', async () => {
    const { binding, invocation } = setup(async () => {
      throw new Failure({ kind: 'rejected' });
    });
    const err = await rejectionOf(binding.call(invocation));
    expect(classifyFailure(err)).toBeUndefined();
    expect(findError(err, Failure)).toBeUndefined();
  });

  it.each([
    ['a string', 'yes'],
    ['a number', 1],
    ['null', null],
    ['undefined', undefined],
  ])('fails closed on a non-boolean decision (%s)', async (_label, decision) => {
    const { binding, invocation, tool } = setup(async () => decision);
    const err = (await rejectionOf(binding.call(invocation))) as AuthorizationError;
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(String((err.diagnosticCause as Error).message)).toContain('expected a boolean');
    expect(tool.calls).toHaveLength(0);
  });

  it('throws the abort reason as is when aborted before the policy; nothing is called', async () => {
    const authorize = jest.fn(() => true);
    const { binding, invocation, tool } = setup(authorize);
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    controller.abort(reason);
    expect(await rejectionOf(binding.call(invocation, { signal: controller.signal }))).toBe(reason);
    expect(authorize).not.toHaveBeenCalled();
    expect(tool.calls).toHaveLength(0);
  });

  it.each([true, false])(
    'throws the abort reason when the signal aborts while the policy decides %s',
    async (decision) => {
      const controller = new AbortController();
      const reason = new Error('deadline');
      const { binding, invocation, tool } = setup(() => {
        controller.abort(reason);
        return decision;
      });
      const err = await rejectionOf(binding.call(invocation, { signal: controller.signal }));
      expect(err).toBe(reason);
      expect(classifyFailure(err)).toBeUndefined();
      expect(tool.calls).toHaveLength(0);
    },
  );

  it('joins the abort reason and the AuthorizationError when the policy throws after an abort', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const { binding, invocation } = setup(() => {
      controller.abort(reason);
      throw new Error('policy store down');
    });
    const err = (await rejectionOf(binding.call(invocation, { signal: controller.signal }))) as AggregateError;
    expect(err).toBeInstanceOf(AggregateError);
    expect(err.errors[0]).toBe(reason);
    expect(err.errors[1]).toBeInstanceOf(AuthorizationError);
    expect(isError(err, reason)).toBe(true);
    expect(err.message).toBe(`deadline\n${authorizationFailedText('delete_note')}`);
  });

  it('keeps a deadline thrown by the policy itself sealed when the signal is not aborted', async () => {
    const deadline = new Error('policy deadline');
    const { binding, invocation } = setup(() => {
      throw deadline;
    });
    const err = await rejectionOf(binding.call(invocation, { signal: new AbortController().signal }));
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(isError(err, deadline)).toBe(false);
  });

  it('races a policy that never settles against the signal and never runs the tool', async () => {
    const controller = new AbortController();
    const reason = new Error('gave up');
    const { binding, invocation, tool } = setup(() => new Promise<boolean>(() => undefined));
    const pending = binding.call(invocation, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    expect(await rejectionOf(pending)).toBe(reason);
    expect(tool.calls).toHaveLength(0);
  });

  it('does not run the tool when a pending policy permits after the abort', async () => {
    const controller = new AbortController();
    let permit: (v: boolean) => void = () => undefined;
    const { binding, invocation, tool } = setup(() => new Promise<boolean>((resolve) => (permit = resolve)));
    const pending = binding.call(invocation, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 1));
    controller.abort(new Error('stop'));
    permit(true);
    await rejectionOf(pending);
    await new Promise((r) => setTimeout(r, 5));
    expect(tool.calls).toHaveLength(0);
  });

  it('passes the inner tool error through unchanged', async () => {
    const boom = new Error('boom');
    const tool = new FakeTool(def, async () => {
      throw boom;
    });
    const binding = bind(new Guard({ tool, authorizer: () => true }));
    expect(await rejectionOf(binding.call(binding.contract.prepare({ name: 'delete_note', arguments: '{}' })))).toBe(
      boom,
    );
  });

  it('is never consulted by prepare', () => {
    const authorize = jest.fn(() => true);
    setup(authorize);
    expect(authorize).not.toHaveBeenCalled();
  });
});

describe('Authorization', () => {
  it('holds a frozen definition snapshot and the arguments', () => {
    const authorization = new Authorization(def, '{"id":1}');
    expect(authorization.definition()).toEqual(def);
    expect(Object.isFrozen(authorization.definition())).toBe(true);
    expect(authorization.arguments).toBe('{"id":1}');
  });
});

describe('AuthorizationError', () => {
  it('has a generic message without a name', () => {
    expect(new AuthorizationError('').message).toBe('tool: authorization failed');
    expect('cause' in new AuthorizationError('x', new Error('hidden'))).toBe(false);
  });
});

describe('Guard.call with asynchronous policies and aborts', () => {
  it('joins the abort and the AuthorizationError when an async policy aborts then rejects', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const { binding, invocation } = setup(async () => {
      controller.abort(reason);
      throw new Error('policy store down');
    });
    const err = (await rejectionOf(binding.call(invocation, { signal: controller.signal }))) as AggregateError;
    expect(err).toBeInstanceOf(AggregateError);
    expect(err.errors[0]).toBe(reason);
  });

  it('throws the reason when a policy aborts synchronously and returns a promise that never settles', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const { binding, invocation, tool } = setup(() => {
      controller.abort(reason);
      return new Promise<boolean>(() => undefined);
    });
    expect(await rejectionOf(binding.call(invocation, { signal: controller.signal }))).toBe(reason);
    expect(tool.calls).toHaveLength(0);
  });
});

describe('Guard.call runs the tool with the options the policy was asked with', () => {
  const inputSchema = { type: 'object' } as const;
  /** A FuncTool that records the context it runs with; a policy that records the one it is asked with. */
  function recorded(policy: (context: unknown) => boolean | Promise<boolean>) {
    const seen: string[] = [];
    const tool = FuncTool.create({ name: 't', inputSchema, decode: (v) => v }, (_input, call) => {
      seen.push(`tool ${String(call.context)}`);
      return 'ran';
    });
    const guard = new Guard({
      tool,
      authorizer: (_a: Authorization, options) => {
        seen.push(`policy ${String(options.context)}`);
        return policy(options.context);
      },
    });
    return { guard, seen };
  }

  it('reads a getter context once (regression: the policy saw alice, the tool mallory)', async () => {
    for (const timeoutMs of [Infinity, 1000]) {
      const { guard, seen } = recorded((context) => context === 'alice');
      const binding = bind(guard, { timeoutMs });
      let reads = 0;
      const options = {
        get context() {
          return reads++ === 0 ? 'alice' : 'mallory';
        },
      };
      await binding.call(binding.contract.prepare({ name: 't', arguments: '{}' }), options);
      expect(seen).toEqual(['policy alice', 'tool alice']);
    }
  });

  it('keeps the context the policy allowed when the caller changes it while the policy is pending', async () => {
    const { guard, seen } = recorded(async (context) => context === 'alice');
    const binding = bind(guard, { timeoutMs: Infinity });
    const options: { context: string } = { context: 'alice' };
    const call = binding.call(binding.contract.prepare({ name: 't', arguments: '{}' }), options);
    options.context = 'mallory';
    await call;
    expect(seen).toEqual(['policy alice', 'tool alice']);
  });
});
