import type { Registry } from 'scope-tool';
import { MemoryStore, PostgresStore, Runtime, SqliteStore } from 'scope-tool/runtime';
import type { SuspensionStore } from 'scope-tool/runtime';

export async function openStore(where: 'memory' | 'sqlite' | 'postgres'): Promise<SuspensionStore> {
  switch (where) {
    case 'memory': // tests, one process: nothing survives it
      return new MemoryStore();
    case 'sqlite': // the embedded default: one file, no server (npm install better-sqlite3@12)
      return SqliteStore.open('var/suspensions.db');
    case 'postgres': // fleets: every instance resumes any call (npm install pg@8)
      return PostgresStore.open({ connectionString: process.env.DATABASE_URL! });
  }
}

export function newRuntime(registry: Registry, store: SuspensionStore): Runtime {
  return new Runtime({
    registry,
    store,
    timeoutMs: 30_000, // per call, ms (the binding's own deadline applies when smaller)
    suspensionTtlMs: 3_600_000, // a suspended call waits 1 h for its answer, then ends `expired`
    budget: { perTool: 5, total: 20 }, // calls per thread; beyond: `budget-exceeded`, the tool does not run
  });
}
