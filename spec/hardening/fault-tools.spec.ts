/**
 * Fault injection for tools: whatever a tool throws, resolves or returns, Binding.call ends in one
 * defined outcome and renderOutcome gives the model one defined text (the table in
 * docs/guarantees.md, "Tools").
 */
import { CallError, Failure, FuncTool, InputRequest, Output, ToolError, bind, hasErrorCode } from '../../lib/protocol';
import type { Result } from '../../lib/protocol';
import { renderOutcome } from '../../lib/providers';
import { OPEN_SCHEMA, hostileThrows, rawTool, runTool, thrown } from './support';

const request = (): InputRequest =>
  InputRequest.create({ prompt: '"Approve?"', responseSchema: { type: 'boolean' }, continuationState: '{"step":1}' });

describe('a tool that throws a non-Error value', () => {
  it.each(hostileThrows())('passes %s through Binding.call unchanged (same value)', async (_label, make) => {
    const value = make();
    const outcome = await runTool(rawTool('t', () => Promise.reject(value)));
    expect(thrown(outcome)).toBe(value);
  });

  it.each(hostileThrows().filter(([label]) => !label.includes('Proxy')))(
    'renders %s as the generic failure text, without reading it',
    async (_label, make) => {
      const outcome = await runTool(rawTool('t', () => Promise.reject(make())));
      expect(renderOutcome('t', outcome)).toEqual({
        kind: 'error',
        isError: true,
        output: Output.text('error: tool "t" failed'),
      });
    },
  );

  it('passes a value thrown synchronously by call() through as a rejection', async () => {
    const tool = {
      definition: () => ({ name: 't', inputSchema: OPEN_SCHEMA }),
      call: (): Promise<Result> => {
        throw 'sync';
      },
    };
    const binding = bind(tool);
    await expect(binding.call(binding.contract.prepare({ name: 't', arguments: '{}' }))).rejects.toBe('sync');
  });
});

describe('a tool that settles late or twice', () => {
  it('keeps the result of a tool that resolves after the signal aborted (Binding.call has no abort check)', async () => {
    const controller = new AbortController();
    const tool = rawTool('t', async () => {
      controller.abort(new Error('late'));
      return { output: Output.text('done anyway') };
    });
    const outcome = await runTool(tool, { signal: controller.signal });
    expect(outcome).toEqual({ result: { output: Output.text('done anyway') } });
  });

  it('passes a late rejection with a non-Error value after an abort through unchanged', async () => {
    const controller = new AbortController();
    const tool = rawTool('t', async () => {
      controller.abort();
      await new Promise((resolve) => setImmediate(resolve));
      throw Symbol.for('late');
    });
    const outcome = await runTool(tool, { signal: controller.signal });
    expect(thrown(outcome)).toBe(Symbol.for('late'));
    expect(renderOutcome('t', outcome, { signal: controller.signal }).kind).toBe('error');
  });

  it('renders a tool that rejects with the abort reason as a cancellation', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const tool = rawTool('t', async () => {
      controller.abort(reason);
      throw reason;
    });
    const outcome = await runTool(tool, { signal: controller.signal });
    expect(renderOutcome('t', outcome, { signal: controller.signal }).output.asText()).toBe(
      'error: the call was cancelled',
    );
  });

  it('takes the first settlement of a tool that resolves twice, then rejects', async () => {
    const tool = rawTool(
      't',
      () =>
        new Promise<Result>((resolve, reject) => {
          resolve({ output: Output.text('first') });
          resolve({ output: Output.text('second') });
          reject(new Error('third'));
        }),
    );
    expect(await runTool(tool)).toEqual({ result: { output: Output.text('first') } });
  });

  it('passes the error of a result whose then getter throws through unchanged (promise resolution reads it)', async () => {
    const boom = new Error('then getter');
    const result = Object.defineProperty({}, 'then', {
      get: () => {
        throw boom;
      },
    });
    const outcome = await runTool(rawTool('t', async () => result as Result));
    expect(thrown(outcome)).toBe(boom);
  });
});

describe('a tool that returns an invalid Result', () => {
  const handBuilt = (): Output => Object.create(Output.prototype) as Output;
  const cases: [string, () => unknown][] = [
    ['undefined', () => undefined],
    ['null', () => null],
    ['a string', () => 'text'],
    ['an empty object', () => ({})],
    ['a plain object as output', () => ({ output: { content: [{ kind: 'text', text: 'hi' }] } })],
    ['an Output built by hand (Object.create(Output.prototype))', () => ({ output: handBuilt() })],
    ['an InputRequest built by hand', () => ({ inputRequest: Object.create(InputRequest.prototype) })],
    ['both a non-empty output and an input request', () => ({ output: Output.text('x'), inputRequest: request() })],
    ['an input request that is a plain object', () => ({ inputRequest: { prompt: '"x"' } })],
    [
      'a result whose output getter throws',
      () => ({
        get output(): never {
          throw 'getter';
        },
      }),
    ],
    [
      'a Proxy result whose traps throw (only then is read as undefined)',
      () =>
        new Proxy(
          {},
          {
            get: (_t, key) => {
              if (key === 'then') return undefined;
              throw new Error('trap');
            },
          },
        ),
    ],
  ];

  it.each(cases)('refuses %s with ERR_INVALID_RESULT', async (_label, make) => {
    const value = make();
    const outcome = await runTool(rawTool('t', async () => value as Result));
    const error = thrown(outcome);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('ERR_INVALID_RESULT');
    expect(renderOutcome('t', outcome).output.asText()).toBe('error: tool "t" failed');
  });

  it('admits an input request beside an empty output (the zero Output)', async () => {
    const inputRequest = request();
    const outcome = await runTool(
      rawTool('t', async () => ({ output: Output.empty, inputRequest }) as unknown as Result),
    );
    expect(outcome).toEqual({ result: { inputRequest } });
  });

  it('refuses an Output built by hand as a Failure output (ERR_INVALID_FAILURE), so rendering never meets it', () => {
    expect(() => new Failure({ kind: 'rejected', output: handBuilt() })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_FAILURE' }),
    );
  });

  it('refuses an Output built by hand as CallError evidence (ERR_INVALID_CALL_ERROR)', () => {
    expect(() => new CallError({ cause: new Error('x'), evidence: handBuilt() })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_CALL_ERROR' }),
    );
  });
});

describe('a tool that builds invalid content blocks or details', () => {
  const builds: [string, () => Output][] = [
    ['an empty text block', () => Output.create({ content: [{ kind: 'text', text: '' }] })],
    ['a text block with a lone surrogate', () => Output.text('\ud800')],
    [
      'a media block with invalid base64',
      () =>
        Output.create({
          content: [{ kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: '***' } } }],
        }),
    ],
    [
      'a media block with a relative uri',
      () =>
        Output.create({
          content: [{ kind: 'media', media: { mime: 'image/png', source: { kind: 'uri', uri: 'a/b.png' } } }],
        }),
    ],
    ['an unknown block kind', () => Output.create({ content: [{ kind: 'video' } as never] })],
    ['details that are not JSON', () => Output.json('{')],
    ['details with a duplicate member', () => Output.json('{"a":1,"a":2}')],
    ['details with a huge integer', () => Output.json('{"n":9007199254740993}')],
  ];

  it.each(builds)(
    'throws ERR_INVALID_OUTPUT inside the tool for %s; the call ends with that error, rendered generically',
    async (_label, build) => {
      const outcome = await runTool(rawTool('t', async () => ({ output: build() })));
      expect(hasErrorCode(thrown(outcome), 'ERR_INVALID_OUTPUT')).toBe(true);
      expect(renderOutcome('t', outcome).output.asText()).toBe('error: tool "t" failed');
    },
  );

  it.each([
    ['a BigInt', () => 1n],
    [
      'a cyclic object',
      () => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      },
    ],
    ['a function', () => () => 1],
    [
      'an object whose getter throws',
      () => ({
        get x(): never {
          throw new Error('getter');
        },
      }),
    ],
  ])(
    'ends a FuncTool returning %s with `tool: encode function result` (ERR_INVALID_OUTPUT inside)',
    async (_label, make) => {
      const tool = FuncTool.create({ name: 'f', inputSchema: OPEN_SCHEMA, decode: (v) => v }, () => make());
      const error = thrown(await runTool(tool));
      expect((error as Error).message).toMatch(/^tool: encode function result: /);
      expect(hasErrorCode(error, 'ERR_INVALID_OUTPUT')).toBe(true);
    },
  );
});

describe('a tool that never settles', () => {
  it('ends at the deadline with a failed Failure the model reads, when no signal was given', async () => {
    const outcome = await runTool(
      rawTool('t', () => new Promise<Result>(() => undefined)),
      { timeoutMs: 20 },
    );
    expect(thrown(outcome)).toBeInstanceOf(Failure);
    expect(renderOutcome('t', outcome)).toEqual({
      kind: 'failed',
      isError: true,
      output: Output.text('error: tool "t" timed out after 20 ms'),
    });
  });

  it("ends at the deadline when the caller's signal never aborts, aborting the signal the tool got", async () => {
    let seen: AbortSignal | undefined;
    const tool = rawTool('t', (options) => {
      seen = options?.signal;
      return new Promise<Result>(() => undefined);
    });
    const outcome = await runTool(tool, { signal: new AbortController().signal, timeoutMs: 20 });
    expect(renderOutcome('t', outcome).kind).toBe('failed');
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as DOMException).name).toBe('TimeoutError');
  });
});
