/**
 * CallOptions.idempotencyKey (lib/protocol/tool.ts): the key a caller names for one logical call
 * reaches the function of a FuncTool unchanged, through a Binding with or without a deadline and
 * through Guards (whose policies see it too); a key that is not a string is refused before the tool
 * runs.
 */
import { FuncTool, Guard, ToolError, bind } from '../../lib/protocol';
import type { CallOptions, FuncCall, Tool } from '../../lib/protocol';

const SCHEMA = { type: 'object', properties: {}, additionalProperties: false } as const;

/** A FuncTool that records the FuncCall its function receives. */
function recordingTool(seen: FuncCall[]): Tool {
  return FuncTool.create({ name: 'pay', inputSchema: SCHEMA, decode: (v) => v }, (_input, call) => {
    seen.push(call);
    return 'paid';
  });
}

async function run(tool: Tool, options: CallOptions, timeoutMs?: number): Promise<void> {
  const binding = bind(tool, timeoutMs === undefined ? undefined : { timeoutMs });
  await binding.call(binding.contract.prepare({ name: 'pay', arguments: '{}' }), options);
}

describe('CallOptions.idempotencyKey', () => {
  it('reaches the function under the default (finite) deadline', async () => {
    const seen: FuncCall[] = [];
    await run(recordingTool(seen), { idempotencyKey: 'key-1', context: 'tenant' });
    expect(seen).toHaveLength(1);
    expect(seen[0].idempotencyKey).toBe('key-1');
    expect(seen[0].context).toBe('tenant');
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it('reaches the function when the binding has no deadline (options passed as they are)', async () => {
    const seen: FuncCall[] = [];
    await run(recordingTool(seen), { idempotencyKey: 'key-2' }, Infinity);
    expect(seen[0].idempotencyKey).toBe('key-2');
  });

  it('reaches the function and the policy through a Guard', async () => {
    const seen: FuncCall[] = [];
    const policySaw: CallOptions[] = [];
    const guarded = new Guard({
      tool: recordingTool(seen),
      authorizer: (_authorization, options) => {
        policySaw.push(options);
        return true;
      },
    });
    await run(guarded, { idempotencyKey: 'key-3' });
    await run(guarded, { idempotencyKey: 'key-4' }, Infinity);
    expect(seen.map((c) => c.idempotencyKey)).toEqual(['key-3', 'key-4']);
    expect(policySaw.map((o) => o.idempotencyKey)).toEqual(['key-3', 'key-4']);
  });

  it('is undefined when the caller names none', async () => {
    const seen: FuncCall[] = [];
    await run(recordingTool(seen), {});
    await run(recordingTool(seen), {}, Infinity);
    expect(seen.map((c) => c.idempotencyKey)).toEqual([undefined, undefined]);
  });

  it('refuses a key that is not a string before the tool runs (ERR_INVALID_INVOCATION)', async () => {
    const seen: FuncCall[] = [];
    const options = { idempotencyKey: 42 } as unknown as CallOptions;
    const error = await run(recordingTool(seen), options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    expect((error as ToolError).message).toContain('idempotencyKey');
    expect(seen).toHaveLength(0);
  });
});
