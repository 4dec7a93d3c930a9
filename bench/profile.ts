/**
 * Runs the workloads whose id contains a given text in a loop, for CPU profiling:
 *   npx tsup --config bench/tsup.config.ts && node --cpu-prof --cpu-prof-dir=build/prof build/bench/profile.js call/add/scope-tool-functool 5
 * Then open the .cpuprofile in Chrome DevTools (or summarize it with build/bench/hot.js).
 */
import { performance } from 'node:perf_hooks';
import { BENCH_TOOLS } from './fixtures';
import { admissionSet, callSet, listSet } from './suite';
import { FULL_SIZE } from './suite';
import type { WorkloadSet } from './workload';
import { dtoPathWorkloads } from './workloads/dto-paths';
import { stageWorkloads } from './workloads/stages';

/** The sets a match needs: the stage and DTO rows alone (no servers to start), or the whole suite. */
async function setsFor(match: string): Promise<WorkloadSet[]> {
  if (match.startsWith('stages/') || match.startsWith('dto/')) {
    const workloads = BENCH_TOOLS.flatMap((t) => [...stageWorkloads(t), ...dtoPathWorkloads(t)]);
    return [{ workloads, close: async () => undefined }];
  }
  return [await callSet(), admissionSet(FULL_SIZE.payloadSizes), await listSet(FULL_SIZE.listCounts)];
}

async function main(): Promise<void> {
  const [match = 'call/add/scope-tool-functool', secondsText = '5'] = process.argv.slice(2);
  const sets = await setsFor(match);
  const chosen = sets.flatMap((s) => s.workloads).filter((w) => w.id.includes(match));
  if (chosen.length === 0) throw new Error(`bench: no workload id contains ${match}`);
  for (const w of chosen) {
    const end = performance.now() + Number(secondsText) * 1000;
    let runs = 0;
    while (performance.now() < end) {
      await w.fn();
      runs++;
    }
    process.stdout.write(`${w.id}: ${runs} runs, ${((Number(secondsText) * 1e6) / runs).toFixed(2)} µs per run\n`);
  }
  await Promise.all(sets.map((s) => s.close()));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: profile failed: ${String(e)}\n`);
  process.exitCode = 1;
});
