/**
 * The whole suite as workload sets, at a given size: the full run (`npm run bench`) or a tiny one
 * (the smoke test in spec/bench). Building a set starts what it needs (MCP servers on in-memory
 * transports); `close()` releases it.
 */
import type { Registry } from '../lib/protocol';
import { BENCH_TOOLS } from './fixtures';
import type { PayloadSize } from './workloads/admission';
import { admissionWorkloads, PAYLOAD_SIZES } from './workloads/admission';
import { callGroup, callWorkloads } from './workloads/calls';
import { connectClient, connectRaw, mcpCall, sdkServer, sdkServerOf } from './workloads/mcp';
import { peerWorkloads } from './workloads/peers';
import { runtimeWorkloads } from './workloads/runtime';
import { connectScopeCalls, connectScopeList, connectScopeListRaw } from './workloads/scope-mcp';
import { workload } from './workload';
import type { Workload, WorkloadSet } from './workload';

/** How big each part of the suite is. */
export interface SuiteSize {
  readonly registerCount: number;
  readonly coldStartCount: number;
  readonly coldStartReps: number;
  readonly memoryCalls: number;
  readonly payloadSizes: readonly PayloadSize[];
  readonly listCounts: readonly number[];
  /** Records committed to a fresh MemoryStore to measure its heap per suspended call. */
  readonly storeFootprintCalls: number;
}

/** The sizes of issue 5. */
export const FULL_SIZE: SuiteSize = {
  registerCount: 10_000,
  coldStartCount: 1_000,
  coldStartReps: 3,
  memoryCalls: 1_000_000,
  payloadSizes: PAYLOAD_SIZES,
  listCounts: [5, 50],
  storeFootprintCalls: 20_000,
};

/** Per-call rows (scope-tool, floors, peers) of every bench tool, with the MCP SDK server and Runtime rows. */
export async function callSet(): Promise<WorkloadSet> {
  const pair = await connectClient(sdkServer(BENCH_TOOLS));
  const scope = await connectScopeCalls(BENCH_TOOLS);
  const workloads: Workload[] = [];
  for (const tool of BENCH_TOOLS) {
    const group = callGroup(tool);
    workloads.push(...callWorkloads(tool), ...peerWorkloads(tool));
    workloads.push(
      workload(group, 'MCP SDK server (in-memory)', 'peer', () => mcpCall(pair.client, tool.name, tool.args)),
    );
    workloads.push(
      workload(group, 'scope-tool MCP server (in-memory)', 'reference', () =>
        mcpCall(scope.client, tool.name, tool.args),
      ),
    );
    workloads.push(...runtimeWorkloads(tool));
  }
  return { workloads, close: async () => void (await Promise.all([pair.close(), scope.close()])) };
}

/** Admission throughput rows. */
export function admissionSet(sizes: readonly PayloadSize[]): WorkloadSet {
  return { workloads: admissionWorkloads(sizes), close: async () => undefined };
}

/** `definitions()` and `resolve()` on a big registry; resolve runs a batch of 1,000 lookups per sample. */
export function registrySet(registry: Registry, count: number): WorkloadSet {
  const group = `scale/registry-${count}`;
  const names = Array.from({ length: 1000 }, (_, i) => `tool_${(i * 7919) % count}`);
  return {
    workloads: [
      workload(group, 'definitions()', 'scope', () => registry.definitions()),
      workload(
        group,
        'resolve() (per lookup)',
        'reference',
        () => {
          let found = 0;
          for (const name of names) if (registry.resolve(name) !== undefined) found++;
          return found;
        },
        { ops: names.length },
      ),
    ],
    close: async () => undefined,
  };
}

/** MCP `tools/list` against SDK servers and scope-tool MCP servers of each count. */
export async function listSet(counts: readonly number[]): Promise<WorkloadSet> {
  const pairs: { close(): Promise<void> }[] = [];
  const workloads: Workload[] = [];
  for (const count of counts) {
    const pair = await connectClient(sdkServerOf(count));
    const scope = await connectScopeList(count);
    const sdkRaw = await connectRaw(sdkServerOf(count));
    const scopeRaw = await connectScopeListRaw(count);
    pairs.push(pair, scope, sdkRaw, scopeRaw);
    const group = `mcp/tools-list-${count}`;
    workloads.push(
      workload(group, `MCP SDK server tools/list (${count} tools)`, 'floor', () => pair.client.listTools()),
      workload(group, `scope-tool MCP server tools/list (${count} tools)`, 'scope', () => scope.client.listTools()),
      // The server's side alone: the SDK Client parses every tool of the result with zod, a cost that
      // grows with the list whatever the server does.
      workload(group, `MCP SDK server tools/list, bare JSON-RPC client (${count} tools)`, 'reference', () =>
        sdkRaw.request('tools/list'),
      ),
      workload(group, `scope-tool MCP server tools/list, bare JSON-RPC client (${count} tools)`, 'reference', () =>
        scopeRaw.request('tools/list'),
      ),
    );
  }
  return { workloads, close: async () => void (await Promise.all(pairs.map((p) => p.close()))) };
}
