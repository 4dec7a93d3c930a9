/**
 * Suspension survives the wire: an InputRequest round-trips through its wire JSON byte for byte,
 * a tampered wire is refused or rebuilt through the same rules, and a Continuation built from a
 * tampered or foreign request is refused by a tool that seals its checkpoint (the library cannot
 * know which call a continuation belongs to: reference 7.3 step 8, the runtime's duty).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { Failure, FuncTool, InputRequest, Output, ToolError, bind, canonicalJson, classifyFailure } from '../../lib/protocol';
import type { Binding, Continuation, JsonObject, Result } from '../../lib/protocol';
import { safeJsonObject, safeJsonValue } from './arbitraries';

const schemas = fc.constantFrom<JsonObject | boolean>(
  true,
  { type: 'boolean' },
  { type: 'object', properties: { approve: { type: 'boolean' }, note: { type: 'string', maxLength: 40 } }, required: ['approve'], additionalProperties: false },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', enum: ['yes', 'no'] },
);

const requests = fc.record({ prompt: safeJsonValue, responseSchema: schemas, state: safeJsonObject }).map(({ prompt, responseSchema, state }) =>
  InputRequest.create({ prompt: JSON.stringify(prompt), responseSchema, continuationState: JSON.stringify(state) }));

describe('InputRequest wire round trip', () => {
  it('survives JSON.stringify then InputRequest.parse byte for byte (prompt, schema, state texts too)', () => {
    fc.assert(fc.property(requests, (request) => {
      const wire = JSON.stringify(request);
      const back = InputRequest.parse(wire);
      return JSON.stringify(back) === wire && back.prompt === request.prompt && back.state === request.state
        && canonicalJson(back.responseSchema) === canonicalJson(request.responseSchema)
        && JSON.stringify(back.responseSchema) === JSON.stringify(request.responseSchema);
    }), { seed: 606, numRuns: 300 });
  });

  it('refuses a tampered wire with ERR_INVALID_INPUT_REQUEST or rebuilds a valid request, and never throws anything else', () => {
    const mutate = fc.tuple(fc.nat(), fc.integer({ min: 0x20, max: 0x7e }));
    fc.assert(fc.property(requests, fc.array(mutate, { minLength: 1, maxLength: 3 }), (request, edits) => {
      let wire = JSON.stringify(request);
      for (const [at, c] of edits) { const k = at % wire.length; wire = wire.slice(0, k) + String.fromCharCode(c) + wire.slice(k + 1); }
      try {
        const back = InputRequest.parse(wire);
        return JSON.stringify(InputRequest.parse(JSON.stringify(back))) === JSON.stringify(back);
      } catch (e) {
        return e instanceof ToolError && e.code === 'ERR_INVALID_INPUT_REQUEST';
      }
    }), { seed: 607, numRuns: 500 });
  });

  it.each([
    ['an extra member', (w: Record<string, unknown>) => ({ ...w, admin: true })],
    ['a missing state', (w: Record<string, unknown>) => ({ prompt: w.prompt, response_schema: w.response_schema })],
    ['a schema that does not compile', (w: Record<string, unknown>) => ({ ...w, response_schema: { type: 'nope' } })],
    ['a schema that is an array', (w: Record<string, unknown>) => ({ ...w, response_schema: [] })],
  ])('refuses a wire with %s', (_label, tamper) => {
    const wire = JSON.parse(JSON.stringify(InputRequest.create({ prompt: '"Delete?"', responseSchema: { type: 'boolean' }, continuationState: '{"path":"/a"}' })));
    expect(() => InputRequest.parse(JSON.stringify(tamper(wire)))).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT_REQUEST' }));
  });
});

/**
 * The pattern that makes tampered and foreign continuations refusable today: the tool seals its
 * checkpoint with an HMAC over its own name, the state and the response schema, and verifies the
 * seal when resumed.
 */
const KEY = Buffer.from('hardening-spec-key');
const seal = (tool: string, state: string, schema: unknown): string =>
  createHmac('sha256', KEY).update(`${tool}\n${state}\n${canonicalJson(schema)}`).digest('hex');

function sealedTool(name: string): Binding {
  return bind(FuncTool.create({ name, inputSchema: { type: 'object' }, decode: (v) => v }, (_input, call): InputRequest | Output => {
    const schema = { type: 'boolean' };
    if (call.continuation === undefined) {
      const state = JSON.stringify({ path: '/etc/app.conf' });
      return InputRequest.create({ prompt: '"Delete /etc/app.conf?"', responseSchema: schema, continuationState: JSON.stringify({ state, seal: seal(name, state, schema) }) });
    }
    const { state, seal: got } = JSON.parse(call.continuation.state) as { state: string; seal: string };
    const want = seal(name, state, schema);
    if (typeof got !== 'string' || got.length !== want.length || !timingSafeEqual(Buffer.from(got), Buffer.from(want))) {
      throw new Failure({ kind: 'rejected', output: Output.text('error: this answer does not belong to this call; ask again') });
    }
    return Output.text(call.continuation.response === 'true' ? `deleted ${JSON.parse(state).path}` : 'kept');
  }));
}

async function suspend(binding: Binding): Promise<InputRequest> {
  const result: Result = await binding.call(binding.contract.prepare({ name: binding.contract.name, arguments: '{}' }));
  if (!('inputRequest' in result)) throw new Error('expected a suspension');
  return result.inputRequest;
}

async function resume(binding: Binding, continuation: Continuation): Promise<string> {
  try {
    const result = await binding.call(binding.contract.prepare({ name: binding.contract.name, arguments: '{}' }, continuation));
    return 'output' in result ? (result.output.asText() as string) : 'suspended';
  } catch (e) {
    return `${classifyFailure(e)?.kind}: ${classifyFailure(e)?.output.asText()}`;
  }
}

describe('continuations from tampered or foreign requests', () => {
  it('resumes with a continuation of the untouched request, also after a wire round trip', async () => {
    const tool = sealedTool('delete_file');
    const request = InputRequest.parse(JSON.stringify(await suspend(tool)));
    expect(await resume(tool, request.continuation('true'))).toBe('deleted /etc/app.conf');
  });

  it('refuses a continuation built from a request whose state was tampered on the wire', async () => {
    const tool = sealedTool('delete_file');
    const wire = JSON.parse(JSON.stringify(await suspend(tool)));
    wire.continuation_state.state = JSON.stringify({ path: '/etc/passwd' });
    const tampered = InputRequest.parse(JSON.stringify(wire));
    expect(await resume(tool, tampered.continuation('true'))).toBe('rejected: error: this answer does not belong to this call; ask again');
  });

  it('refuses a continuation built from a request another tool issued', async () => {
    const foreign = await suspend(sealedTool('archive_file'));
    expect(await resume(sealedTool('delete_file'), foreign.continuation('true'))).toMatch(/^rejected: /);
  });

  it('refuses an answer the request schema does not allow, before any tool runs', async () => {
    const request = await suspend(sealedTool('delete_file'));
    expect(() => request.continuation('"yes"')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT_REQUEST' }));
  });
});
