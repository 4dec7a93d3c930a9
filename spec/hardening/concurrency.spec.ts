/**
 * 1,000 concurrent calls across 50 tools while other batches register (some succeed, most fail):
 * every call ends with the outcome its own tool produced, and no batch is ever half-registered.
 * Interleaving comes from awaited microtasks and setImmediate turns, never from timers.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { createRegistry } from '../../lib/container';
import { Tool, Toolset } from '../../lib/decorators';
import { Failure, FuncTool, Guard, Output, Registry, ToolError } from '../../lib/protocol';
import type { JsonObject, JsonValue, Tool as ProtocolTool } from '../../lib/protocol';
import { renderOutcome } from '../../lib/providers';
import type { ToolOutcome } from '../../lib/providers';
import { entry, manifest } from '../container/fixtures';

const TOOLS = 50;
const CALLS = 1_000;
const SCHEMA: JsonObject = {
  type: 'object',
  properties: { n: { type: 'integer' } },
  required: ['n'],
  additionalProperties: false,
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Tool i: yields (i % 3) turns, then by i % 4: completes, fails (Failure), rejects, or is refused by its policy. */
function toolNumber(i: number): ProtocolTool {
  const fn = FuncTool.create(
    { name: `tool_${i}`, inputSchema: SCHEMA, decode: (v: JsonValue) => v as { n: number } },
    async ({ n }) => {
      for (let k = 0; k < i % 3; k++) await turn();
      if (i % 4 === 1)
        throw new Failure({
          kind: 'failed',
          cause: new Error(`tool_${i} broke on ${n}`),
          output: Output.text(`tool_${i} failed ${n}`),
        });
      if (i % 4 === 2) throw new Error(`tool_${i} rejected ${n}`);
      return `tool_${i} did ${n}`;
    },
  );
  return new Guard({
    tool: fn,
    authorizer: async () => {
      await turn();
      return i % 4 !== 3;
    },
  });
}

/** What the model must see for call n of tool i. */
function expected(i: number, n: number): { kind: string; text: string } {
  switch (i % 4) {
    case 0:
      return { kind: 'completed', text: `tool_${i} did ${n}` };
    case 1:
      return { kind: 'failed', text: `tool_${i} failed ${n}` };
    case 2:
      return { kind: 'error', text: `error: tool "tool_${i}" failed` };
    default:
      return { kind: 'rejected', text: `error: tool "tool_${i}" is not authorized` };
  }
}

@Toolset()
class Extra {
  @Tool({ name: 'extra_ok' }) ok(): string {
    return 'ok';
  }

  @Tool({ name: 'extra_missing' }) missing(): string {
    return 'never registered';
  }
}

/** Batch b: fresh names plus, for 3 of every 4 batches, a fault that must abort the whole batch. */
function attemptBatch(registry: Registry, b: number): { names: string[]; ok: boolean } {
  const fresh = [0, 1, 2].map((k) =>
    FuncTool.create({ name: `batch_${b}_${k}`, inputSchema: { type: 'object' }, decode: (v) => v }, () => 'x'),
  );
  const names = fresh.map((t) => t.definition().name);
  const faults: (() => void)[] = [
    () => registry.register(...fresh),
    () =>
      registry.register(
        ...fresh,
        FuncTool.create({ name: `tool_${b % TOOLS}`, inputSchema: { type: 'object' }, decode: (v) => v }, () => 'dup'),
      ),
    () =>
      registry.register(
        fresh[0],
        fresh[1],
        {
          definition: () => ({ name: 'bad', inputSchema: { type: 'nope' } }),
          call: async () => ({ output: Output.empty }),
        } as never,
        fresh[2],
      ),
    () =>
      createRegistry({ registry, manifest: manifest(entry('extra_ok', 'Extra', 'ok', null)), toolsets: [new Extra()] }),
  ];
  const kind = b % 4;
  if (kind === 3) names.splice(0, 3, 'extra_ok', 'extra_missing');
  try {
    faults[kind]();
    return { names, ok: true };
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    return { names, ok: false };
  }
}

async function callOnce(registry: Registry, i: number, n: number): Promise<{ kind: string; text: string | undefined }> {
  const name = `tool_${i}`;
  const binding = registry.resolve(name);
  if (binding === undefined) throw new Error(`${name} vanished`);
  let outcome: ToolOutcome;
  try {
    const invocation = binding.contract.prepare({ name, arguments: JSON.stringify({ n }) });
    await turn();
    outcome = { result: await binding.call(invocation, { context: { caller: n } }) };
  } catch (error) {
    outcome = { error };
  }
  const rendered = renderOutcome(name, outcome);
  return { kind: rendered.kind, text: rendered.output.asText() };
}

describe('concurrent calls while batches register and fail', () => {
  it('ends each of 1,000 calls across 50 tools with its own tool outcome; no batch is half-registered', async () => {
    const registry = new Registry(...Array.from({ length: TOOLS }, (_, i) => toolNumber(i)));
    const order = fc.sample(
      fc.shuffledSubarray(
        Array.from({ length: CALLS }, (_, n) => n),
        { minLength: CALLS },
      ),
      { seed: 6, numRuns: 1 },
    )[0];
    const batches: { names: string[]; ok: boolean }[] = [];
    const results = await Promise.all(
      order.map(async (n) => {
        const i = n % TOOLS;
        if (n % 10 === 0) {
          await turn();
          batches.push(attemptBatch(registry, n / 10));
        }
        return { n, i, got: await callOnce(registry, i, n) };
      }),
    );

    expect(results).toHaveLength(CALLS);
    for (const { n, i, got } of results) expect({ n, ...got }).toEqual({ n, ...expected(i, n) });

    const registered = new Set(registry.definitions().map((d) => d.name));
    for (const batch of batches) {
      const present = batch.names.filter((name) => registered.has(name));
      // A batch is all in (it succeeded) or all out (it failed); extra_ok may come from an earlier good batch.
      if (batch.ok) expect(present).toEqual(batch.names.filter((name) => name !== 'extra_missing'));
      else expect(present.filter((name) => !name.startsWith('extra_'))).toEqual([]);
    }
    expect(batches.filter((b) => b.ok)).toHaveLength(25);
    expect(registered.has('extra_ok')).toBe(false);
    expect(registered.size).toBe(TOOLS + 25 * 3);
  });
});
