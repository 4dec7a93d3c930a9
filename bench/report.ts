/**
 * The report: ratios per group (to the floor, to scope-tool), the table printed to stdout, the
 * targets of issue 5 with their verdicts, and the JSON written to bench/results.json.
 */
import type { Measured } from './measure';

/** A measured row with its ratios (median / the group's floor median, median / the group's scope-tool median). */
export interface Row extends Measured {
  readonly vsFloor: number;
  readonly vsScope: number;
}

/** A one-shot measurement (scale, memory): a value with its unit. */
export interface Probe {
  readonly id: string;
  readonly label: string;
  readonly value: number;
  readonly unit: string;
}

/** A target of the issue and whether this run met it (`pending` when its rows could not run). */
export interface Target {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | 'pending';
}

/** Adds the ratio columns: each row against its group's floor and scope-tool rows. */
export function withRatios(measured: readonly Measured[]): Row[] {
  const floor = new Map<string, number>();
  const scope = new Map<string, number>();
  for (const m of measured) {
    if (m.role === 'floor') floor.set(m.group, m.medianMs);
    if (m.role === 'scope') scope.set(m.group, m.medianMs);
  }
  return measured.map((m) => ({
    ...m,
    vsFloor: m.medianMs / (floor.get(m.group) ?? NaN),
    vsScope: m.medianMs / (scope.get(m.group) ?? NaN),
  }));
}

function time(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(2)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

function ratio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : '-';
}

function count(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-';
}

/** The table as Markdown (also printed): one section per group. */
export function renderTable(rows: readonly Row[]): string {
  const lines = [
    '| group | row | median | p99 | ops/s | MB/s | vs floor | vs scope-tool |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const mb = r.mbPerSec === undefined ? '' : r.mbPerSec.toFixed(0);
    const label = r.error === undefined ? r.label : `${r.label} (error: ${r.error})`;
    lines.push(
      `| ${r.group} | ${label} | ${time(r.medianMs)} | ${time(r.p99Ms)} | ${count(r.opsPerSec)} | ${mb} | ${ratio(r.vsFloor)} | ${ratio(r.vsScope)} |`,
    );
  }
  return lines.join('\n');
}

/** The one-shot measurements as Markdown. */
export function renderProbes(probes: readonly Probe[]): string {
  const lines = ['| measurement | value |', '|---|---:|'];
  for (const p of probes)
    lines.push(
      `| ${p.label} | ${Number.isFinite(p.value) ? p.value.toFixed(p.unit === 'ms' ? 2 : 1) : '-'} ${p.unit} |`,
    );
  return lines.join('\n');
}

/** The targets as Markdown. */
export function renderTargets(targets: readonly Target[]): string {
  const lines = ['| target | measured | met |', '|---|---|---|'];
  for (const t of targets)
    lines.push(`| ${t.target} | ${t.measured} | ${t.met === 'pending' ? 'pending' : t.met ? 'yes' : 'NO'} |`);
  return lines.join('\n');
}

/** Looks up a row by group and role or label prefix. */
export function pick(rows: readonly Row[], group: string, match: string): Row | undefined {
  return rows.find((r) => r.group === group && (r.role === match || r.label.startsWith(match)));
}

/** Looks up a probe value by id. */
export function probe(probes: readonly Probe[], id: string): number {
  return probes.find((p) => p.id === id)?.value ?? NaN;
}
