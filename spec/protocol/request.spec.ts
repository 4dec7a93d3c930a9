import { FuncTool, MAX_INPUT_BYTES, ToolError, bind, isAdmissionRefusal, validateRequest } from '../../lib/protocol';
import { renderOutcome } from '../../lib/providers';
import { thrownBy } from './helpers';

const message = (value: unknown) => (thrownBy(() => validateRequest(value)) as ToolError).message;

describe('validateRequest', () => {
  it('accepts a name and any argument text (JSON is checked later, by prepare)', () => {
    expect(() => validateRequest({ name: 'x', arguments: 'not json' })).not.toThrow();
  });

  it('refuses what is not a request, with ERR_INVALID_REQUEST', () => {
    expect((thrownBy(() => validateRequest(null)) as ToolError).code).toBe('ERR_INVALID_REQUEST');
    expect(message({ name: '', arguments: '{}' })).toBe(
      'tool: invalid request: name must not be empty; send the name of a defined tool',
    );
    expect(message({ name: 'x', arguments: {} })).toBe(
      'tool: invalid request: arguments of "x" must be a string of JSON text',
    );
    expect(message({ name: 'x\ud800', arguments: '{}' })).toContain('valid UTF-8');
  });

  it('bounds the arguments at MAX_INPUT_BYTES UTF-8 bytes', () => {
    expect(() => validateRequest({ name: 'x', arguments: 'x'.repeat(MAX_INPUT_BYTES) })).not.toThrow();
    expect(message({ name: 'x', arguments: 'x'.repeat(MAX_INPUT_BYTES + 1) })).toContain('1048577 bytes');
  });
});

describe('Contract.prepare of a request that throws when read', () => {
  const binding = bind(FuncTool.create({ name: 't', inputSchema: { type: 'object' }, decode: (v) => v }, () => 'ran'));

  it('is the caller defect, not a refusal: the model sees only that the tool failed', () => {
    const secret = 'postgres://admin:hunter2@db';
    const requests: unknown[] = [
      {
        name: 't',
        get arguments(): string {
          throw new Error(secret);
        },
      },
      new Proxy(
        {},
        {
          get() {
            throw new Error(secret);
          },
        },
      ),
    ];
    for (const request of requests) {
      const error = thrownBy(() => binding.contract.prepare(request as never));
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
      expect(isAdmissionRefusal(error)).toBe(false);
      expect(renderOutcome('t', { error }).output.asText()).toBe('error: tool "t" failed');
    }
  });

  it('still refuses a request that breaks a rule (a raw lone surrogate) as the model call', () => {
    const error = thrownBy(() => binding.contract.prepare({ name: 't', arguments: '{"a":"\ud800"}' }));
    expect(isAdmissionRefusal(error)).toBe(true);
  });
});

describe('Contract.prepare reads the request once', () => {
  const binding = bind(FuncTool.create({ name: 't', inputSchema: { type: 'object' }, decode: (v) => v }, () => 'ran'));

  it('admits what it checked, whatever a getter answers next', () => {
    // Regression (hostile review): `arguments` was read again after the check, and a second answer
    // of 0 (not a string) was admitted as the blank arguments `{}`.
    for (const later of [0, 7, true, '{"b":2}', 'x'.repeat(MAX_INPUT_BYTES + 1)]) {
      let reads = 0;
      const request = {
        get name(): string {
          return 't';
        },
        get arguments(): unknown {
          reads += 1;
          return reads === 1 ? '{"a":1}' : later;
        },
      };
      const invocation = binding.contract.prepare(request as never);
      expect(reads).toBe(1);
      expect(invocation.arguments).toBe('{"a":1}');
    }
  });
});
