/**
 * The targets of issue 5, each a ratio or a bound measured in the same run.
 */
import { BENCH_TOOLS } from './fixtures';
import type { PayloadSize } from './workloads/admission';
import type { Probe, Row, Target } from './report';
import { pick, probe } from './report';

const x = (r: number): string => (Number.isFinite(r) ? `${r.toFixed(2)}x` : '-');

/** Evaluates every target against the rows and probes of one run. */
export function evaluateTargets(
  rows: readonly Row[],
  probes: readonly Probe[],
  sizes: readonly PayloadSize[],
  registerCount: number,
  listCounts: readonly number[],
): Target[] {
  const targets: Target[] = [];
  for (const tool of BENCH_TOOLS) {
    const group = `call/${tool.name}`;
    const scope = pick(rows, group, 'scope');
    const ajv = pick(rows, group, 'floor: JSON.parse + Ajv + call');
    const ajvAsync = pick(rows, group, 'floor, async: JSON.parse + Ajv');
    const peers = rows.filter((r) => r.group === group && r.role === 'peer');
    const vsAjv = (scope?.medianMs ?? NaN) / (ajv?.medianMs ?? NaN);
    targets.push({
      target: `${tool.name}: FuncTool <= 2x floor with validation (Ajv)`,
      measured: `${x(vsAjv)} (${x((scope?.medianMs ?? NaN) / (ajvAsync?.medianMs ?? NaN))} of the same floor awaited)`,
      met: vsAjv <= 2,
    });
    const slowestBelow = peers.every((p) => (scope?.medianMs ?? Infinity) < p.medianMs);
    const fastest = peers.reduce((min, p) => Math.min(min, p.medianMs), Infinity);
    targets.push({
      target: `${tool.name}: FuncTool below every peer`,
      measured: `${x((scope?.medianMs ?? NaN) / fastest)} of the fastest peer`,
      met: slowestBelow,
    });
    const deco = pick(rows, group, 'scope-tool decorator');
    const cv = pick(rows, group, 'floor: plainToInstance');
    const vsCv = (deco?.medianMs ?? NaN) / (cv?.medianMs ?? NaN);
    targets.push({
      target: `${tool.name}: decorator tool <= 1.3x raw class-validator floor`,
      measured: x(vsCv),
      met: vsCv <= 1.3,
    });
    // Issue 16: a DTO tool whose schema the manifest proves complete takes the fast path (lib/dto/fast.ts).
    const vsAjvDto = (deco?.medianMs ?? NaN) / (ajv?.medianMs ?? NaN);
    targets.push({
      target: `${tool.name}: proven DTO tool <= 2.5x floor with validation (Ajv)`,
      measured: x(vsAjvDto),
      met: vsAjvDto <= 2.5,
    });
    const mcpScope = rows.find((r) => r.group === group && r.label.startsWith('scope-tool MCP'));
    const mcpSdk = rows.find((r) => r.group === group && r.label.startsWith('MCP SDK server'));
    const vsSdk = (mcpScope?.medianMs ?? NaN) / (mcpSdk?.medianMs ?? NaN);
    targets.push({
      target: `${tool.name}: scope-tool MCP server <= 1.1x SDK server`,
      measured: mcpScope === undefined ? 'lib/mcp not available' : x(vsSdk),
      met: mcpScope === undefined ? 'pending' : vsSdk <= 1.1,
    });
  }
  const largest = sizes[sizes.length - 1];
  for (const shape of ['wide', 'deep']) {
    const group = `admission/${shape}-${largest.label}`;
    const admit = pick(rows, group, 'scope');
    const parse = pick(rows, group, 'floor');
    const share = (admit?.mbPerSec ?? NaN) / (parse?.mbPerSec ?? NaN);
    targets.push({
      target: `admission >= 0.5x JSON.parse throughput at ${largest.label} (${shape})`,
      measured: `${x(share)} (${admit?.mbPerSec?.toFixed(0)} vs ${parse?.mbPerSec?.toFixed(0)} MB/s)`,
      met: share >= 0.5,
    });
  }
  const n = registerCount.toLocaleString('en-US');
  const regMs = probe(probes, 'scale/register-time');
  const regMb = probe(probes, 'scale/register-heap');
  targets.push({ target: `${n} tools registered in < 2 s`, measured: `${regMs.toFixed(0)} ms`, met: regMs < 2000 });
  targets.push({
    target: `${n} tools registered in < 300 MB heap`,
    measured: `${regMb.toFixed(1)} MB`,
    met: Number.isNaN(regMb) ? 'pending' : regMb < 300,
  });
  const defs = pick(rows, `scale/registry-${registerCount}`, 'definitions()');
  targets.push({
    target: `definitions() on ${n} tools < 20 ms`,
    measured: `${defs?.medianMs.toFixed(2)} ms`,
    met: (defs?.medianMs ?? Infinity) < 20,
  });
  const [few, many] = [listCounts[0], listCounts[listCounts.length - 1]];
  const listScope = (c: number): Row | undefined => pick(rows, `mcp/tools-list-${c}`, 'scope');
  const listSdk = (c: number): Row | undefined => pick(rows, `mcp/tools-list-${c}`, 'floor');
  const listRaw = (c: number, who: string): Row | undefined =>
    pick(rows, `mcp/tools-list-${c}`, `${who} tools/list, bare JSON-RPC client`);
  const growthOf = (row: (c: number) => Row | undefined): number =>
    (row(many)?.medianMs ?? NaN) / (row(few)?.medianMs ?? NaN);
  const sdkGrowth = growthOf(listSdk);
  const scopeGrowth = growthOf(listScope);
  // The target is the server's: cache what does not change. Measured with the bare JSON-RPC client;
  // the SDK Client's zod parse of the result grows with the list for any server (reported beside).
  const scopeRawGrowth = growthOf((c) => listRaw(c, 'scope-tool MCP server'));
  const sdkRawGrowth = growthOf((c) => listRaw(c, 'MCP SDK server'));
  targets.push({
    target: `scope-tool MCP server tools/list at ${many} tools <= 1.5x ${few} tools (server side, bare JSON-RPC client)`,
    measured:
      listScope(many) === undefined
        ? `lib/mcp not available (SDK server: ${x(sdkRawGrowth)})`
        : `${x(scopeRawGrowth)} (SDK server: ${x(sdkRawGrowth)}); with the SDK Client: ${x(scopeGrowth)} (SDK server: ${x(sdkGrowth)})`,
    met: listScope(many) === undefined ? 'pending' : scopeRawGrowth <= 1.5,
  });
  const growth = probe(probes, 'memory/heap-growth');
  targets.push({
    target: 'heap growth < 10 MB over the sequential calls',
    measured: `${growth.toFixed(2)} MB`,
    met: Number.isNaN(growth) ? 'pending' : growth < 10,
  });
  return targets;
}
