/** The bench report: ratio columns and target verdicts (pure functions, no measuring). */
import type { Measured } from '../../bench/measure';
import { renderTable, withRatios } from '../../bench/report';
import { evaluateTargets } from '../../bench/targets';

function row(
  group: string,
  label: string,
  role: Measured['role'],
  medianMs: number,
  extra: Partial<Measured> = {},
): Measured {
  return {
    id: `${group}/${label}`,
    group,
    label,
    role,
    medianMs,
    p99Ms: medianMs * 2,
    meanMs: medianMs,
    opsPerSec: 1000 / medianMs,
    samples: 10,
    ...extra,
  };
}

describe('bench report', () => {
  it('divides each median by its own group floor and scope-tool medians', () => {
    const rows = withRatios([
      row('call/add', 'floor: JSON.parse + call', 'floor', 0.001),
      row('call/add', 'scope-tool FuncTool (Guard)', 'scope', 0.004),
      row('call/add', 'LangChain tool().invoke', 'peer', 0.008),
      row('call/x', 'floor', 'floor', 1),
    ]);
    expect(rows.map((r) => [r.vsFloor, r.vsScope])).toEqual([
      [1, 0.25],
      [4, 1],
      [8, 2],
      [1, NaN],
    ]);
    expect(renderTable(rows)).toContain(
      '| call/add | LangChain tool().invoke | 8.00 µs | 16.00 µs | 125,000 |  | 8.00x | 2.00x |',
    );
  });

  it('judges the per-call targets against Ajv, the peers and class-validator, and marks missing rows pending', () => {
    const rows = withRatios([
      row('call/add', 'floor: JSON.parse + call', 'floor', 1),
      row('call/add', 'floor: JSON.parse + Ajv + call', 'reference', 2),
      row('call/add', 'scope-tool FuncTool (Guard)', 'scope', 3),
      row('call/add', 'OpenAI Agents tool()', 'peer', 5),
      row('call/add', 'floor: plainToInstance + validateSync', 'reference', 10),
      row('call/add', 'scope-tool decorator DTO (Guard)', 'reference', 14),
    ]);
    const targets = evaluateTargets(rows, [], [{ label: '1MiB', bytes: 1 }], 10, [5, 50]);
    const verdict = (prefix: string): unknown => targets.find((t) => t.target.startsWith(prefix))?.met;
    expect(verdict('add: FuncTool <= 2x')).toBe(true);
    expect(verdict('add: FuncTool below every peer')).toBe(true);
    expect(verdict('add: decorator tool <= 1.3x')).toBe(false);
    expect(verdict('add: scope-tool MCP server')).toBe('pending');
    expect(verdict('heap growth')).toBe('pending');
  });
});
