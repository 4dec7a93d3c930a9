/**
 * A child process of the store contract suite (spec/runtime/store-contract.ts). argv[2] is JSON:
 * - `{ mode: 'commit', child, record }`: opens the store, commits `record`, sends 'committed' and
 *   waits (the parent kills it: a crash between commit and announce);
 * - `{ mode: 'take', child, key, now, count }`: opens the store, sends 'ready', waits for 'go',
 *   takes `key` `count` times concurrently and sends the statuses `{ taken, answered, other }`.
 */
import type { SuspensionStore } from '../../lib/runtime/store';
import { SqliteStore } from '../../lib/runtime/stores/sqlite';
import { PostgresStore } from '../../lib/runtime/stores/postgres';
import type { ChildTarget } from '../runtime/store-contract';

async function open(child: ChildTarget): Promise<SuspensionStore> {
  if (child.kind === 'sqlite') return SqliteStore.open(child.path);
  return PostgresStore.open({ connectionString: child.connectionString, max: 4 });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2]);
  const store = await open(task.child);
  const send = (message: unknown) => process.send?.(message);
  if (task.mode === 'commit') {
    await store.commit(task.record);
    send('committed');
    setInterval(() => undefined, 60_000); // wait for the kill
    return;
  }
  process.on('message', async (message) => {
    if (message !== 'go') return;
    const results = await Promise.all(Array.from({ length: task.count }, () => store.take(task.key, task.now)));
    const counts = { taken: 0, answered: 0, other: 0 };
    for (const r of results) {
      if (r.status === 'taken') counts.taken++;
      else if (r.status === 'answered') counts.answered++;
      else counts.other++;
    }
    await store.close();
    send(counts);
    process.disconnect?.();
  });
  send('ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
