/**
 * Measures workloads with tinybench (sequential, one task at a time) and returns their statistics
 * in milliseconds per operation.
 */
import { Bench } from 'tinybench';
import type { Role, Workload } from './workload';

/** The statistics of one measured workload (times in ms per operation). */
export interface Measured {
  readonly id: string;
  readonly group: string;
  readonly label: string;
  readonly role: Role;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly opsPerSec: number;
  readonly samples: number;
  /** MB/s (10^6 bytes per second, from the median) for rows that handle `bytes`. */
  readonly mbPerSec?: number;
  readonly bytes?: number;
  /** Set when the workload threw; the statistics are then NaN. */
  readonly error?: string;
}

/** Time budgets per task, in ms. */
export interface MeasureOptions {
  readonly time: number;
  readonly warmupTime: number;
}

/** Runs every workload as a tinybench task and collects its statistics. */
export async function measure(workloads: readonly Workload[], options: MeasureOptions): Promise<Measured[]> {
  const bench = new Bench({ time: options.time, warmupTime: options.warmupTime, warmupIterations: 8, iterations: 8 });
  for (const w of workloads) bench.add(w.id, w.fn as () => Promise<void>);
  await bench.run();
  return workloads.map((w) => {
    const task = bench.getTask(w.id);
    const result = task?.result;
    const ops = w.ops ?? 1;
    if (result === undefined || !('latency' in result)) {
      const error =
        result !== undefined && 'error' in result ? String(result.error?.message ?? result.error) : 'not run';
      return {
        id: w.id,
        group: w.group,
        label: w.label,
        role: w.role,
        medianMs: NaN,
        p99Ms: NaN,
        meanMs: NaN,
        opsPerSec: NaN,
        samples: 0,
        error,
      };
    }
    const medianMs = result.latency.p50 / ops;
    const measured: Measured = {
      id: w.id,
      group: w.group,
      label: w.label,
      role: w.role,
      medianMs,
      p99Ms: result.latency.p99 / ops,
      meanMs: result.latency.mean / ops,
      opsPerSec: 1000 / medianMs,
      samples: result.latency.samplesCount,
      ...(w.bytes === undefined ? {} : { bytes: w.bytes, mbPerSec: w.bytes / 1e6 / (medianMs / 1000) }),
    };
    return measured;
  });
}
