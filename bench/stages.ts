/**
 * `npm run bench:stages`: the FuncTool path of each bench tool in stages (bench/workloads/stages.ts),
 * and the decorator DTO path with and without the fast path of a proven DTO (lib/dto/fast.ts), in
 * one run, with tinybench. Prints a table of medians, each stage's share, and the ratios to the floor.
 * Environment: BENCH_TIME (ms per task, default 400).
 */
import { BENCH_TOOLS } from './fixtures';
import { measure } from './measure';
import { renderTable, withRatios } from './report';
import { stageWorkloads } from './workloads/stages';
import { dtoPathWorkloads } from './workloads/dto-paths';

const TIME = Number(process.env.BENCH_TIME ?? 400);

async function main(): Promise<void> {
  const workloads = BENCH_TOOLS.flatMap((t) => [...stageWorkloads(t), ...dtoPathWorkloads(t)]);
  for (const w of workloads) await w.fn();
  const rows = withRatios(await measure(workloads, { time: TIME, warmupTime: Math.min(200, TIME / 2) }));
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
