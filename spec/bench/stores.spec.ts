/**
 * Smoke test of the store rows of the bench (bench/workloads/stores.ts): every row runs, each
 * group has one floor and one scope-tool row, the resume rows take what the commit rows left, and
 * the footprint probes measure something. No timing.
 */
import { storeSet } from '../../bench/workloads/stores';

describe('bench store rows', () => {
  it('memory, SQLite and PostgreSQL each have commit and resume rows beside their bare driver floor', async () => {
    const set = await storeSet({ footprintCalls: 200 });
    try {
      expect(set.skipped).toEqual([]);
      const groups = [...new Set(set.workloads.map((w) => w.group))];
      expect(groups).toEqual([
        'store/memory-commit',
        'store/memory-resume',
        'store/sqlite-commit',
        'store/sqlite-resume',
        'store/postgres-commit',
        'store/postgres-resume',
      ]);
      for (const group of groups) {
        const rows = set.workloads.filter((w) => w.group === group);
        expect(rows.map((w) => w.role).sort()).toEqual(['floor', 'scope']);
      }
      // Each row several times, commits first; a resume with nothing left commits its own.
      for (const w of set.workloads) for (let i = 0; i < 3; i++) await expect(w.fn()).resolves.toBe(true);
      for (const w of set.workloads.filter((x) => x.group.endsWith('-resume'))) {
        await expect(w.fn()).resolves.toBe(true);
      }
      const probes = await set.footprint();
      expect(probes.map((p) => p.id)).toEqual([
        'store/memory-bytes-per-call',
        'store/sqlite-bytes-per-call',
        'store/postgres-bytes-per-call',
      ]);
      for (const p of probes.slice(1)) expect(p.value).toBeGreaterThan(100);
    } finally {
      await set.close();
    }
  }, 120_000);
});
