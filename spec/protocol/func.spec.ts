import {
  CallError,
  FuncTool,
  Guard,
  InputRequest,
  Output,
  Registry,
  ToolError,
  bind,
  hasErrorCode,
  type JsonValue,
  type Result,
} from '../../lib/protocol';
import { toJsonData } from '../../lib/protocol/json-data';
import { rejectionOf, thrownBy } from './helpers';

const inputSchema = {
  type: 'object',
  properties: { n: { type: 'integer' } },
  required: ['n'],
  additionalProperties: false,
};

/** A strict decoder that only admits even n, as a custom Go decoder would. */
function decodeEven(value: JsonValue): { n: number } {
  const n = (value as { n: number }).n;
  if (n % 2 !== 0) {
    throw new ToolError('ERR_INVALID_INVOCATION', '/n: must be even', {
      issues: [{ code: 'dto', path: ['n'], message: 'must be even' }],
    });
  }
  return { n };
}

function make<Out>(
  fn: (input: { n: number }, call: { signal?: AbortSignal; context?: unknown }) => Out | Promise<Out>,
) {
  const tool = FuncTool.create({ name: 'half', description: 'halve n', inputSchema, decode: decodeEven }, fn);
  const binding = bind(tool);
  return { tool, binding, prepare: (args: string) => binding.contract.prepare({ name: 'half', arguments: args }) };
}

const text = (result: Result) => ('output' in result ? result.output.asText() : undefined);

describe('FuncTool.create', () => {
  it('refuses a missing function, a missing decoder and an invalid definition', () => {
    expect(
      (thrownBy(() => FuncTool.create({ name: 'x', inputSchema, decode: decodeEven }, null as never)) as ToolError)
        .message,
    ).toMatch(/^tool: invalid tool: function is nil/);
    expect((thrownBy(() => FuncTool.create({ name: 'x', inputSchema } as never, () => 1)) as ToolError).code).toBe(
      'ERR_INVALID_TOOL',
    );
    const err = thrownBy(() =>
      FuncTool.create({ name: 'x', inputSchema: { type: 'array' }, decode: decodeEven }, () => 1),
    ) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_DEFINITION')).toBe(true);
  });

  it('exposes its definition snapshot', () => {
    const { tool } = make(() => 1);
    expect(tool.definition()).toEqual({ name: 'half', description: 'halve n', inputSchema });
  });
});

describe('FuncTool as input validator', () => {
  it('refuses input the decoder rejects at prepare, before anything runs', () => {
    const fn = jest.fn(() => 1);
    const { prepare } = make(fn);
    const err = thrownBy(() => prepare('{"n":3}')) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0].path).toEqual(['n']);
    expect(err.issues[0].message).toContain('must be even');
    expect(fn).not.toHaveBeenCalled();
  });

  it('captures only the decoder', () => {
    const { tool } = make(() => 1);
    const validator = tool.inputValidator();
    expect(() => validator('{"n":2}')).not.toThrow();
    expect(() => validator('{"n":1}')).toThrow(ToolError);
  });
});

describe('FuncTool.call', () => {
  it('turns a string into a text output and "" into the empty output', async () => {
    const { binding, prepare } = make(({ n }) => `half is ${n / 2}`);
    expect(text(await binding.call(prepare('{"n":4}')))).toBe('half is 2');
    const empty = make(() => '');
    expect(await empty.binding.call(empty.prepare('{"n":2}'))).toEqual({ output: Output.empty });
  });

  it('turns other values into JSON details', async () => {
    for (const [value, details] of [
      [5, '5'],
      [{ ok: true, list: [1, 'a', null] }, '{"ok":true,"list":[1,"a",null]}'],
      [null, 'null'],
      [{ when: new Date(0), skipped: undefined }, '{"when":"1970-01-01T00:00:00.000Z"}'],
    ] as const) {
      const { binding, prepare } = make(() => value);
      const result = await binding.call(prepare('{"n":2}'));
      expect('output' in result && result.output.details).toBe(details);
    }
  });

  it('returns an Output or an InputRequest as is', async () => {
    const output = Output.text('direct');
    const direct = make(() => output);
    expect(await direct.binding.call(direct.prepare('{"n":2}'))).toEqual({ output });
    const request = InputRequest.create({
      prompt: '"sure?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{}',
    });
    const suspending = make(() => request);
    expect(await suspending.binding.call(suspending.prepare('{"n":2}'))).toEqual({ inputRequest: request });
  });

  it.each([
    ['NaN', NaN, 'NaN is not representable in JSON'],
    ['Infinity', { x: Infinity }, '/x: Infinity is not representable'],
    ['a BigInt', { x: 1n }, '/x: a BigInt is not representable'],
    ['a function', [() => 1], '/0: a function is not representable'],
    ['a Map', new Map(), 'a Map or Set is not representable'],
  ])('refuses to encode %s with `tool: encode function result: ...`', async (_label, value, reason) => {
    const { binding, prepare } = make(() => value);
    const err = (await rejectionOf(binding.call(prepare('{"n":2}')))) as Error;
    expect(err.message.startsWith(`tool: encode function result: ${reason}`)).toBe(true);
    expect(hasErrorCode(err, 'ERR_INVALID_OUTPUT')).toBe(true);
  });

  it('refuses to encode a cyclic value', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { binding, prepare } = make(() => cyclic);
    const err = (await rejectionOf(binding.call(prepare('{"n":2}')))) as Error;
    const data = toJsonData(cyclic);
    expect(data.ok).toBe(false);
    expect(err.message).toBe(`tool: encode function result: ${data.ok ? '' : data.reason}`);
    expect(hasErrorCode(err, 'ERR_INVALID_OUTPUT')).toBe(true);
  });

  it('passes errors thrown by the function unchanged', async () => {
    const callError = new CallError({ cause: new Error('timeout'), evidence: Output.text('partial') });
    const { binding, prepare } = make(async () => {
      throw callError;
    });
    expect(await rejectionOf(binding.call(prepare('{"n":2}')))).toBe(callError);
  });

  it('checks the abort signal before decoding and never calls the function after an abort', async () => {
    const decode = jest.fn(decodeEven);
    const fn = jest.fn(() => 1);
    const tool = FuncTool.create({ name: 'half', inputSchema, decode }, fn);
    const binding = bind(tool);
    const invocation = binding.contract.prepare({ name: 'half', arguments: '{"n":2}' });
    decode.mockClear();
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    expect(await rejectionOf(binding.call(invocation, { signal: controller.signal }))).toBe(reason);
    expect(decode).not.toHaveBeenCalled();
    expect(fn).not.toHaveBeenCalled();
  });

  it('never calls the function when the signal aborts while a later call decodes afresh', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled while decoding');
    let decodes = 0;
    const decode = (value: JsonValue) => {
      decodes += 1;
      // prepare decodes once; the invocation's first call runs that input; a second call decodes again.
      if (decodes === 2) controller.abort(reason);
      return decodeEven(value);
    };
    const fn = jest.fn(() => 1);
    const binding = bind(FuncTool.create({ name: 'half', inputSchema, decode }, fn));
    const invocation = binding.contract.prepare({ name: 'half', arguments: '{"n":2}' });
    await binding.call(invocation, { signal: controller.signal });
    expect(await rejectionOf(binding.call(invocation, { signal: controller.signal }))).toBe(reason);
    expect([decodes, fn.mock.calls.length]).toEqual([2, 1]);
  });

  it('keeps a completed result when the signal aborts during the function', async () => {
    const controller = new AbortController();
    const { binding, prepare } = make(async () => {
      controller.abort(new Error('late'));
      return 'done anyway';
    });
    expect(text(await binding.call(prepare('{"n":2}'), { signal: controller.signal }))).toBe('done anyway');
  });

  it('hands signal, context and continuation to the function', async () => {
    let seen: unknown;
    const tool = FuncTool.create({ name: 'half', inputSchema, decode: decodeEven }, (_input, call) => {
      seen = call;
      return 1;
    });
    // Without a deadline the caller's own signal reaches the function (a deadline's linked signal:
    // spec/protocol/deadline.spec.ts).
    const binding = bind(tool, { timeoutMs: Infinity });
    const request = InputRequest.create({ prompt: '"?"', responseSchema: true, continuationState: '{"s":1}' });
    const continuation = request.continuation('"yes"');
    const signal = new AbortController().signal;
    await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":2}' }, continuation), {
      signal,
      context: 'tenant-1',
    });
    expect(seen).toEqual({ signal, context: 'tenant-1', continuation });
  });

  it('wraps a decoder failure at call as `tool: decode function arguments: ...`', async () => {
    let calls = 0;
    const flaky = (value: JsonValue) => {
      calls++;
      if (calls > 1) throw new ToolError('ERR_INVALID_INVOCATION', 'changed its mind');
      return value;
    };
    const tool = FuncTool.create({ name: 'half', inputSchema, decode: flaky }, () => 1);
    const binding = bind(tool);
    const invocation = binding.contract.prepare({ name: 'half', arguments: '{"n":2}' });
    // The first call runs the input decoded at prepare; a retry decodes again.
    expect(await binding.call(invocation)).toMatchObject({ output: { details: '1' } });
    const err = (await rejectionOf(binding.call(invocation))) as Error;
    expect(err.message).toBe('tool: decode function arguments: invalid invocation: changed its mind');
    expect(hasErrorCode(err, 'ERR_INVALID_INVOCATION')).toBe(true);
  });

  it('works behind a Guard in a Registry', async () => {
    const tool = FuncTool.create({ name: 'half', inputSchema, decode: decodeEven }, ({ n }) => n / 2);
    const registry = new Registry(new Guard({ tool, authorizer: () => true }));
    const binding = registry.resolve('half');
    if (binding === undefined) throw new Error('missing');
    expect(() => binding.contract.prepare({ name: 'half', arguments: '{"n":3}' })).toThrow('must be even');
    const result = await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":8}' }));
    expect(text(result)).toBe('4');
  });
});
