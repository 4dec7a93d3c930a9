/**
 * The per-call fast paths keep every semantic of the slow ones: shared definition
 * snapshots, the admitted value handed to FuncTool's validator, the admitted text parsed (not
 * re-scanned) at call, and results encoded without a detached copy.
 */
import fc from 'fast-check';
import {
  Authorization,
  FuncTool,
  Guard,
  hasErrorCode,
  InputValidatorError,
  Invocation,
  Output,
  Registry,
  ToolError,
  admitJson,
  bind,
  decodeDefinition,
  type Definition,
  type JsonValue,
  type Result,
} from '../../lib/protocol';
import { snapshotDefinition } from '../../lib/protocol/definition';
import { detailOf } from '../../lib/protocol/detail';
import { toJsonData, toJsonText } from '../../lib/protocol/json-data';
import { ValidatingTool, rejectionOf, thrownBy } from './helpers';

const inputSchema = {
  type: 'object',
  properties: { n: { type: 'integer' }, list: { type: 'array', items: { type: 'integer' } } },
  required: ['n'],
  additionalProperties: false,
};

const text = (result: Result) => ('output' in result ? result.output.asText() : undefined);

describe('definition snapshots are shared, never copied again', () => {
  it('returns a snapshot unchanged, and copies anything else', () => {
    const raw = { name: 'x', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } };
    const snap = snapshotDefinition(raw);
    expect(snap).not.toBe(raw);
    expect(snap.inputSchema).not.toBe(raw.inputSchema);
    expect(snapshotDefinition(snap)).toBe(snap);
    // An equal but unfrozen copy of a snapshot is not a snapshot: it is copied and validated.
    const lookalike = { ...snap };
    expect(snapshotDefinition(lookalike)).not.toBe(lookalike);
    expect(() => snapshotDefinition({ ...snap, name: 'bad name' })).toThrow(ToolError);
  });

  it('keeps an Authorization built from a caller object validated and detached', () => {
    const raw = { name: 'x', inputSchema: { type: 'object' } as { [k: string]: JsonValue } };
    const authorization = new Authorization(raw, '{}');
    raw.inputSchema.type = 'array';
    expect(authorization.definition().inputSchema.type).toBe('object');
    expect(() => new Authorization({ name: 'x', inputSchema: { type: 'array' } }, '{}')).toThrow(ToolError);
    const decoded = decodeDefinition('{"name":"y","input_schema":{"type":"object"}}');
    expect(new Authorization(decoded, '{}').definition()).toBe(decoded);
  });

  it('gives a policy the Guard snapshot, which it cannot change (nor what is executed)', async () => {
    const seen: { input: unknown }[] = [];
    const tool = FuncTool.create(
      { name: 'half', description: 'halve n', inputSchema, decode: (v: JsonValue) => v },
      (input) => {
        seen.push({ input });
        return 'ran';
      },
    );
    const attempts: string[] = [];
    const policy = (authorization: Authorization): boolean => {
      const definition = authorization.definition() as unknown as Record<string, unknown>;
      const schema = definition.inputSchema as Record<string, unknown>;
      const tryIt = (label: string, mutate: () => void): void => {
        try {
          mutate();
          attempts.push(`${label}: changed`);
        } catch {
          attempts.push(`${label}: refused`);
        }
      };
      tryIt('name', () => void (definition.name = 'other'));
      tryIt('description', () => void (definition.description = 'do anything'));
      tryIt('schema type', () => void (schema.type = 'array'));
      tryIt('schema property', () => void ((schema.properties as Record<string, unknown>).extra = { type: 'string' }));
      tryIt('additionalProperties', () => void delete schema.additionalProperties);
      tryIt('defineProperty', () => void Object.defineProperty(schema, 'required', { value: [] }));
      tryIt('arguments', () => void ((authorization as unknown as { arguments: string }).arguments = '{"n":99}'));
      return true;
    };
    const guard = new Guard({ tool, authorizer: policy });
    const binding = bind(guard);
    const before = JSON.stringify(binding.contract.definition());
    const result = await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":2}' }));
    expect(text(result)).toBe('ran');
    expect(attempts.every((a) => a.endsWith('refused'))).toBe(true);
    expect(attempts).toHaveLength(7);
    expect(seen).toEqual([{ input: { n: 2 } }]);
    for (const definition of [binding.contract.definition(), guard.definition(), tool.definition()]) {
      expect(JSON.stringify(definition)).toBe(before);
    }
    // The contract still refuses what the policy tried to allow.
    const refused = thrownBy(() => binding.contract.prepare({ name: 'half', arguments: '{"n":2,"extra":"x"}' }));
    expect(refused).toMatchObject({
      code: 'ERR_INVALID_INVOCATION',
      issues: [{ code: 'schema', path: [], keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }],
    });
  });

  it('hands every call the same frozen snapshot, so a policy keeping one sees nothing change', async () => {
    const kept: Definition[] = [];
    const tool = FuncTool.create({ name: 'half', inputSchema, decode: (v: JsonValue) => v }, () => 1);
    const binding = bind(new Guard({ tool, authorizer: (a) => kept.push(a.definition()) > 0 }));
    await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":1}' }));
    await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":2}' }));
    expect(kept[0]).toBe(kept[1]);
    expect(Object.isFrozen(kept[0].inputSchema.properties)).toBe(true);
  });
});

describe('FuncTool decodes a fresh admitted value at prepare; the first call runs that input', () => {
  it('runs the first call with the input decoded at prepare, a later call with a fresh decode', async () => {
    const values: JsonValue[] = [];
    const decode = (value: JsonValue): { n: number; list?: number[] } => {
      values.push(value);
      const v = value as { n: number; list?: number[] };
      // A decoder that changes and returns its argument.
      v.n += 100;
      v.list?.push(7);
      return v;
    };
    const inputs: unknown[] = [];
    const tool = FuncTool.create({ name: 'half', inputSchema, decode }, (input) => {
      inputs.push(structuredClone(input));
      // The function changes its input too: a later call must not see it.
      input.n = 0;
      input.list?.push(8);
      return 'ok';
    });
    const binding = bind(tool);
    const invocation = binding.contract.prepare({ name: 'half', arguments: '{"n":1,"list":[1]}' });
    expect(values).toHaveLength(1);
    await binding.call(invocation);
    // The first call neither parsed nor decoded again.
    expect(values).toHaveLength(1);
    await binding.call(invocation);
    expect(values).toHaveLength(2);
    expect(values[1]).not.toBe(values[0]);
    expect(inputs).toEqual([
      { n: 101, list: [1, 7] },
      { n: 101, list: [1, 7] },
    ]);
    expect(invocation.arguments).toBe('{"n":1,"list":[1]}');
  });

  it('still refuses at prepare what the decoder refuses, with the same refusal', () => {
    const decode = (value: JsonValue) => {
      if ((value as { n: number }).n < 0) {
        throw new ToolError('ERR_INVALID_INVOCATION', '/n: must be positive', {
          issues: [{ code: 'dto', path: ['n'], message: 'must be positive' }],
        });
      }
      return value;
    };
    const fn = jest.fn(() => 1);
    const binding = bind(FuncTool.create({ name: 'half', inputSchema, decode }, fn));
    const err = thrownBy(() => binding.contract.prepare({ name: 'half', arguments: ' {"n":-1} ' })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0].path).toEqual(['n']);
    expect(err.issues[0].message).toContain('must be positive');
    expect(fn).not.toHaveBeenCalled();
  });

  it('reports a decoder defect at prepare as an InputValidatorError, as the text form would', () => {
    const decode = (): never => {
      throw new TypeError('oops');
    };
    const binding = bind(FuncTool.create({ name: 'half', inputSchema, decode }, () => 1));
    const err = thrownBy(() => binding.contract.prepare({ name: 'half', arguments: '{"n":1}' })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.cause).toBeInstanceOf(InputValidatorError);
    expect((err.cause as InputValidatorError).thrown).toBeInstanceOf(TypeError);
    const viaText = bind(
      new ValidatingTool({ name: 'half', inputSchema }, (argumentsJson) => {
        FuncTool.create({ name: 'half', inputSchema, decode }, () => 1).inputValidator()(argumentsJson);
      }),
    );
    expect(
      (thrownBy(() => viaText.contract.prepare({ name: 'half', arguments: '{"n":1}' })) as ToolError).message,
    ).toBe(err.message);
  });

  it('decodes the normalized `{}` for blank arguments', async () => {
    const seen: JsonValue[] = [];
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
    const binding = bind(
      FuncTool.create({ name: 'half', inputSchema: schema, decode: (v: JsonValue) => (seen.push(v), v) }, () => 'ok'),
    );
    const invocation = binding.contract.prepare({ name: 'half', arguments: ' \n\t' });
    await binding.call(invocation);
    await binding.call(invocation);
    expect(seen).toEqual([{}, {}]);
  });

  it('keeps giving a caller-declared validator the exact admitted text', () => {
    const texts: string[] = [];
    const binding = bind(new ValidatingTool({ name: 'v', inputSchema: { type: 'object' } }, (t) => void texts.push(t)));
    binding.contract.prepare({ name: 'v', arguments: ' { "a" : 1 } ' });
    expect(texts).toEqual([' { "a" : 1 } ']);
  });

  it('runs a FuncTool validator taken out and declared by another tool on the text', () => {
    const decode = jest.fn((v: JsonValue) => v);
    const validator = FuncTool.create({ name: 'half', inputSchema, decode }, () => 1).inputValidator();
    const binding = bind(new ValidatingTool({ name: 'other', inputSchema }, validator));
    binding.contract.prepare({ name: 'other', arguments: '{"n":4}' });
    expect(decode).toHaveBeenCalledWith({ n: 4 });
    expect(() => validator('{"n":1,"n":2}')).toThrow(/duplicate member/);
  });

  it('decodes an invocation of another contract when the tool is called directly', async () => {
    const decodeA = jest.fn((v: JsonValue) => v);
    const decodeB = jest.fn((v: JsonValue) => ({ from: 'b', v }));
    const a = FuncTool.create({ name: 'a', inputSchema, decode: decodeA }, (input) => input);
    const b = FuncTool.create({ name: 'b', inputSchema, decode: decodeB }, (input) => input);
    const invocation = bind(a).contract.prepare({ name: 'a', arguments: '{"n":6}' });
    const result = await b.call(invocation);
    expect(decodeB).toHaveBeenCalledWith({ n: 6 });
    expect('output' in result && result.output.details).toBe('{"from":"b","v":{"n":6}}');
  });

  it('refuses a foreign invocation at Binding.call, and a fake one at FuncTool.call', async () => {
    const fn = jest.fn(() => 1);
    const one = bind(FuncTool.create({ name: 'half', inputSchema, decode: (v: JsonValue) => v }, fn));
    const two = bind(FuncTool.create({ name: 'half', inputSchema, decode: (v: JsonValue) => v }, fn));
    const foreign = two.contract.prepare({ name: 'half', arguments: '{"n":2}' });
    const err = (await rejectionOf(one.call(foreign))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toContain('binding "half"');
    const fake = Object.create(Invocation.prototype) as Invocation;
    const tool = FuncTool.create({ name: 'half', inputSchema, decode: (v: JsonValue) => v }, fn);
    expect(((await rejectionOf(tool.call(fake))) as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    expect(((await rejectionOf(one.call(fake))) as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    const proxy = new Proxy(foreign, {});
    expect(((await rejectionOf(two.call(proxy))) as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    expect(fn).not.toHaveBeenCalled();
  });

  it('reads the admitted text, not a patched prototype getter', async () => {
    const seen: JsonValue[] = [];
    const binding = bind(
      FuncTool.create({ name: 'half', inputSchema, decode: (v: JsonValue) => (seen.push(v), v) }, () => 1),
    );
    const invocation = binding.contract.prepare({ name: 'half', arguments: '{"n":2}' });
    const descriptor = Object.getOwnPropertyDescriptor(Invocation.prototype, 'arguments') as PropertyDescriptor;
    Object.defineProperty(Invocation.prototype, 'arguments', { get: () => '{"n":"not admitted"' });
    try {
      // The second call decodes the arguments again, from the private admitted text.
      await binding.call(invocation);
      await binding.call(invocation);
    } finally {
      Object.defineProperty(Invocation.prototype, 'arguments', descriptor);
    }
    expect(seen).toEqual([{ n: 2 }, { n: 2 }]);
  });

  it('works the same through a Guard in a Registry', async () => {
    const registry = new Registry(
      new Guard({
        tool: FuncTool.create(
          { name: 'half', inputSchema, decode: (v: JsonValue) => v as { n: number } },
          ({ n }) => n / 2,
        ),
        authorizer: () => true,
      }),
    );
    const binding = registry.resolve('half');
    if (binding === undefined) throw new Error('missing');
    expect(text(await binding.call(binding.contract.prepare({ name: 'half', arguments: '{"n":8}' })))).toBe('4');
  });
});

describe('results are encoded as before', () => {
  class Point {
    constructor(
      public x: number,
      public y: number,
    ) {}
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const shared = { s: 1 };
  const chain = (depth: number, end: unknown): unknown => {
    let node: unknown = end;
    for (let i = 0; i < depth; i++) node = i % 2 === 0 ? { next: node } : [node];
    return node;
  };
  const deepCycle: Record<string, unknown> = {};
  deepCycle.down = chain(40, deepCycle);
  const values: unknown[] = [
    { a: shared, b: [shared, shared] },
    chain(40, 'leaf'),
    chain(40, shared),
    deepCycle,
    { list: [deepCycle] },
    { huge: 1e300, small: -1e300, max: Number.MAX_SAFE_INTEGER, min: -Number.MAX_SAFE_INTEGER },
    0,
    -0,
    1.5,
    1e21,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    'text',
    '\u2028 "quoted" \\ \n',
    '\ud83d\ude00',
    true,
    null,
    [],
    {},
    [1, [2, [3, { a: [] }]]],
    { a: 1, b: undefined, c: 'x', __proto__: null },
    JSON.parse('{"__proto__":{"x":1}}'),
    new Point(1, 2),
    { when: new Date(0) },
    { toJSON: () => ({ replaced: true }) },
    [undefined],
    [() => 1],
    { big: 1n },
    { n: NaN },
    { bad: '\ud800' },
    { ['\udc00']: 1 },
    new Map(),
    new Set([1]),
    cyclic,
    { deep: 2 ** 53 },
    -(2 ** 60),
  ];

  it('gives the same text and the same refusal as toJsonData', () => {
    const options = { callToJSON: true, allowInstances: true };
    for (const value of values) {
      const full = toJsonData(value, options);
      const fast = toJsonText(value, options);
      expect(fast.ok).toBe(full.ok);
      if (full.ok && fast.ok) expect(fast.text).toBe(full.text);
      if (!full.ok && !fast.ok) expect(fast.reason).toBe(full.reason);
      // What the writer vouches for is admitted.
      if (fast.ok && fast.admitted) expect(admitJson(fast.text).ok).toBe(true);
    }
  });

  it('gives the same Result (or the same error) from a function', async () => {
    for (const value of values) {
      const binding = bind(
        FuncTool.create({ name: 'f', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => value),
      );
      const invocation = binding.contract.prepare({ name: 'f', arguments: '{}' });
      let outcome: string;
      try {
        const result = await binding.call(invocation);
        const output = (result as { output: Output }).output;
        outcome = `ok ${String(output.details)} ${String(output.asText())}`;
        if (output.details !== undefined) expect(admitJson(output.details).ok).toBe(true);
      } catch (e) {
        outcome = `error ${(e as Error).message}`;
      }
      let expected: string;
      const data = toJsonData(value, { callToJSON: true, allowInstances: true });
      if (typeof value === 'string') expected = `ok undefined ${value}`;
      else if (!data.ok) expected = `error tool: encode function result: ${data.reason}`;
      else {
        try {
          const output = Output.json(data.text);
          expected = `ok ${String(output.details)} ${String(output.asText())}`;
        } catch (e) {
          expected = `error tool: encode function result: ${detailOf(e as ToolError)}`;
        }
      }
      expect(outcome).toBe(expected);
    }
  });

  it('refuses an integer beyond 2^53 - 1 in a result, as admission does', async () => {
    const binding = bind(
      FuncTool.create({ name: 'f', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => ({
        id: 2 ** 53,
      })),
    );
    const err = (await rejectionOf(binding.call(binding.contract.prepare({ name: 'f', arguments: '{}' })))) as Error;
    expect(err.message).toMatch(/^tool: encode function result: /);
    expect(hasErrorCode(err, 'ERR_INVALID_OUTPUT')).toBe(true);
    expect(err.message).toContain('9007199254740992 at /id');
  });
});

describe('Registry.definitions() keeps its sorted list until the next registration', () => {
  it('returns a fresh array every time, updated by register', () => {
    const tool = (name: string) =>
      FuncTool.create({ name, inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => 1);
    const registry = new Registry(tool('b'), tool('a'));
    const first = registry.definitions();
    first.push(first[0]);
    first.reverse();
    const second = registry.definitions();
    expect(second).not.toBe(first);
    expect(second.map((d) => d.name)).toEqual(['a', 'b']);
    registry.register();
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'b']);
    expect(() => registry.register(tool('c'), tool('a'))).toThrow(/already registered/);
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'b']);
    registry.register(tool('0'), tool('c'));
    expect(registry.definitions().map((d) => d.name)).toEqual(['0', 'a', 'b', 'c']);
  });
});

describe('toJsonText writes plain data directly, exactly as the full walk does', () => {
  class Box {
    constructor(readonly inner: unknown) {}
  }
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 53, -(2 ** 60), 1e21, -0, 5e-324, NaN, Infinity, undefined, 1n),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('\ud800', 'a\udc00', '\ud83d\ude00', '"\\\n\u2028'),
    fc.constantFrom(new Date(0), new Map(), new Set([1]), () => 1, Symbol('s')),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('__proto__', 'toJSON', '\ud800')),
        tie('value'),
        { maxKeys: 4 },
      ),
      tie('value').map((v) => new Box(v)),
      tie('value').map((v) => Object.assign(Object.create(null) as object, { v })),
      tie('value').map((v) => ({ toJSON: () => v })),
    ),
  }));
  const nested = (depth: number, inner: unknown): unknown => {
    let v = inner;
    for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { d: v };
    return v;
  };

  it('gives the same text, admission flag and refusal as toJsonData for generated values (fixed seed)', () => {
    const options = { callToJSON: true, allowInstances: true };
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 40 }), (v, depth) => {
        for (const input of [v, nested(depth, v)]) {
          const full = toJsonData(input, options);
          const fast = toJsonText(input, options);
          expect(fast.ok).toBe(full.ok);
          if (full.ok && fast.ok) {
            expect(fast.text).toBe(full.text);
            if (fast.admitted) expect(admitJson(fast.text).ok).toBe(true);
          }
          if (!full.ok && !fast.ok) expect(fast.reason).toBe(full.reason);
        }
      }),
      { seed: 20261130, numRuns: 600 },
    );
  });

  it('leaves a member whose getter throws to the full walk, which reports it', () => {
    const hostile = {
      a: 1,
      get b(): number {
        throw new Error('boom');
      },
    };
    expect(toJsonText(hostile)).toEqual(toJsonData(hostile));
    expect(toJsonText(hostile).ok).toBe(false);
  });

  it('refuses a key with a lone surrogate even when its value is undefined (as the full walk does)', () => {
    const value = { ['\ud800']: undefined };
    expect(toJsonText(value)).toEqual({ ok: false, reason: (toJsonData(value) as { reason: string }).reason });
  });
});

describe('admission reuses the frames of a shallow scan without carrying anything over', () => {
  it('judges each text on its own, whatever the previous scan saw or where it stopped', () => {
    const sequence: [string, boolean][] = [
      ['{"a":{"b":1,"c":2}}', true],
      ['{"a":{"b":1,"b":2}}', false], // duplicate at depth 2
      ['{"a":{"b":1,"c":2}}', true], // the same names again, in a fresh document
      ['{"a":{"b":1,"c":', false], // stops mid-object
      ['{"a":{"c":1,"c":2}}', false],
      ['{"x":[{"k":1},{"k":1}]}', true], // same name in sibling objects
      [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')}}`, true], // many names: a Set
      ['{"k1":1,"k1":2}', false],
      ['{"k1":1,"k2":2}', true],
      [`${'['.repeat(20)}1${']'.repeat(20)}`, true],
      ['{"q":"\\u0061","q":1}', false],
      ['{"a":1}', true],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [text, admitted] of sequence) expect({ text, ok: admitJson(text).ok }).toEqual({ text, ok: admitted });
    }
  });
});

describe('FuncTool results: awaiting thenables and reading getters', () => {
  const run = async (fn: () => unknown): Promise<string> => {
    const binding = bind(
      FuncTool.create({ name: 'f', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, fn),
    );
    try {
      const result = await binding.call(binding.contract.prepare({ name: 'f', arguments: '{}' }));
      return `ok ${String((result as { output: Output }).output.details ?? (result as { output: Output }).output.asText())}`;
    } catch (e) {
      return `error ${(e as Error).message}`;
    }
  };

  it('awaits a returned promise as await does: an own `then` override is not consulted', async () => {
    const fn = () => {
      const p = Promise.resolve({ a: 1 });
      (p as { then: unknown }).then = (ok: (v: unknown) => void) => ok('from own then');
      return p;
    };
    expect(await run(fn)).toBe('ok {"a":1}');
  });

  it("reads a thenable's `then` getter once", async () => {
    let reads = 0;
    const thenable = {
      get then() {
        reads += 1;
        return (ok: (v: unknown) => void) => ok({ b: 2 });
      },
    };
    expect(await run(() => thenable)).toBe('ok {"b":2}');
    expect(reads).toBe(1);
  });

  it('fails the result of a getter that throws on its first read only, as an encode error', async () => {
    let reads = 0;
    const value = {
      get flaky(): number {
        reads += 1;
        if (reads === 1) throw new Error('first read');
        return 1;
      },
    };
    const text = await run(() => value);
    expect(text.startsWith('error tool: encode function result: ')).toBe(true);
    expect(text).toContain('threw: first read');
    expect(reads).toBe(1);
  });
});
