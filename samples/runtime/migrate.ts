import type { SuspensionStore } from 'scope-tool/runtime';

/**
 * Copies the calls still waiting for `principals` from one store to another (SQLite → PostgreSQL).
 * Run it with every instance stopped, then start them on `to`: records are plain JSON of one
 * version, so a waiting call resumes on the new store exactly as on the old one.
 */
export async function copyWaiting(from: SuspensionStore, to: SuspensionStore, principals: string[]): Promise<number> {
  let copied = 0;
  for (const principal of principals) {
    for (const record of await from.list({ principal }, Date.now())) {
      if (await to.commit(record)) copied += 1; // false: already there (a second run copies nothing)
    }
  }
  return copied;
}
