/**
 * Contract.prepare states a FuncTool's decoded input as JSON once
 * (FuncConfig.encode) into Invocation.normalizedArguments; a Guard's policy sees that text as
 * Authorization.arguments. Without an encoder it is the admitted text. An encoder's failure is the
 * tool's defect, never a refusal of the model's arguments. (The dtoInput encoder: spec/dto/normalized-arguments.spec.ts.)
 */
import {
  FuncTool,
  Guard,
  InputValidatorError,
  ToolError,
  admitJson,
  bind,
  isAdmissionRefusal,
} from '../../lib/protocol';
import type { Authorization, JsonObject, JsonValue } from '../../lib/protocol';
import { FakeTool, thrownBy } from './helpers';

const inputSchema: JsonObject = {
  type: 'object',
  properties: { path: { type: 'string' }, depth: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
};

interface Listing {
  path: string;
  depth: number;
}

let decodes = 0;

/** A caller's decoder that applies a default: depth 3 when absent. */
function decodeListing(value: JsonValue): Listing {
  decodes += 1;
  const v = value as { path: string; depth?: number };
  return { path: v.path, depth: v.depth ?? 3 };
}

beforeEach(() => {
  decodes = 0;
});

function guarded(encode: ((input: Listing) => JsonValue) | undefined) {
  const ran: Listing[] = [];
  const seen: string[] = [];
  const tool = FuncTool.create({ name: 'list', inputSchema, decode: decodeListing, encode }, (input: Listing) => {
    ran.push(input);
    return 'ok';
  });
  const binding = bind(new Guard({ tool, authorizer: (a: Authorization) => seen.push(a.arguments) > 0 }));
  return { binding, ran, seen, prepare: (args: string) => binding.contract.prepare({ name: 'list', arguments: args }) };
}

describe('Invocation.normalizedArguments and Authorization.arguments', () => {
  it('are the admitted text exactly as received for a FuncTool without an encoder', async () => {
    const { binding, seen, prepare } = guarded(undefined);
    const invocation = prepare('{ "path" : "/data" }');
    expect(invocation.normalizedArguments).toBe('{ "path" : "/data" }');
    await binding.call(invocation);
    expect(seen).toEqual(['{ "path" : "/data" }']);
  });

  it('are the encoded input of a FuncTool with an encoder; arguments stays the admitted text', async () => {
    const { binding, ran, seen, prepare } = guarded((input) => ({ path: input.path, depth: input.depth }));
    const invocation = prepare('{"path":"/data"}');
    expect(invocation.arguments).toBe('{"path":"/data"}');
    expect(invocation.normalizedArguments).toBe('{"path":"/data","depth":3}');
    await binding.call(invocation);
    expect(seen).toEqual(['{"path":"/data","depth":3}']);
    expect(ran).toEqual([{ path: '/data', depth: 3 }]);
  });

  it('stay the same text on a later call of the same invocation, which decodes afresh', async () => {
    const { binding, ran, seen, prepare } = guarded((input) => ({ path: input.path, depth: input.depth }));
    const invocation = prepare('{"path":"/data"}');
    await binding.call(invocation);
    expect(decodes).toBe(1);
    ran[0].depth = 99;
    await binding.call(invocation);
    expect(decodes).toBe(2);
    expect(seen).toEqual(['{"path":"/data","depth":3}', '{"path":"/data","depth":3}']);
    expect(ran[1]).toEqual({ path: '/data', depth: 3 });
  });

  it('write every number as admission reads it back: 2^53 and beyond in exponent form, -0 as -0', async () => {
    // Regression (new-user review): the model's 1e16, admitted, became the integer literal
    // 10000000000000000, which admission refuses: a defect of the tool, the tool never ran. And
    // the policy read {"n":0} while the tool ran with -0.
    const ran: unknown[] = [];
    const seen: string[] = [];
    const tool = FuncTool.create(
      { name: 'n', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v, encode: (v: JsonValue) => v },
      (input: JsonValue) => (ran.push(input), 'ok'),
    );
    const binding = bind(new Guard({ tool, authorizer: (a: Authorization) => seen.push(a.arguments) > 0 }));
    const args = '{"a":1e16,"b":-9007199254740993e0,"c":-0,"d":[0.5,-0.0,1e300],"e":9007199254740991}';
    const invocation = binding.contract.prepare({ name: 'n', arguments: args });
    const text = '{"a":1e+16,"b":-9.007199254740992e+15,"c":-0,"d":[0.5,-0,1e+300],"e":9007199254740991}';
    expect(invocation.normalizedArguments).toBe(text);
    await binding.call(invocation);
    expect(seen).toEqual([text]);
    const admitted = admitJson(text);
    expect(admitted.ok && Object.is((admitted.value as { c: number }).c, -0)).toBe(true);
    expect(admitted.ok && admitted.value).toEqual(ran[0]);
  });

  it('are the admitted text for a tool that is not a FuncTool', () => {
    const binding = bind(
      new Guard({ tool: new FakeTool({ name: 'fake', inputSchema: { type: 'object' } }), authorizer: () => true }),
    );
    const invocation = binding.contract.prepare({ name: 'fake', arguments: '{"b":1,  "a":2}' });
    expect(invocation.normalizedArguments).toBe('{"b":1,  "a":2}');
  });
});

describe('FuncConfig.encode', () => {
  it('must be a function when given', () => {
    const err = thrownBy(() =>
      FuncTool.create({ name: 'x', inputSchema, decode: decodeListing, encode: 'no' as never }, () => 1),
    ) as ToolError;
    expect(err).toBeInstanceOf(ToolError);
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toMatch(/encode must be a function/);
  });

  const defects: [string, (input: Listing) => JsonValue][] = [
    [
      'throws a ToolError',
      () => {
        throw new ToolError('ERR_INVALID_INVOCATION', 'looks like a refusal');
      },
    ],
    ['returns an array', (input) => [input.path]],
    ['returns a BigInt member', () => ({ n: BigInt(1) }) as never],
  ];
  it.each(defects)('that %s is a defect of the tool at prepare, not a refusal; the tool never runs', (_, encode) => {
    const { ran, seen, prepare } = guarded(encode);
    const err = thrownBy(() => prepare('{"path":"/data"}')) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.cause).toBeInstanceOf(InputValidatorError);
    expect((err.cause as InputValidatorError).message).toMatch(/tool: encode function arguments: /);
    expect(isAdmissionRefusal(err)).toBe(false);
    expect(ran).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });
});
