import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../lib/runtime/stores';
import { makeRecord, makeSettled, storeContract } from './store-contract';

describe('SqliteStore', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-sqlite-'));
    file = path.join(dir, 'suspensions.db');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('the store contract', () => {
    storeContract({
      open: () => SqliteStore.open(file),
      shared: true,
      child: () => ({ kind: 'sqlite', path: file }),
    });
  });

  it('keeps the file in WAL mode', async () => {
    const store = await SqliteStore.open(file);
    const raw = new Database(file);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('a locked database rejects with ERR_STORE_DRIVER carrying the driver error', async () => {
    const store = await SqliteStore.open(file, { busyTimeoutMs: 20 });
    const raw = new Database(file);
    raw.exec('BEGIN EXCLUSIVE');
    try {
      const err = await store.commit(makeRecord()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'ERR_STORE_DRIVER', cause: { code: 'SQLITE_BUSY' } });
    } finally {
      raw.exec('ROLLBACK');
      raw.close();
      await store.close();
    }
  });

  it('open refuses a file of another schema version with ERR_STORE_SCHEMA', async () => {
    const other = path.join(dir, 'other-schema.db');
    await (await SqliteStore.open(other)).close();
    const raw = new Database(other);
    raw.prepare(`UPDATE scope_tool_meta SET value = '2' WHERE key = 'schema'`).run();
    raw.close();
    await expect(SqliteStore.open(other)).rejects.toMatchObject({ code: 'ERR_STORE_SCHEMA' });
  });

  it('open of a path that cannot be a database is ERR_STORE_DRIVER', async () => {
    await expect(SqliteStore.open(path.join(dir, 'no-such-folder', 'x.db'))).rejects.toMatchObject({
      code: 'ERR_STORE_DRIVER',
    });
  });

  it('a stored record of another version is refused when read, naming the field', async () => {
    const store = await SqliteStore.open(file);
    const record = makeRecord();
    await store.commit(record);
    const raw = new Database(file);
    raw
      .prepare(`UPDATE scope_tool_suspensions SET record = ? WHERE thread_id = ?`)
      .run(JSON.stringify({ ...record, version: 2 }), record.threadId);
    raw.close();
    const key = { threadId: record.threadId, callId: record.callId };
    const err = await store.get(key).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
    expect((err as Error).message).toMatch(/version/);
    await store.close();
  });

  it('list leaves out a record of another version, reports an unreadable row, lists a take without lease', async () => {
    const reported: unknown[] = [];
    const store = await SqliteStore.open(file, { onUnreadableRecord: (e) => reported.push(e) });
    const { threadId } = makeRecord();
    const records = ['a', 'b', 'c', 'd'].map((callId, i) => makeRecord({ threadId, callId, createdAt: 1_000 + i }));
    for (const r of records) await store.commit(r);
    const raw = new Database(file);
    const set = raw.prepare(`UPDATE scope_tool_suspensions SET record = ? WHERE thread_id = ? AND call_id = ?`);
    set.run(JSON.stringify({ ...records[1], version: 2 }), threadId, 'b');
    set.run('{"version":1,', threadId, 'c');
    // A take written before leases existed: taken, with no lease_until.
    raw
      .prepare(`UPDATE scope_tool_suspensions SET state = 'taken', claim = 'old' WHERE thread_id = ? AND call_id = ?`)
      .run(threadId, 'd');
    raw.close();
    try {
      expect((await store.list({ threadId }, 2_000)).map((r) => r.callId)).toEqual(['a', 'd']);
      expect(reported).toEqual([expect.objectContaining({ code: 'ERR_STORE_INVALID_RECORD' })]);
      expect((reported[0] as Error).message).toContain(JSON.stringify('c'));
      expect((await store.take({ threadId, callId: 'd' }, 2_000)).status).toBe('taken');
      const warned = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      const plain = await SqliteStore.open(file);
      try {
        expect((await plain.list({ threadId }, 2_000)).map((r) => r.callId)).toEqual(['a']);
        expect(warned).toHaveBeenCalledWith(expect.objectContaining({ code: 'ERR_STORE_INVALID_RECORD' }));
      } finally {
        warned.mockRestore();
        await plain.close();
      }
    } finally {
      await store.close();
    }
  });

  it('open upgrades a file written before leases and settled calls (same schema version)', async () => {
    const old = path.join(dir, 'before-leases.db');
    await (await SqliteStore.open(old)).close();
    const raw = new Database(old);
    raw.exec('ALTER TABLE scope_tool_suspensions DROP COLUMN lease_until; DROP TABLE scope_tool_settled;');
    raw.close();
    const store = await SqliteStore.open(old);
    try {
      const record = makeRecord();
      const key = { threadId: record.threadId, callId: record.callId };
      await store.commit(record);
      expect((await store.take(key, 2_000, 100)).status).toBe('taken');
      expect((await store.take(key, 2_101)).status).toBe('taken');
      await expect(store.settle({ ...makeSettled(), threadId: record.threadId })).resolves.toBe(true);
    } finally {
      await store.close();
    }
  });

  describe('the driver is an optional peer', () => {
    afterEach(() => jest.resetModules());

    it('a missing better-sqlite3 is ERR_STORE_DRIVER_MISSING naming the install command', async () => {
      let open!: typeof SqliteStore.open;
      jest.isolateModules(() => {
        jest.doMock('better-sqlite3', () => {
          throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
        });
        open = require('../../lib/runtime/stores/sqlite').SqliteStore.open;
      });
      const err = await open(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'ERR_STORE_DRIVER_MISSING' });
      expect((err as Error).message).toContain('npm install better-sqlite3@12');
    });

    it('a better-sqlite3 that fails to load is ERR_STORE_DRIVER_LOAD', async () => {
      let open!: typeof SqliteStore.open;
      jest.isolateModules(() => {
        jest.doMock('better-sqlite3', () => {
          throw new Error('The module was compiled against a different Node.js version');
        });
        open = require('../../lib/runtime/stores/sqlite').SqliteStore.open;
      });
      await expect(open(file)).rejects.toMatchObject({ code: 'ERR_STORE_DRIVER_LOAD' });
    });

    it('importing the stores does not load the driver', () => {
      jest.isolateModules(() => {
        jest.doMock('better-sqlite3', () => {
          throw new Error('loaded at import');
        });
        jest.doMock('pg', () => {
          throw new Error('loaded at import');
        });
        expect(() => require('../../lib/runtime/stores')).not.toThrow();
      });
    });
  });
});
