import { providerCallIdOf, roundKey } from 'scope-tool/runtime';
import type { SuspensionStore } from 'scope-tool/runtime';

/**
 * Copies the calls still waiting for `principals` from one store to another (SQLite → PostgreSQL).
 * Run it with every instance stopped, then start them on `to`. A call waiting in round n > 1 (its
 * tool asked again after an answer) brings its answered rounds along, each with its `suspended`
 * outcome, so it resumes by its round key and a replayed turn finds it, as on the old store.
 */
export async function copyWaiting(from: SuspensionStore, to: SuspensionStore, principals: string[]): Promise<number> {
  let copied = 0;
  for (const principal of principals) {
    for (const record of await from.list({ principal }, Date.now())) {
      const { callId, round } = providerCallIdOf(record);
      for (let r = 1; r < round; r += 1) {
        const earlier = await from.get({ threadId: record.threadId, callId: roundKey(callId, r) });
        if (earlier?.outcome === undefined) continue;
        await to.commit(earlier.record);
        // Taken at the instant it was committed (it was not expired then), finished with its outcome.
        const taken = await to.take(earlier.record, earlier.record.createdAt);
        if (taken.status === 'taken') await to.finish(earlier.record, taken.claim, earlier.outcome);
      }
      if (await to.commit(record)) copied += 1; // false: already there (a second run copies nothing)
    }
  }
  return copied;
}
