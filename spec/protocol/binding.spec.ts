import {
  Binding,
  CallError,
  Failure,
  FuncTool,
  Guard,
  InputRequest,
  InputValidatorError,
  Output,
  ToolError,
  bind,
  hasErrorCode,
  isError,
  type Result,
  type Tool,
} from '../../lib/protocol';
import { FakeTool, ValidatingTool, Wrapper, rejectionOf, thrownBy } from './helpers';

const def = { name: 'echo', inputSchema: { type: 'object' } };

describe('bind', () => {
  it('calls definition() exactly once', () => {
    const tool = new FakeTool(def);
    bind(tool);
    expect(tool.definitionCalls).toBe(1);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an object without call()', { definition: () => def }],
  ])('refuses %s as a tool', (_label, tool) => {
    const err = thrownBy(() => bind(tool as never)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toMatch(/^tool: invalid tool: tool is nil/);
  });

  it('refuses an invalid definition, wrapping ERR_INVALID_DEFINITION', () => {
    const err = thrownBy(() => bind(new FakeTool({ name: 'bad name', inputSchema: { type: 'object' } }))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_DEFINITION')).toBe(true);
    expect(err.message).toContain('"bad name"');
  });

  it('refuses a definition() that throws, keeping the thrown error reachable', () => {
    const boom = new Error('boom');
    const tool = new FakeTool(def);
    tool.definition = () => {
      throw boom;
    };
    const err = thrownBy(() => bind(tool)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(isError(err, boom)).toBe(true);
  });

  it('refuses a schema that does not compile, wrapping ERR_INVALID_SCHEMA', () => {
    const err = thrownBy(() =>
      bind(new FakeTool({ name: 'echo', inputSchema: { type: 'object', minProperties: -1 } })),
    ) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_SCHEMA')).toBe(true);
    expect(err.message).toContain('"echo"');
  });

  it('declares the input validator once, through the wrapping chain', () => {
    const inner = new ValidatingTool(def, () => undefined);
    const binding = bind(new Wrapper(new Wrapper(inner)));
    binding.contract.prepare({ name: 'echo', arguments: '{}' });
    binding.contract.prepare({ name: 'echo', arguments: '{}' });
    expect(inner.declarations).toBe(1);
  });

  it('lets the outermost validator win', () => {
    const inner = new ValidatingTool(def, () => {
      throw new ToolError('ERR_INVALID_INVOCATION', 'inner');
    });
    const outer = new ValidatingTool(def, () => undefined);
    outer.run = (invocation, options) => inner.call(invocation, options);
    const wrapper = Object.assign(outer, { unwrap: () => inner });
    expect(() => bind(wrapper).contract.prepare({ name: 'echo', arguments: '{}' })).not.toThrow();
    expect(inner.declarations).toBe(0);
  });

  it('turns a throwing inputValidator() declaration into ERR_INVALID_TOOL with an InputValidatorError', () => {
    const tool = new ValidatingTool(def, undefined);
    const bug = new Error('declaration bug');
    tool.inputValidator = () => {
      throw bug;
    };
    const err = thrownBy(() => bind(tool)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toContain('declaration bug');
    expect(err.cause).toBeInstanceOf(InputValidatorError);
    expect(isError(err, bug)).toBe(true);
  });

  it('refuses an inputValidator() that returns something other than a function', () => {
    const tool = new ValidatingTool(def, 42 as never);
    expect((thrownBy(() => bind(tool)) as ToolError).code).toBe('ERR_INVALID_TOOL');
  });

  it('turns a chain error into ERR_INVALID_TOOL wrapping ERR_INVALID_WRAPPING_CHAIN', () => {
    let tool: Tool = new FakeTool(def);
    for (let i = 0; i < 65; i++) tool = new Wrapper(tool);
    const err = thrownBy(() => bind(tool)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_WRAPPING_CHAIN')).toBe(true);
  });

  it('snapshots the definition: later changes to the tool do not widen the contract', () => {
    const tool = new FakeTool({ name: 'echo', inputSchema: { type: 'object', additionalProperties: false } });
    const contract = bind(tool).contract;
    tool.def = { name: 'echo', inputSchema: { type: 'object' } };
    expect(() => contract.prepare({ name: 'echo', arguments: '{"x":1}' })).toThrow(ToolError);
  });
});

describe('Binding.call', () => {
  it('runs an invocation prepared by its own contract and returns a frozen Result', async () => {
    const tool = new FakeTool(def);
    const binding = bind(tool);
    const result = await binding.call(binding.contract.prepare({ name: 'echo', arguments: '{"a":1}' }), {
      context: 'ctx',
    });
    expect((result as { output: Output }).output.asText()).toBe('ok');
    expect(Object.isFrozen(result)).toBe(true);
    expect(tool.calls[0].options?.context).toBe('ctx');
  });

  it('refuses an invocation prepared by another binding of the same tool; the tool is not called', async () => {
    const tool = new FakeTool(def);
    const first = bind(tool);
    const second = bind(tool);
    const invocation = first.contract.prepare({ name: 'echo', arguments: '{}' });
    const err = (await rejectionOf(second.call(invocation))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toContain('invocation does not belong to binding');
    expect(tool.calls).toHaveLength(0);
  });

  it('refuses something that is not an invocation', async () => {
    const binding = bind(new FakeTool(def));
    const err = (await rejectionOf(binding.call({ arguments: '{}' } as never))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
  });

  it('passes a thrown error through unchanged (same object)', async () => {
    const failure = new Failure({ kind: 'failed', cause: new Error('disk full') });
    const callError = new CallError({ cause: new Error('timeout'), evidence: Output.text('wrote 2 of 3') });
    const plain = new RangeError('plain');
    for (const thrown of [failure, callError, plain]) {
      const tool = new FakeTool(def, async () => {
        throw thrown;
      });
      const binding = bind(tool);
      expect(await rejectionOf(binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' })))).toBe(thrown);
    }
  });

  it.each([
    ['undefined', undefined],
    ['a plain object output', { output: { content: [] } }],
    ['both output and input request', 'both'],
    ['an empty object', {}],
  ])('refuses an invalid Result (%s) with ERR_INVALID_RESULT', async (_label, value) => {
    const request = InputRequest.create({ prompt: '"?"', responseSchema: true, continuationState: '{}' });
    const result = value === 'both' ? { output: Output.text('x'), inputRequest: request } : value;
    const binding = bind(new FakeTool(def, async () => result as Result));
    const err = (await rejectionOf(
      binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' })),
    )) as ToolError;
    expect(err.code).toBe('ERR_INVALID_RESULT');
    expect(err.message).toMatch(/^tool: invalid result: tool "echo": /);
  });

  it('accepts an input request, also beside an empty output', async () => {
    const request = InputRequest.create({ prompt: '"?"', responseSchema: true, continuationState: '{}' });
    const binding = bind(new FakeTool(def, async () => ({ inputRequest: request, output: Output.empty }) as Result));
    const result = await binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' }));
    expect(result).toEqual({ inputRequest: request });
  });

  it('does no abort check of its own: the tool decides', async () => {
    const tool = new FakeTool(def);
    const binding = bind(tool);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' }), { signal: controller.signal });
    expect(tool.calls).toHaveLength(1);
  });

  it('runs the inner validator before any authorization, through a Guard', () => {
    const authorize = jest.fn(() => true);
    const inner = new ValidatingTool(def, () => {
      throw new ToolError('ERR_INVALID_INVOCATION', 'nope');
    });
    const binding = bind(new Guard({ tool: inner, authorizer: authorize }));
    expect(() => binding.contract.prepare({ name: 'echo', arguments: '{}' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION', message: expect.stringContaining('nope') }),
    );
    expect(authorize).not.toHaveBeenCalled();
  });

  it('is created only by bind', () => {
    expect(() => new (Binding as unknown as new (...a: unknown[]) => unknown)(Symbol('binding'))).toThrow(ToolError);
  });
});

describe('Binding.call through a tool whose call was replaced', () => {
  const schema = { type: 'object' } as const;
  const func = () => FuncTool.create({ name: 'echo', inputSchema: schema, decode: (v) => v }, () => 'inner');

  it('runs the call of a subclass of Guard, not the library form it overrides', async () => {
    class Counting extends Guard {
      calls = 0;
      override call(...args: Parameters<Guard['call']>): Promise<Result> {
        this.calls++;
        return super.call(...args);
      }
    }
    const guard = new Counting({ tool: func(), authorizer: () => true });
    for (const options of [undefined, { timeoutMs: Infinity }]) {
      const binding = bind(guard, options);
      const result = await binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' }));
      expect('output' in result && result.output.content).toEqual([{ kind: 'text', text: 'inner' }]);
    }
    expect(guard.calls).toBe(2);
  });

  it('runs a call replaced on the instance, under a deadline and without one', async () => {
    for (const timeoutMs of [1000, Infinity]) {
      const tool = new Guard({ tool: func(), authorizer: () => true });
      Object.defineProperty(tool, 'call', { value: async () => ({ output: Output.text('replaced') }) });
      const binding = bind(tool, { timeoutMs });
      const result = await binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' }));
      expect('output' in result && result.output.content).toEqual([{ kind: 'text', text: 'replaced' }]);
    }
  });

  it('rejects (never throws) when a synchronous policy refuses or the function throws', async () => {
    const refused = bind(new Guard({ tool: func(), authorizer: () => false }));
    const call = refused.call(refused.contract.prepare({ name: 'echo', arguments: '{}' }));
    expect(call).toBeInstanceOf(Promise);
    expect(((await rejectionOf(call)) as Failure).kind).toBe('rejected');
    const boom = new Error('boom');
    const throwing = bind(
      FuncTool.create({ name: 'echo', inputSchema: schema, decode: (v) => v }, () => {
        throw boom;
      }),
    );
    expect(await rejectionOf(throwing.call(throwing.contract.prepare({ name: 'echo', arguments: '{}' })))).toBe(boom);
  });
});

describe('Binding.call validates what a native promise with its own `then` resolves to', () => {
  it('refuses a non-Result (regression: the own `then` made call return it unvalidated)', async () => {
    for (const timeoutMs of [Infinity, 1000]) {
      const tool: Tool = {
        definition: () => def,
        call: () => Object.assign(Promise.resolve('not a Result'), { then: () => 'unvalidated' }) as never,
      };
      const binding = bind(tool, { timeoutMs });
      const call = binding.call(binding.contract.prepare({ name: 'echo', arguments: '{}' }));
      expect(call).toBeInstanceOf(Promise);
      expect(hasErrorCode(await rejectionOf(call), 'ERR_INVALID_RESULT')).toBe(true);
    }
  });
});
