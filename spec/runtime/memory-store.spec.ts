import { MemoryStore } from '../../lib/runtime/stores';
import { makeRecord, storeContract } from './store-contract';

describe('MemoryStore', () => {
  describe('the store contract', () => {
    storeContract({
      open: async () => new MemoryStore(),
      shared: false,
      child: () => {
        throw new Error('a MemoryStore cannot be opened by another process');
      },
    });
  });

  it('forgets claimed token ids once they expired, on the clock it was given', async () => {
    let now = 1_000;
    const store = new MemoryStore({ now: () => now });
    await expect(store.claim('old', 1_500)).resolves.toBe(true);
    now = 2_000;
    for (let i = 0; i < 63; i++) await store.claim(`fresh-${i}`, 100_000);
    await expect(store.claim('old', 3_000)).resolves.toBe(false); // not swept yet: 64 ids held
    await expect(store.claim('sweeper', 100_000)).resolves.toBe(true); // the sweep forgets 'old'
    await expect(store.claim('old', 3_000)).resolves.toBe(true);
    await expect(store.claim('fresh-1', 100_000)).resolves.toBe(false);
  });

  it('hands out records that the caller cannot change', async () => {
    const store = new MemoryStore();
    const record = makeRecord();
    await store.commit(record);
    const got = await store.get({ threadId: record.threadId, callId: record.callId });
    expect(Object.isFrozen(got?.record)).toBe(true);
  });
});
