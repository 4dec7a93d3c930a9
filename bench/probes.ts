/**
 * One-shot measurements: registering many tools (time, retained heap), the cold start of
 * createRegistry from a manifest file, and heap growth over many sequential calls. Heap figures
 * are taken after full garbage collections (`node --expose-gc`); without `gc` they are NaN.
 */
import { performance } from 'node:perf_hooks';
import type { Probe } from './report';
import type { Registry } from '../lib/protocol';
import { coldStart, manifestFile, manyManifest, manyToolsetClass, registerMany } from './workloads/scale';

const MB = 1024 * 1024;

/** Runs full collections and returns heapUsed in bytes (NaN without --expose-gc). */
export function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return NaN;
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Registers `count` tools once: the time and the heap the registry retains. Returns the registry too. */
export function probeRegister(count: number): { probes: Probe[]; registry: Registry } {
  const before = settledHeap();
  const t0 = performance.now();
  const registry = registerMany(count, '#register');
  const ms = performance.now() - t0;
  const heap = (settledHeap() - before) / MB;
  return {
    registry,
    probes: [
      {
        id: 'scale/register-time',
        label: `register ${count.toLocaleString('en-US')} FuncTools (create + bind + register)`,
        value: ms,
        unit: 'ms',
      },
      {
        id: 'scale/register-heap',
        label: `heap retained by ${count.toLocaleString('en-US')} registered tools`,
        value: heap,
        unit: 'MB',
      },
    ],
  };
}

/** Cold start of createRegistry from a manifest file of `count` tools; median of `reps`, new schemas each time. */
export function probeColdStart(count: number, reps: number): Probe[] {
  const toolset = manyToolsetClass(count);
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const file = manifestFile(manyManifest(count, `#cold${r}`));
    try {
      const t0 = performance.now();
      const registry = coldStart(file.path, toolset);
      times.push(performance.now() - t0);
      if (registry.resolve('tool_0') === undefined) throw new Error('bench: cold start registered nothing');
    } finally {
      file.remove();
    }
  }
  return [
    {
      id: 'scale/cold-start',
      label: `cold start: createRegistry from a manifest of ${count.toLocaleString('en-US')} tools (median of ${reps})`,
      value: median(times),
      unit: 'ms',
    },
  ];
}

/** Heap growth over `calls` sequential runs of `call`, after GC; and the total time. */
export async function probeMemory(calls: number, call: () => Promise<unknown>): Promise<Probe[]> {
  for (let i = 0; i < 1000; i++) await call();
  const before = settledHeap();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const ms = performance.now() - t0;
  const growth = (settledHeap() - before) / MB;
  const n = calls.toLocaleString('en-US');
  return [
    {
      id: 'memory/heap-growth',
      label: `heap growth over ${n} sequential scope-tool calls (after GC)`,
      value: growth,
      unit: 'MB',
    },
    { id: 'memory/time', label: `time of ${n} sequential scope-tool calls`, value: ms, unit: 'ms' },
  ];
}
