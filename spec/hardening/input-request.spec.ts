/**
 * Suspension survives the wire: an InputRequest round-trips through its wire JSON byte for byte,
 * a tampered wire is refused or rebuilt through the same rules, and a request that comes back
 * tampered (state, response schema), foreign (tool, principal) or twice is refused by a runtime that
 * seals it with ContinuationSealer (the library cannot know which call a continuation belongs to:
 * docs/reference-semantics.md section 7.3 step 8, the runtime's duty).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ContinuationError, ContinuationSealer } from '../../lib/mcp';
import { FuncTool, InputRequest, Output, ToolError, bind, canonicalJson, classifyFailure } from '../../lib/protocol';
import type { Binding, JsonObject, Result } from '../../lib/protocol';
import { safeJsonObject, safeJsonValue } from './arbitraries';

const schemas = fc.constantFrom<JsonObject | boolean>(
  true,
  { type: 'boolean' },
  {
    type: 'object',
    properties: { approve: { type: 'boolean' }, note: { type: 'string', maxLength: 40 } },
    required: ['approve'],
    additionalProperties: false,
  },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', enum: ['yes', 'no'] },
);

const requests = fc
  .record({ prompt: safeJsonValue, responseSchema: schemas, state: safeJsonObject })
  .map(({ prompt, responseSchema, state }) =>
    InputRequest.create({ prompt: JSON.stringify(prompt), responseSchema, continuationState: JSON.stringify(state) }),
  );

describe('InputRequest wire round trip', () => {
  it('survives JSON.stringify then InputRequest.parse byte for byte (prompt, schema, state texts too)', () => {
    fc.assert(
      fc.property(requests, (request) => {
        const wire = JSON.stringify(request);
        const back = InputRequest.parse(wire);
        return (
          JSON.stringify(back) === wire &&
          back.prompt === request.prompt &&
          back.state === request.state &&
          canonicalJson(back.responseSchema) === canonicalJson(request.responseSchema) &&
          JSON.stringify(back.responseSchema) === JSON.stringify(request.responseSchema)
        );
      }),
      { seed: 606, numRuns: 300 },
    );
  });

  it('refuses a tampered wire with ERR_INVALID_INPUT_REQUEST or rebuilds a valid request, and never throws anything else', () => {
    const mutate = fc.tuple(fc.nat(), fc.integer({ min: 0x20, max: 0x7e }));
    fc.assert(
      fc.property(requests, fc.array(mutate, { minLength: 1, maxLength: 3 }), (request, edits) => {
        let wire = JSON.stringify(request);
        for (const [at, c] of edits) {
          const k = at % wire.length;
          wire = wire.slice(0, k) + String.fromCharCode(c) + wire.slice(k + 1);
        }
        try {
          const back = InputRequest.parse(wire);
          return JSON.stringify(InputRequest.parse(JSON.stringify(back))) === JSON.stringify(back);
        } catch (e) {
          return e instanceof ToolError && e.code === 'ERR_INVALID_INPUT_REQUEST';
        }
      }),
      { seed: 607, numRuns: 500 },
    );
  });

  it.each([
    ['an extra member', (w: Record<string, unknown>) => ({ ...w, admin: true })],
    ['a missing state', (w: Record<string, unknown>) => ({ prompt: w.prompt, response_schema: w.response_schema })],
    ['a schema that does not compile', (w: Record<string, unknown>) => ({ ...w, response_schema: { type: 'nope' } })],
    ['a schema that is an array', (w: Record<string, unknown>) => ({ ...w, response_schema: [] })],
  ])('refuses a wire with %s', (_label, tamper) => {
    const wire = JSON.parse(
      JSON.stringify(
        InputRequest.create({
          prompt: '"Delete?"',
          responseSchema: { type: 'boolean' },
          continuationState: '{"path":"/a"}',
        }),
      ),
    );
    expect(() => InputRequest.parse(JSON.stringify(tamper(wire)))).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INPUT_REQUEST' }),
    );
  });
});

/**
 * The runtime's duty done with ContinuationSealer (lib/mcp/sealed-state.ts): the runtime seals each
 * InputRequest before it goes on the wire, bound to tool, arguments, response schema and principal,
 * and opens what comes back before it builds the Continuation, so the answer is checked against the
 * schema the tool asked with and the tool gets its own state, once.
 */
const sealer = new ContinuationSealer({ keys: [{ id: 'k1', secret: randomBytes(32) }], currentKeyId: 'k1' });
const ARGS = '{}';

/** A tool that deletes on a truthy answer: it trusts the schema it asked with ({"type":"boolean"}). */
function deleteTool(name: string, acted: string[] = []): Binding {
  const config = { name, inputSchema: { type: 'object' }, decode: (v: unknown) => v };
  return bind(
    FuncTool.create(config, (_input, call): InputRequest | Output => {
      if (call.continuation === undefined) {
        const continuationState = JSON.stringify({ path: '/etc/app.conf' });
        const prompt = '"Delete /etc/app.conf?"';
        return InputRequest.create({ prompt, responseSchema: { type: 'boolean' }, continuationState });
      }
      const { path } = JSON.parse(call.continuation.state) as { path: string };
      const outcome = JSON.parse(call.continuation.response) ? `deleted ${path}` : `kept ${path}`;
      acted.push(outcome);
      return Output.text(outcome);
    }),
  );
}

const callOf = (binding: Binding, principal: string) => ({
  toolName: binding.contract.name,
  arguments: ARGS,
  principal,
});

/** Runs the call until it suspends; returns the sealed request's wire JSON, as the client sees it. */
async function suspend(binding: Binding, principal = 'alice'): Promise<string> {
  const result: Result = await binding.call(binding.contract.prepare({ name: binding.contract.name, arguments: ARGS }));
  if (!('inputRequest' in result)) throw new Error('expected a suspension');
  return JSON.stringify(sealer.sealRequest(result.inputRequest, callOf(binding, principal)));
}

/** Resumes from a wire and an answer the client sent; a refusal comes back as its reason or code. */
async function resume(binding: Binding, wire: string, answer: string, principal = 'alice'): Promise<string> {
  try {
    const request = await sealer.openRequest(InputRequest.parse(wire), callOf(binding, principal));
    const continuation = request.continuation(answer);
    const invocation = binding.contract.prepare({ name: binding.contract.name, arguments: ARGS }, continuation);
    const result = await binding.call(invocation);
    return 'output' in result ? (result.output.asText() as string) : 'suspended';
  } catch (e) {
    if (e instanceof ContinuationError) return `refused: ${e.reason}`;
    if (e instanceof ToolError) return `invalid: ${e.code}`;
    return `${classifyFailure(e)?.kind}: ${classifyFailure(e)?.output.asText()}`;
  }
}

/** The wire with its token's payload replaced by `edit(payload)`, MAC kept. */
function withPayload(wire: string, edit: (payload: Record<string, unknown>) => Record<string, unknown>): string {
  const request = JSON.parse(wire) as { continuation_state: string };
  const [version, kid, body, mac] = request.continuation_state.split('.');
  const payload = edit(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>);
  const forged = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return JSON.stringify({ ...request, continuation_state: [version, kid, forged, mac].join('.') });
}

describe('continuations from tampered or foreign requests', () => {
  it('resumes with the untouched request after a wire round trip', async () => {
    const tool = deleteTool('delete_file');
    const wire = await suspend(tool);
    expect(JSON.parse(wire).continuation_state).toMatch(/^v2\.k1\./);
    expect(await resume(tool, wire, 'true')).toBe('deleted /etc/app.conf');
  });

  it('refuses a request whose response_schema was swapped for true, so "yes" never reaches the tool', async () => {
    const acted: string[] = [];
    const tool = deleteTool('delete_file', acted);
    const swapped = JSON.stringify({ ...JSON.parse(await suspend(tool)), response_schema: true });
    expect(InputRequest.parse(swapped).continuation('"yes"').response).toBe('"yes"');
    expect(await resume(tool, swapped, '"yes"')).toBe('refused: wrong_schema');
    expect(acted).toEqual([]);
  });

  it('refuses a request whose state was tampered on the wire', async () => {
    const acted: string[] = [];
    const tool = deleteTool('delete_file', acted);
    const tampered = withPayload(await suspend(tool), (p) => ({ ...p, s: JSON.stringify({ path: '/etc/passwd' }) }));
    expect(await resume(tool, tampered, 'true')).toBe('refused: tampered');
    expect(acted).toEqual([]);
  });

  it('refuses a request another tool issued, or another principal brings back', async () => {
    const foreign = await suspend(deleteTool('archive_file'));
    expect(await resume(deleteTool('delete_file'), foreign, 'true')).toBe('refused: wrong_tool');
    expect(await resume(deleteTool('delete_file'), await suspend(deleteTool('delete_file')), 'true', 'mallory')).toBe(
      'refused: wrong_principal',
    );
  });

  it('resumes a request once: a replayed request is refused and the tool acts once', async () => {
    const acted: string[] = [];
    const tool = deleteTool('delete_file', acted);
    const wire = await suspend(tool);
    expect(await resume(tool, wire, 'true')).toBe('deleted /etc/app.conf');
    expect(await resume(tool, wire, 'true')).toBe('refused: replayed');
    expect(acted).toEqual(['deleted /etc/app.conf']);
  });

  it('refuses an answer the request schema does not allow, before any tool runs', async () => {
    const acted: string[] = [];
    const tool = deleteTool('delete_file', acted);
    expect(await resume(tool, await suspend(tool), '"yes"')).toBe('invalid: ERR_INVALID_INPUT_REQUEST');
    expect(acted).toEqual([]);
  });
});
