/**
 * What the Runtime adds to a call (issue 16): `Runtime.runTurn` with one call of a bench tool, on a
 * MemoryStore (call identity, the claim of the run, the budgets' absence, the settled outcome
 * stored), beside the same call through the Binding alone (resolve, `Contract.prepare`,
 * `Binding.call`, an allow-all Guard) as the group's floor. Every turn has a call id of its own, so
 * each one runs the tool (none is replayed from the store).
 */
import { MemoryStore } from '../../lib/runtime/stores';
import { Runtime } from '../../lib/runtime';
import type { BenchTool } from '../fixtures';
import { callThrough, funcToolRegistry } from './calls';
import { workload } from '../workload';
import type { Workload } from '../workload';

/** The floor and the Runtime row of one tool. */
export function runtimeWorkloads(tool: BenchTool): Workload[] {
  const group = `runtime/${tool.name}`;
  const registry = funcToolRegistry([tool]);
  const runtime = new Runtime({ registry, store: new MemoryStore() });
  const request = { name: tool.name, arguments: tool.args };
  let turn = 0;
  return [
    workload(group, 'Binding.call (Guard), no runtime', 'floor', () => callThrough(registry, tool.name, tool.args)),
    workload(group, 'Runtime.runTurn, one call, MemoryStore', 'scope', async () => {
      const [outcome] = await runtime.runTurn({ threadId: 'bench', calls: [{ id: `call_${turn++}`, request }] });
      // The Result the tool completed with (what the floor row returns), else the outcome itself.
      return outcome.kind === 'completed' && 'result' in outcome.toolOutcome ? outcome.toolOutcome.result : outcome;
    }),
  ];
}
