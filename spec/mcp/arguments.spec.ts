/** mcpRequest: MCP tools/call arguments (already parsed) serialized once into a Request, or refused. */
import fc from 'fast-check';
import { mcpRequest } from '../../lib/mcp';

const refusalOf = (args: unknown) => {
  try {
    mcpRequest('t', args);
  } catch (e) {
    return e as { code: string; issues: { code: string; path: unknown[] }[] };
  }
  throw new Error('expected a refusal');
};

describe('mcpRequest', () => {
  it('serializes the arguments object once, and absent arguments as {}', () => {
    expect(mcpRequest('get_weather', { location: 'Paris', n: [1, 2.5] })).toEqual({
      name: 'get_weather',
      arguments: '{"location":"Paris","n":[1,2.5]}',
    });
    expect(mcpRequest('get_time', undefined)).toEqual({ name: 'get_time', arguments: '{}' });
  });

  it('keeps an own __proto__ member, so the contract can refuse it', () => {
    const args = JSON.parse('{"__proto__":{"admin":true}}') as unknown;
    expect(mcpRequest('t', args).arguments).toBe('{"__proto__":{"admin":true}}');
  });

  it('refuses a number JSON.parse made infinite instead of sending null', () => {
    const error = refusalOf(JSON.parse('{"a":[1,{"b":1e400}]}'));
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(error.issues).toEqual([expect.objectContaining({ code: 'number_out_of_range', path: ['a', 1, 'b'] })]);
  });

  it('refuses nesting deeper than 10,000 levels without a RangeError', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 10_001; i++) deep = [deep];
    const error = refusalOf({ a: deep });
    expect(error.issues[0].code).toBe('too_deep');
  });
});

describe('mcpRequest on deeply nested arguments', () => {
  const { mcpRequest: toRequest } = require('../../lib/mcp') as typeof import('../../lib/mcp');
  const { isAdmissionRefusal } = require('../../lib/protocol') as typeof import('../../lib/protocol');
  const nest = (depth: number) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return { a: v };
  };

  it('serializes arguments nested 9,000 deep (deeper than JSON.stringify can go) instead of failing', () => {
    const request = toRequest('t', nest(9_000));
    expect(request.arguments.startsWith('{"a":[[[')).toBe(true);
    expect(request.arguments.length).toBe('{"a":'.length + 9_000 * 2 + 1 + 1);
  });

  it('refuses arguments nested past 10,000 as an admission refusal the model is told about', () => {
    const error = (() => {
      try {
        toRequest('t', nest(10_001));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isAdmissionRefusal(error)).toBe(true);
  });
});

describe('mcpRequest writes parsed arguments exactly as JSON.stringify does', () => {
  it('gives the JSON.stringify text for any JSON the transport parsed (fixed seed)', () => {
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true }),
        fc.constantFrom(2 ** 53, -(2 ** 60), 1e21, 5e-324),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constant('__proto__')), tie('value'), {
          maxKeys: 4,
        }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), value, { maxKeys: 4 }), (args) => {
        // What a transport hands over: the value as JSON.parse builds it (own __proto__ members included).
        const parsed = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
        expect(mcpRequest('t', parsed).arguments).toBe(JSON.stringify(parsed));
      }),
      { seed: 20261130, numRuns: 500 },
    );
  });
});

describe('mcpRequest on arguments with a toJSON method', () => {
  it('leaves MCP arguments with a toJSON method (non-enumerable or inherited) to JSON.stringify', () => {
    const hidden = Object.defineProperty({ k: 1 }, 'toJSON', { value: () => ({ replaced: true }), enumerable: false });
    expect(mcpRequest('x', hidden).arguments).toBe('{"replaced":true}');
    expect(mcpRequest('x', { nested: hidden }).arguments).toBe('{"nested":{"replaced":true}}');
  });
});
