/**
 * `npm run bench:stages`: the FuncTool path of each bench tool in stages (bench/workloads/stages.ts),
 * and the decorator DTO path with and without the fast path of a proven DTO (lib/dto/fast.ts), in
 * one run, with tinybench. Prints a table of medians, each stage's share, and the ratios to the floor.
 * With BENCH_MCP=1 it measures instead one `tools/call` per bench tool on the raw MCP SDK server (the
 * floor of the `mcp-call/` groups) and on the scope-tool MCP server, both in memory.
 * Environment: BENCH_TIME (ms per task, default 400).
 */
import { BENCH_TOOLS } from './fixtures';
import { measure } from './measure';
import { renderTable, withRatios } from './report';
import { stageWorkloads } from './workloads/stages';
import { dtoPathWorkloads } from './workloads/dto-paths';
import { connectClient, mcpCall, sdkServer } from './workloads/mcp';
import { connectScopeCalls } from './workloads/scope-mcp';
import { workload } from './workload';
import type { Workload } from './workload';

const TIME = Number(process.env.BENCH_TIME ?? 400);

/** The MCP rows: the raw SDK server is the floor, so `vs floor` of the scope-tool row is its ratio to it. */
async function mcpWorkloads(): Promise<{ workloads: Workload[]; close: () => Promise<void> }> {
  const raw = await connectClient(sdkServer(BENCH_TOOLS));
  const scope = await connectScopeCalls(BENCH_TOOLS);
  const workloads = BENCH_TOOLS.flatMap((t) => [
    workload(`mcp-call/${t.name}`, 'MCP SDK server (in-memory)', 'floor', () => mcpCall(raw.client, t.name, t.args)),
    workload(`mcp-call/${t.name}`, 'scope-tool MCP server (in-memory)', 'scope', () =>
      mcpCall(scope.client, t.name, t.args),
    ),
  ]);
  return { workloads, close: async () => void (await Promise.all([raw.close(), scope.close()])) };
}

async function main(): Promise<void> {
  const mcp = process.env.BENCH_MCP === '1' ? await mcpWorkloads() : undefined;
  const workloads = mcp?.workloads ?? BENCH_TOOLS.flatMap((t) => [...stageWorkloads(t), ...dtoPathWorkloads(t)]);
  for (const w of workloads) await w.fn();
  const rows = withRatios(await measure(workloads, { time: TIME, warmupTime: Math.min(200, TIME / 2) }));
  await mcp?.close();
  const lines = [renderTable(rows), '', '| group | stage | adds | share of the path |', '|---|---|---:|---:|'];
  for (const group of new Set(rows.filter((r) => r.group.startsWith('stages/')).map((r) => r.group))) {
    const stages = rows.filter((r) => r.group === group);
    const total = stages[stages.length - 1].medianMs;
    stages.forEach((r, i) => {
      const adds = i === 0 ? r.medianMs : r.medianMs - stages[i - 1].medianMs;
      lines.push(`| ${group} | ${r.label} | ${(adds * 1e6).toFixed(0)} ns | ${((100 * adds) / total).toFixed(0)}% |`);
    });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: stages failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
