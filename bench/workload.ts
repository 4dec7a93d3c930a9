/**
 * What the bench measures: a workload is one named function that does one unit of work (one tool
 * call from the raw arguments text to the completed result, one admission of a payload, ...).
 * Workloads are plain functions, so the smoke test (spec/bench) can run each once without tinybench.
 */

/** How a row relates to the others of its group (for the ratio columns). */
export type Role = 'floor' | 'scope' | 'peer' | 'reference';

/** One measured function. */
export interface Workload {
  /** Unique id, `<group>/<slug>`, the key in bench/results.json. */
  readonly id: string;
  /** The ratio group: rows of one group are compared with its floor and its scope-tool row. */
  readonly group: string;
  /** The row label printed in the table. */
  readonly label: string;
  /** `floor`: the baseline of the group; `scope`: the scope-tool row; `peer` / `reference`: others. */
  readonly role: Role;
  /** UTF-8 bytes handled per run, for MB/s (admission rows). */
  readonly bytes?: number;
  /** Operations per run of `fn` (a batch of very fast operations); 1 when absent. */
  readonly ops?: number;
  /** One unit of work; its value is checked by the smoke test. */
  readonly fn: () => unknown;
}

/** A set of workloads and what must be released after measuring them (servers, transports). */
export interface WorkloadSet {
  readonly workloads: readonly Workload[];
  close(): Promise<void>;
}

/** Makes the id of a workload from its group and label. */
export function workloadId(group: string, label: string): string {
  return `${group}/${label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/** Builds a workload with its id derived from group and label. */
export function workload(
  group: string,
  label: string,
  role: Role,
  fn: () => unknown,
  extra: { bytes?: number; ops?: number } = {},
): Workload {
  return { id: workloadId(group, label), group, label, role, fn, ...extra };
}
