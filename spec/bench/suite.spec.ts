/**
 * Smoke test of the bench suite (bench/): every workload runs once, tiny sizes, no tinybench and
 * no timing. It proves the rows measure what they claim: every library computes the same answer
 * for the same arguments, admission accepts the payloads it is timed on, the scale and memory
 * probes build what they report.
 */
import { answerOf } from '../../bench/answer';
import { BENCH_TOOLS } from '../../bench/fixtures';
import { probeColdStart, probeMemory, probeRegister } from '../../bench/probes';
import { admissionSet, callSet, listSet, registrySet } from '../../bench/suite';
import { callThrough, funcToolRegistry } from '../../bench/workloads/calls';
import { deepPayload, widePayload } from '../../bench/workloads/admission';
import type { Workload } from '../../bench/workload';

const expectedOf = (w: Workload): unknown =>
  BENCH_TOOLS.find((t) => w.group === `call/${t.name}` || w.group === `runtime/${t.name}`)?.expected;

describe('bench per-call rows', () => {
  it('every row of add and create_note (floors, scope-tool, AI SDK, LangChain, Agents, both MCP servers, the Runtime) gives the same answer', async () => {
    const set = await callSet();
    try {
      const labels = new Set(set.workloads.map((w) => w.label));
      expect([...labels]).toEqual(
        expect.arrayContaining([
          'scope-tool FuncTool (Guard)',
          'scope-tool decorator DTO (Guard)',
          'Vercel AI SDK tool()',
          'LangChain tool().invoke',
          'OpenAI Agents tool()',
          'MCP SDK server (in-memory)',
          'scope-tool MCP server (in-memory)',
          'Runtime.runTurn, one call, MemoryStore',
        ]),
      );
      for (const w of set.workloads) {
        expect({ id: w.id, answer: answerOf(await w.fn()) }).toEqual({ id: w.id, answer: expectedOf(w) });
      }
      expect(new Set(set.workloads.map((w) => w.id)).size).toBe(set.workloads.length);
    } finally {
      await set.close();
    }
  });

  it('each group has exactly one floor row and one scope-tool row', async () => {
    const set = await callSet();
    try {
      for (const group of new Set(set.workloads.map((w) => w.group))) {
        const rows = set.workloads.filter((w) => w.group === group);
        expect(rows.filter((w) => w.role === 'floor')).toHaveLength(1);
        expect(rows.filter((w) => w.role === 'scope')).toHaveLength(1);
      }
    } finally {
      await set.close();
    }
  });
});

describe('bench admission rows', () => {
  it('wide and deep payloads stay within the target size and fill most of it', () => {
    for (const bytes of [1024, 64 * 1024]) {
      for (const text of [widePayload(bytes), deepPayload(bytes)]) {
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(bytes);
        expect(Buffer.byteLength(text)).toBeGreaterThan(bytes * 0.9);
      }
    }
  });

  it('JSON.parse, secure-json-parse and admitJson return the same value for every payload', () => {
    const set = admissionSet([{ label: '2KiB', bytes: 2048 }]);
    for (const group of new Set(set.workloads.map((w) => w.group))) {
      const values = set.workloads.filter((w) => w.group === group).map((w) => JSON.stringify(w.fn()));
      expect(values).toHaveLength(3);
      expect(new Set(values).size).toBe(1);
    }
  });
});

describe('bench scale and memory probes', () => {
  it('registers every tool, and definitions() and resolve() see all of them', async () => {
    const { registry, probes } = probeRegister(40);
    expect(probes.map((p) => p.id)).toEqual(['scale/register-time', 'scale/register-heap']);
    const set = registrySet(registry, 40);
    const [definitions, resolve] = set.workloads;
    expect((definitions.fn() as unknown[]).length).toBe(40);
    expect(resolve.fn()).toBe(resolve.ops);
  });

  it('cold start registers every tool of the manifest file', () => {
    const [cold] = probeColdStart(12, 1);
    expect(cold.id).toBe('scale/cold-start');
    expect(cold.value).toBeGreaterThan(0);
  });

  it('tools/list rows list every tool of the SDK server and of the scope-tool server', async () => {
    const set = await listSet([2, 5]);
    try {
      for (const w of set.workloads) {
        const count = Number(/tools-list-(\d+)/.exec(w.group)?.[1]);
        const listed = (await w.fn()) as { tools: { name: string }[] };
        expect(listed.tools).toHaveLength(count);
      }
    } finally {
      await set.close();
    }
  });

  it('the memory probe runs the calls it reports', async () => {
    const registry = funcToolRegistry(BENCH_TOOLS);
    let calls = 0;
    const probes = await probeMemory(50, () => {
      calls++;
      return callThrough(registry, 'add', '{"a":1,"b":2}');
    });
    expect(calls).toBe(1050);
    expect(probes.map((p) => p.id)).toEqual(['memory/heap-growth', 'memory/time']);
  });
});
