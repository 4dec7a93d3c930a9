import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import { PostgresStore } from '../../lib/runtime/stores';
import { POSTGRES_PACKAGE, findPostgresBin, startPostgres, type TestPostgres } from '../support/postgres';
import { makeRecord, makeSettled, storeContract } from './store-contract';

describe('PostgresStore (a real PostgreSQL server started by the suite)', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());

  describe('the store contract', () => {
    storeContract({
      open: () => PostgresStore.open({ connectionString: server.connectionString, max: 4 }),
      shared: true,
      child: () => ({ kind: 'postgres', connectionString: server.connectionString }),
    });
  });

  it('migrate is idempotent and safe when instances race to run it', async () => {
    const pool = new Pool({ connectionString: server.connectionString, max: 8 });
    try {
      await pool.query('CREATE DATABASE race_migrate');
      const url = server.connectionString.replace(/\/postgres$/, '/race_migrate');
      const stores = await Promise.all(
        Array.from({ length: 6 }, () => PostgresStore.open({ connectionString: url, max: 2 })),
      );
      await stores[0].migrate();
      await expect(stores[1].commit(makeRecord())).resolves.toBe(true);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await pool.end();
    }
  });

  it('open with migrate: false on an empty database is ERR_STORE_SCHEMA', async () => {
    const pool = new Pool({ connectionString: server.connectionString, max: 1 });
    try {
      await pool.query('CREATE DATABASE empty_db');
    } finally {
      await pool.end();
    }
    const url = server.connectionString.replace(/\/postgres$/, '/empty_db');
    await expect(PostgresStore.open({ connectionString: url, migrate: false })).rejects.toMatchObject({
      code: 'ERR_STORE_SCHEMA',
    });
  });

  it('open refuses a database of another schema version with ERR_STORE_SCHEMA', async () => {
    const admin = new Pool({ connectionString: server.connectionString, max: 1 });
    try {
      await admin.query('CREATE DATABASE other_schema');
    } finally {
      await admin.end();
    }
    const url = server.connectionString.replace(/\/postgres$/, '/other_schema');
    await (await PostgresStore.open({ connectionString: url })).close();
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      await pool.query(`UPDATE scope_tool_meta SET value = '2' WHERE key = 'schema'`);
      await expect(PostgresStore.open({ pool })).rejects.toMatchObject({ code: 'ERR_STORE_SCHEMA' });
    } finally {
      await pool.end();
    }
  });

  it('migrate upgrades a database written before leases and settled calls (same schema version)', async () => {
    const admin = new Pool({ connectionString: server.connectionString, max: 1 });
    try {
      await admin.query('CREATE DATABASE before_leases');
    } finally {
      await admin.end();
    }
    const url = server.connectionString.replace(/\/postgres$/, '/before_leases');
    await (await PostgresStore.open({ connectionString: url })).close();
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      await pool.query('ALTER TABLE scope_tool_suspensions DROP COLUMN lease_until; DROP TABLE scope_tool_settled');
      const store = await PostgresStore.open({ pool });
      const record = makeRecord();
      const key = { threadId: record.threadId, callId: record.callId };
      await store.commit(record);
      expect((await store.take(key, 2_000, 100)).status).toBe('taken');
      expect((await store.take(key, 2_101)).status).toBe('taken');
      await expect(store.settle({ ...makeSettled(), threadId: record.threadId })).resolves.toBe(true);
      await store.close();
    } finally {
      await pool.end();
    }
  });

  it('list leaves out a record of another version, reports an unreadable row, lists a take without lease', async () => {
    const reported: unknown[] = [];
    const store = await PostgresStore.open({
      connectionString: server.connectionString,
      max: 2,
      onUnreadableRecord: (e) => reported.push(e),
    });
    const { threadId } = makeRecord();
    const records = ['a', 'b', 'c', 'd'].map((callId, i) => makeRecord({ threadId, callId, createdAt: 1_000 + i }));
    for (const r of records) await store.commit(r);
    const pool = new Pool({ connectionString: server.connectionString, max: 1 });
    try {
      const set = `UPDATE scope_tool_suspensions SET record = $1 WHERE thread_id = $2 AND call_id = $3`;
      await pool.query(set, [JSON.stringify({ ...records[1], version: 2 }), threadId, 'b']);
      await pool.query(set, ['{"version":1,', threadId, 'c']);
      // A take written before leases existed: taken, with no lease_until.
      await pool.query(
        `UPDATE scope_tool_suspensions SET state = 'taken', claim = 'old' WHERE thread_id = $1 AND call_id = $2`,
        [threadId, 'd'],
      );
    } finally {
      await pool.end();
    }
    try {
      expect((await store.list({ threadId }, 2_000)).map((r) => r.callId)).toEqual(['a', 'd']);
      expect(reported).toEqual([expect.objectContaining({ code: 'ERR_STORE_INVALID_RECORD' })]);
      expect((reported[0] as Error).message).toContain(JSON.stringify('c'));
      expect((await store.take({ threadId, callId: 'd' }, 2_000)).status).toBe('taken');
    } finally {
      await store.close();
    }
  });

  it('a store on your Pool leaves it open at close; an ended Pool rejects with ERR_STORE_DRIVER', async () => {
    const pool = new Pool({ connectionString: server.connectionString, max: 2 });
    const store = await PostgresStore.open({ pool });
    await store.close();
    await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    const again = await PostgresStore.open({ pool });
    await pool.end();
    const err = await again.commit(makeRecord()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_DRIVER' });
    expect((err as { cause?: unknown }).cause).toBeInstanceOf(Error);
  });

  it('an unreachable server is ERR_STORE_DRIVER at open', async () => {
    const closedPort = server.port === 1 ? 2 : 1;
    await expect(
      PostgresStore.open({ connectionString: `postgres://postgres@127.0.0.1:${closedPort}/postgres` }),
    ).rejects.toMatchObject({ code: 'ERR_STORE_DRIVER' });
  });

  it('open takes exactly one of pool and connectionString', async () => {
    await expect(PostgresStore.open({} as never)).rejects.toMatchObject({ code: 'ERR_STORE_INVALID_ARGUMENT' });
  });

  it('a stored record of another version is refused when read, naming the field', async () => {
    const store = await PostgresStore.open({ connectionString: server.connectionString, max: 1 });
    const record = makeRecord();
    await store.commit(record);
    const pool = new Pool({ connectionString: server.connectionString, max: 1 });
    await pool.query(`UPDATE scope_tool_suspensions SET record = $1 WHERE thread_id = $2`, [
      JSON.stringify({ ...record, version: 2 }),
      record.threadId,
    ]);
    await pool.end();
    const err = await store.get({ threadId: record.threadId, callId: record.callId }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_INVALID_RECORD' });
    expect((err as Error).message).toMatch(/version/);
    await store.close();
  });

  it('a missing pg is ERR_STORE_DRIVER_MISSING naming the install command', async () => {
    let open!: typeof PostgresStore.open;
    jest.isolateModules(() => {
      jest.doMock('pg', () => {
        throw Object.assign(new Error("Cannot find module 'pg'"), { code: 'MODULE_NOT_FOUND' });
      });
      open = require('../../lib/runtime/stores/postgres').PostgresStore.open;
    });
    const err = await open({ connectionString: server.connectionString }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ERR_STORE_DRIVER_MISSING' });
    expect((err as Error).message).toContain('npm install pg@8');
    jest.resetModules();
  });
});

describe('the throwaway server helper (spec/support/postgres.ts)', () => {
  it('without initdb and pg_ctl it fails naming the Debian package', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-nobin-'));
    try {
      expect(() => findPostgresBin(empty, path.join(empty, 'postgresql'))).toThrow(POSTGRES_PACKAGE);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
