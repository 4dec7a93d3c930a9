/**
 * Runs the workloads whose id contains a given text in a loop, for CPU profiling:
 *   npx tsup --config bench/tsup.config.ts && node --cpu-prof --cpu-prof-dir=build/prof build/bench/profile.js call/add/scope-tool-functool 5
 * Then open the .cpuprofile in Chrome DevTools (or summarize it with build/bench/hot.js).
 * A count with an `x` instead of the seconds (`200000x`) runs that many calls: a fixed amount of
 * work, whose instructions `valgrind --tool=callgrind --smc-check=all-non-file` counts the same
 * on a busy machine, where times are not comparable. */
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
  const fixed = secondsText.endsWith('x') ? Number(secondsText.slice(0, -1)) : undefined;
  for (const w of chosen) {
    const start = performance.now();
    const end = start + Number(secondsText) * 1000;
    let runs = 0;
    while (fixed === undefined ? performance.now() < end : runs < fixed) {
      await w.fn();
      runs++;
    }
    const us = ((performance.now() - start) * 1000) / runs;
    process.stdout.write(`${w.id}: ${runs} runs, ${us.toFixed(2)} µs per run\n`);
  }
  await Promise.all(sets.map((s) => s.close()));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: profile failed: ${String(e)}\n`);
  process.exitCode = 1;
});
