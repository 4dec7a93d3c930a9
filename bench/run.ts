/**
 * `npm run bench`: the performance suite of issue 5 in one process run. Checks that every row
 * computes the same answer, measures every workload with tinybench, takes the one-shot scale and
 * memory probes, prints the tables and the targets, and writes bench/results.json.
 *
 * Built by bench/tsup.config.ts into build/bench/run.js; run with `node --expose-gc`.
 * Environment: BENCH_TIME (ms per task, default 400), BENCH_MEMORY_CALLS (default 1,000,000).
 * The store rows start their own PostgreSQL server (spec/support/postgres.ts) and stop it after.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { answerOf } from './answer';
import { BENCH_TOOLS } from './fixtures';
import { measure } from './measure';
import type { Measured } from './measure';
import { probeColdStart, probeMemory, probeRegister } from './probes';
import { probePatterns } from './patterns';
import type { Probe } from './report';
import { renderProbes, renderTable, renderTargets, withRatios } from './report';
import { admissionSet, callSet, FULL_SIZE, listSet, registrySet } from './suite';
import { evaluateTargets } from './targets';
import { callThrough, funcToolRegistry } from './workloads/calls';
import { storeSet } from './workloads/stores';
import type { WorkloadSet } from './workload';

const TIME = Number(process.env.BENCH_TIME ?? 400);
const SIZE = { ...FULL_SIZE, memoryCalls: Number(process.env.BENCH_MEMORY_CALLS ?? FULL_SIZE.memoryCalls) };

/** Runs each per-call workload once and refuses to measure a row whose answer differs. */
async function checkAnswers(set: WorkloadSet): Promise<void> {
  for (const w of set.workloads) {
    const tool = BENCH_TOOLS.find((t) => w.group === `call/${t.name}`);
    if (tool === undefined) continue;
    const got = JSON.stringify(answerOf(await w.fn()));
    if (got !== JSON.stringify(tool.expected))
      throw new Error(`bench: ${w.id} answered ${got}, expected ${JSON.stringify(tool.expected)}`);
  }
}

async function section(title: string, set: WorkloadSet, out: Measured[], time = TIME): Promise<void> {
  process.stderr.write(`bench: ${title} (${set.workloads.length} rows)\n`);
  try {
    out.push(...(await measure(set.workloads, { time, warmupTime: Math.min(200, time / 2) })));
  } finally {
    await set.close();
  }
}

function machine(): Record<string, unknown> {
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function')
    process.stderr.write('bench: run with node --expose-gc for heap figures\n');
  const measured: Measured[] = [];
  const probes: Probe[] = [];

  const calls = await callSet();
  await checkAnswers(calls);
  await section('per call', calls, measured);
  await section('admission', admissionSet(SIZE.payloadSizes), measured);

  process.stderr.write(`bench: scale (${SIZE.registerCount} tools)\n`);
  const registered = probeRegister(SIZE.registerCount);
  probes.push(...registered.probes);
  await section('registry', registrySet(registered.registry, SIZE.registerCount), measured);
  probes.push(...probeColdStart(SIZE.coldStartCount, SIZE.coldStartReps));
  await section('MCP tools/list', await listSet(SIZE.listCounts), measured);

  process.stderr.write(`bench: memory (${SIZE.memoryCalls} calls)\n`);
  const registry = funcToolRegistry(BENCH_TOOLS);
  const add = BENCH_TOOLS[0];
  probes.push(...(await probeMemory(SIZE.memoryCalls, () => callThrough(registry, add.name, add.args))));

  process.stderr.write('bench: suspension stores (memory, SQLite, PostgreSQL)\n');
  const stores = await storeSet({ footprintCalls: SIZE.storeFootprintCalls });
  for (const reason of stores.skipped) {
    process.stderr.write(`bench: store not measured: ${reason}\n`);
    probes.push({ id: 'store/not-measured', label: `not measured: ${reason}`, value: NaN, unit: '' });
  }
  try {
    measured.push(...(await measure(stores.workloads, { time: TIME, warmupTime: Math.min(200, TIME / 2) })));
    probes.push(...(await stores.footprint()));
  } finally {
    await stores.close();
  }

  process.stderr.write('bench: patterns (prepare on adversarial strings, RE2)\n');
  probes.push(...probePatterns());

  const rows = withRatios(measured);
  const targets = evaluateTargets(rows, probes, SIZE.payloadSizes, SIZE.registerCount, SIZE.listCounts);
  const seconds = (Date.now() - started) / 1000;
  const env = machine();
  const text = [
    `scope-tool bench: Node ${env.node}, ${env.cpu}, ${env.cores} cores; ${seconds.toFixed(0)} s`,
    '',
    renderTable(rows),
    '',
    renderProbes(probes),
    '',
    renderTargets(targets),
  ].join('\n');
  process.stdout.write(`${text}\n`);
  const file = join(process.cwd(), 'bench', 'results.json');
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: env, seconds, taskTimeMs: TIME, rows, probes, targets }, null, 2)}\n`,
  );
  process.stderr.write(`bench: wrote ${file}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
