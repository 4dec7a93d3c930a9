/**
 * The workload of heap.spec.ts, run in a child process started with `node --expose-gc` (a small,
 * clean heap: measuring inside jest would weigh the TypeScript compiler too). Prints one JSON line:
 * `{ start, middle, end }`, heap bytes used after full collections.
 */
import { Guard, Output, Registry } from '../../lib/protocol';
import { prepareToolCall, renderOutcome } from '../../lib/providers';
import type { ToolOutcome } from '../../lib/providers';
import { rawTool } from './support';

const gc = (globalThis as { gc?: () => void }).gc as () => void;

const SCHEMA = {
  type: 'object',
  properties: { n: { type: 'integer', maximum: 5 } },
  required: ['n'],
  additionalProperties: false,
} as const;

function registry(): Registry {
  const open = rawTool('open', async () => ({ output: Output.text('ran') }), SCHEMA as never);
  const denied = new Guard({
    tool: rawTool('denied', async () => ({ output: Output.text('ran') }), SCHEMA as never),
    authorizer: async () => false,
  });
  return new Registry(open, denied);
}

const CALLS: [string, string][] = [
  ['open', '{"n":'],
  ['open', '{"n":99}'],
  ['open', '{"n":1,"extra":true}'],
  ['open', '{"a":1,"a":2}'],
  ['open', `{"n":${'['.repeat(200)}${']'.repeat(200)}}`],
  ['missing', '{}'],
  ['denied', '{"n":1}'],
];

async function refusedCalls(reg: Registry, count: number): Promise<number> {
  let refused = 0;
  for (let k = 0; k < count; k++) {
    const [name, args] = CALLS[k % CALLS.length];
    let outcome: ToolOutcome;
    try {
      const { binding, invocation } = prepareToolCall(reg, { id: `c${k}`, request: { name, arguments: args } });
      outcome = { result: await binding.call(invocation) };
    } catch (error) {
      outcome = { error };
    }
    if (renderOutcome(name, outcome).isError) refused++;
  }
  return refused;
}

/** Heap used after full collections: the least of three readings, to damp allocator noise. */
function settledHeap(): number {
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) {
    gc();
    gc();
    readings.push(process.memoryUsage().heapUsed);
  }
  return Math.min(...readings);
}

/** Runs the workload and prints the three settled readings. */
export async function main(): Promise<void> {
  const reg = registry();
  const warm = await refusedCalls(reg, 700); // compile, JIT, caches
  const start = settledHeap();
  const first = await refusedCalls(reg, 5_000);
  const middle = settledHeap();
  const second = await refusedCalls(reg, 5_000);
  const end = settledHeap();
  process.stdout.write(`${JSON.stringify({ refused: warm + first + second, start, middle, end })}\n`);
}
