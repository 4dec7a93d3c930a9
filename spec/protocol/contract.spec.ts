import {
  InputRequest,
  InputValidatorError,
  Invocation,
  MAX_INPUT_BYTES,
  ToolError,
  bind,
  hasErrorCode,
  isError,
  type Continuation,
} from '../../lib/protocol';
import { argumentsRefused } from '../../lib/protocol/messages';
import { FakeTool, ValidatingTool, thrownBy } from './helpers';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  additionalProperties: false,
} as const;

function contractOf(validator?: (argumentsJson: string) => void) {
  const tool =
    validator === undefined
      ? new FakeTool({ name: 'weather', inputSchema: schema })
      : new ValidatingTool({ name: 'weather', inputSchema: schema }, validator);
  return bind(tool).contract;
}

function refusal(fn: () => unknown): ToolError {
  const err = thrownBy(fn);
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('Contract.prepare', () => {
  it('admits arguments and keeps their exact text, whitespace included', () => {
    const invocation = contractOf().prepare({ name: 'weather', arguments: ' {"city": "Oslo"} ' });
    expect(invocation.arguments).toBe(' {"city": "Oslo"} ');
    expect(invocation.continuation).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['spaces', '   '],
    ['U+00A0', '\u00a0'],
    ['U+0085 and tabs', '\u0085\t\n'],
    ['U+3000', '\u3000'],
  ])('normalizes blank arguments (%s) to {}', (_label, args) => {
    expect(contractOf().prepare({ name: 'weather', arguments: args }).arguments).toBe('{}');
  });

  it('refuses U+FEFF arguments: a BOM is not whitespace and not JSON', () => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '\ufeff' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toMatch(/^tool: invalid invocation: arguments: /);
  });

  it('refuses a BOM before an object', () => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '\ufeff{}' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
  });

  it('refuses a wrong tool name, byte for byte and case-sensitively', () => {
    const err = refusal(() => contractOf().prepare({ name: 'Weather', arguments: '{}' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toContain('"Weather"');
    expect(err.message).toContain('"weather"');
  });

  it('refuses an empty name as an invalid request inside an invalid invocation', () => {
    const err = refusal(() => contractOf().prepare({ name: '', arguments: '{}' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(err.cause).toMatchObject({ code: 'ERR_INVALID_REQUEST' });
  });

  it('does not repeat the `tool: ` prefix of the invalid request it wraps (issue 15 item 7)', () => {
    // Was `tool: invalid invocation: tool: invalid request: name must not be empty ...`.
    const err = refusal(() => contractOf().prepare({ name: '', arguments: '{}' }));
    expect(err.message.startsWith('tool: invalid invocation: invalid request: ')).toBe(true);
    expect((err.cause as Error).message.startsWith('tool: invalid request: ')).toBe(true);
  });

  it('refuses a request that is not an object', () => {
    const err = refusal(() => contractOf().prepare(null as never));
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
  });

  it('admits arguments of exactly MAX_INPUT_BYTES UTF-8 bytes', () => {
    const filler = 'x'.repeat(MAX_INPUT_BYTES - '{"city":""}'.length);
    const args = `{"city":"${filler}"}`;
    expect(Buffer.byteLength(args)).toBe(MAX_INPUT_BYTES);
    expect(contractOf().prepare({ name: 'weather', arguments: args }).arguments).toBe(args);
  });

  it('refuses arguments one byte over MAX_INPUT_BYTES before parsing', () => {
    const filler = 'x'.repeat(MAX_INPUT_BYTES - '{"city":""}'.length + 1);
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: `{"city":"${filler}"}` }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(err.message).toContain('1048577 bytes');
  });

  it('counts UTF-8 bytes, not UTF-16 code units, against MAX_INPUT_BYTES', () => {
    // 'é' is 2 UTF-8 bytes: the text is short in code units but one byte over the limit.
    const half = (MAX_INPUT_BYTES - '{"city":""}'.length) / 2;
    const args = `{"city":"${'é'.repeat(Math.floor(half))}xx"}`;
    expect(Buffer.byteLength(args)).toBe(MAX_INPUT_BYTES + 1);
    expect(
      hasErrorCode(
        thrownBy(() => contractOf().prepare({ name: 'weather', arguments: args })),
        'ERR_INVALID_REQUEST',
      ),
    ).toBe(true);
  });

  it.each([
    ['null', 'null', 'received null'],
    ['an array', '[]', 'received an array'],
    ['a string', '"text"', 'received a string'],
    ['a number', '1', 'received a number'],
  ])('refuses top-level %s arguments', (_label, args, text) => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: args }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0]).toMatchObject({ code: 'schema', path: [] });
    expect(err.issues[0].message).toContain(text);
  });

  it('refuses malformed JSON and trailing garbage', () => {
    for (const args of ['{', '{} x', '{} {}', "{'a':1}"]) {
      const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: args }));
      expect(err.code).toBe('ERR_INVALID_INVOCATION');
      expect(err.issues).toHaveLength(1);
    }
  });

  it('refuses a schema violation with a JSON Pointer and the issues attached', () => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '{"city":1}' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toBe(argumentsRefused(err.issues).message);
    expect(err.issues[0]).toMatchObject({ code: 'schema', path: ['city'], keyword: 'type' });
  });

  it('refuses a request whose arguments hold a lone surrogate', () => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '{"city":"\ud800"}' }));
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
  });

  it('runs the input validator on the admitted text after the schema passed', () => {
    const seen: string[] = [];
    const contract = contractOf((text) => void seen.push(text));
    contract.prepare({ name: 'weather', arguments: ' ' });
    contract.prepare({ name: 'weather', arguments: '{"city":"Oslo"}' });
    expect(seen).toEqual(['{}', '{"city":"Oslo"}']);
  });

  it('never runs the validator after a schema failure', () => {
    const validator = jest.fn();
    expect(() => contractOf(validator).prepare({ name: 'weather', arguments: '{"city":1}' })).toThrow(ToolError);
    expect(validator).not.toHaveBeenCalled();
  });

  it('reports a validator ToolError as invalid input, issues carried and the error reachable', () => {
    const invalid = new ToolError('ERR_INVALID_INVOCATION', '/days: must be even', {
      issues: [{ code: 'dto', path: ['days'], message: 'must be even', constraint: 'isEven' }],
    });
    const err = refusal(() =>
      contractOf(() => {
        throw invalid;
      }).prepare({ name: 'weather', arguments: '{"days":3}' }),
    );
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toContain('/days: must be even');
    expect(isError(err, invalid)).toBe(true);
    expect(err.issues[0].constraint).toBe('isEven');
    expect(err.cause).not.toBeInstanceOf(InputValidatorError);
  });

  it('reports a validator that throws something else as an InputValidatorError (a defect)', () => {
    const bug = new TypeError('cannot read properties of undefined');
    const err = refusal(() =>
      contractOf(() => {
        throw bug;
      }).prepare({ name: 'weather', arguments: '{}' }),
    );
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toContain('cannot read properties of undefined');
    const defect = err.cause as InputValidatorError;
    expect(defect).toBeInstanceOf(InputValidatorError);
    expect(defect.thrown).toBe(bug);
    expect(isError(err, bug)).toBe(true);
  });

  it('reports a validator that throws a non-Error value as an InputValidatorError holding it', () => {
    const err = refusal(() =>
      contractOf(() => {
        throw 'boom';
      }).prepare({ name: 'weather', arguments: '{}' }),
    );
    expect((err.cause as InputValidatorError).thrown).toBe('boom');
    expect(err.message).toContain('arguments: input validation panicked: boom');
  });

  it('treats a validator returning a Promise as a defect: admission is synchronous', () => {
    const err = refusal(() =>
      contractOf(() => Promise.resolve() as never).prepare({ name: 'weather', arguments: '{}' }),
    );
    expect(err.cause).toBeInstanceOf(InputValidatorError);
  });

  it('attaches a continuation and treats null as a new call', () => {
    const request = InputRequest.create({
      prompt: '"ok?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{"step":1}',
    });
    const continuation = request.continuation('true');
    const contract = contractOf();
    expect(contract.prepare({ name: 'weather', arguments: '{}' }, continuation).continuation).toBe(continuation);
    expect(contract.prepare({ name: 'weather', arguments: '{}' }, null).continuation).toBeUndefined();
  });

  it('refuses a continuation that did not come from an InputRequest', () => {
    const fake = { state: '{}', response: 'true' } as unknown as Continuation;
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '{}' }, fake));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(err, 'ERR_INVALID_INPUT_REQUEST')).toBe(true);
  });

  it('never calls the tool', () => {
    const tool = new FakeTool({ name: 'weather', inputSchema: schema });
    bind(tool).contract.prepare({ name: 'weather', arguments: '{}' });
    expect(tool.calls).toHaveLength(0);
  });
});

describe('Contract', () => {
  it('exposes the name and the definition as authored, member order kept', () => {
    const contract = bind(
      new FakeTool({
        name: 'weather',
        description: 'forecast',
        inputSchema: { type: 'object', properties: { z: {}, a: {} } },
      }),
    ).contract;
    expect(contract.name).toBe('weather');
    const definition = contract.definition();
    expect(definition).toEqual({
      name: 'weather',
      description: 'forecast',
      inputSchema: { type: 'object', properties: { z: {}, a: {} } },
    });
    expect(Object.keys(definition.inputSchema.properties as object)).toEqual(['z', 'a']);
    expect(Object.isFrozen(definition.inputSchema.properties)).toBe(true);
  });

  it('keeps no reference to the tool: no own property holds it', () => {
    const tool = new FakeTool({ name: 'weather', inputSchema: schema });
    const contract = bind(tool).contract;
    const ownValues = Reflect.ownKeys(contract).map(
      (key) => (contract as unknown as Record<PropertyKey, unknown>)[key],
    );
    expect(ownValues).not.toContain(tool);
    expect(Object.values(contract)).not.toContain(tool);
    expect(JSON.stringify(Object.getOwnPropertyNames(contract))).toBe('[]');
  });

  it('cannot be constructed outside bind', () => {
    const Ctor = (bind(new FakeTool()).contract as object).constructor as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol('contract'))).toThrow(ToolError);
  });
});

describe('Invocation', () => {
  it('can only be created by Contract.prepare', () => {
    const Ctor = Invocation as unknown as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol('contract'), {}, '{}', undefined)).toThrow(
      /only Contract.prepare\(\) creates an Invocation/,
    );
  });

  it('is immutable', () => {
    const invocation = contractOf().prepare({ name: 'weather', arguments: '{}' });
    expect(Object.isFrozen(invocation)).toBe(true);
    expect(() => {
      (invocation as unknown as { arguments: string }).arguments = '{"x":1}';
    }).toThrow(TypeError);
  });
});

describe('Contract.prepare with hostile JSON', () => {
  const open = () => bind(new FakeTool({ name: 'open', inputSchema: { type: 'object' } })).contract;
  const prepare = (args: string) => open().prepare({ name: 'open', arguments: args });
  const nest = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it.each([
    ['a duplicate member', '{"a":1,"a":2}', 'duplicate_member'],
    ['a nested duplicate member', '{"x":{"a":1,"a":2}}', 'duplicate_member'],
    ['an escaped duplicate member', '{"a":1,"\\u0061":2}', 'duplicate_member'],
    ['an escaped lone surrogate', '{"a":"\\ud800"}', 'lone_surrogate'],
    ['1e400', '{"a":1e400}', 'number_out_of_range'],
    ['9007199254740993', '{"a":9007199254740993}', 'number_out_of_range'],
    ['trailing garbage', '{"a":1} x', 'invalid_json'],
  ])('refuses %s with ERR_INVALID_INVOCATION and the issue', (_label, args, issueCode) => {
    const err = refusal(() => prepare(args));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toMatch(/^tool: invalid invocation: arguments: /);
    expect(err.issues[0].code).toBe(issueCode);
  });

  it('admits nesting of 10,000 levels and refuses 10,001 without a RangeError', () => {
    expect(prepare(nest(10_000)).arguments).toBe(nest(10_000));
    const err = refusal(() => prepare(nest(10_001)));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0].code).toBe('too_deep');
  });

  it('admits __proto__ and constructor as ordinary members', () => {
    const args = '{"__proto__":{"polluted":true},"constructor":1}';
    expect(prepare(args).arguments).toBe(args);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses __proto__ when the schema forbids unknown members', () => {
    const err = refusal(() => contractOf().prepare({ name: 'weather', arguments: '{"__proto__":{}}' }));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0].code).toBe('schema');
  });
});

describe('which prepare errors are admission refusals (isAdmissionRefusal)', () => {
  const {
    FuncTool: Func,
    bind: bindTool,
    isAdmissionRefusal: refused,
  } = require('../../lib/protocol') as typeof import('../../lib/protocol');
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('marks refusals of the proposal: bad JSON, schema violations, oversized or malformed requests, validator verdicts', () => {
    const contract = bindTool(Func.create({ name: 't', inputSchema: schema, decode: (v) => v }, () => 'ok')).contract;
    expect(refused(thrown(() => contract.prepare({ name: 't', arguments: '{"n":' })))).toBe(true);
    expect(refused(thrown(() => contract.prepare({ name: 't', arguments: '{"n":"x"}' })))).toBe(true);
    expect(refused(thrown(() => contract.prepare({ name: 't', arguments: '[]' })))).toBe(true);
    expect(
      refused(thrown(() => contract.prepare({ name: 't', arguments: `{"n":1,"pad":"${'x'.repeat(1_048_576)}"}` }))),
    ).toBe(true);
  });

  it('does not mark the runtime\u2019s mistakes or validator defects', () => {
    const defective = bindTool(
      Func.create(
        {
          name: 't',
          inputSchema: schema,
          decode: () => {
            throw new TypeError('bug');
          },
        },
        () => 'ok',
      ),
    ).contract;
    expect(refused(thrown(() => defective.prepare({ name: 't', arguments: '{}' })))).toBe(false);
    expect(refused(thrown(() => defective.prepare({ name: 'other', arguments: '{}' })))).toBe(false);
    const plain = bindTool(Func.create({ name: 't', inputSchema: schema, decode: (v) => v }, () => 'ok')).contract;
    expect(refused(thrown(() => plain.prepare({ name: 't', arguments: '{}' }, {} as never)))).toBe(false);
    expect(refused(new Error('x'))).toBe(false);
  });
});
