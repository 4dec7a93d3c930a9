/**
 * Continuation tokens opened once across instances: ContinuationSealers of two instances (each with
 * its own runtime SuspensionStore object, over one SQLite file or one PostgreSQL database) share the
 * keys, and the store's `claim` (lib/runtime/store.ts) is their ContinuationUseStore
 * (lib/mcp/sealed-state.ts). The MCP server itself keeps no token (lib/mcp/server.ts), so there is
 * no server option to test here: the sealer is where single use lives.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContinuationError, ContinuationSealer } from '../../lib/mcp';
import type { ContinuationSealerConfig, ContinuationUseStore, SealCall } from '../../lib/mcp';
import { InputRequest } from '../../lib/protocol';
import type { SuspensionStore } from '../../lib/runtime/store';
import { PostgresStore, SqliteStore } from '../../lib/runtime/stores';
import { startPostgres, type TestPostgres } from '../support/postgres';

const KEYS = [{ id: 'fleet-1', secret: randomBytes(32) }];
const CALL: SealCall = { toolName: 'file_note', arguments: '{"text":"milk"}', principal: 'alice' };
const REQUEST = InputRequest.create({
  prompt: '"File this note?"',
  responseSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
  continuationState: '{"step":"confirm","draft":7}',
});

/** One instance: a sealer whose use store is a runtime SuspensionStore (assignable as it is). */
function instance(store: SuspensionStore, config: Partial<ContinuationSealerConfig> = {}): ContinuationSealer {
  const useStore: ContinuationUseStore = store;
  return new ContinuationSealer({ keys: KEYS, currentKeyId: 'fleet-1', useStore, ...config });
}

/** What an open ended with: the state text, or the ContinuationError reason (other errors rethrown). */
async function opened(sealer: ContinuationSealer, wire: string): Promise<string> {
  try {
    return (await sealer.openRequest(InputRequest.parse(wire), CALL)).state;
  } catch (e) {
    if (e instanceof ContinuationError) return `refused: ${e.reason}`;
    throw e;
  }
}

const sealed = (sealer: ContinuationSealer) => JSON.stringify(sealer.sealRequest(REQUEST, CALL));

/** The shared behavior, for a store kind whose `open` gives a new connection to the same data. */
function sharedStoreBehavior(open: () => Promise<SuspensionStore>): void {
  const stores: SuspensionStore[] = [];
  const connect = async () => {
    const store = await open();
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('a token sealed on instance A opens once on instance B, and again on neither', async () => {
    const a = instance(await connect());
    const b = instance(await connect());
    const wire = sealed(a);
    expect(await opened(b, wire)).toBe(REQUEST.state);
    expect(await opened(b, wire)).toBe('refused: replayed');
    expect(await opened(a, wire)).toBe('refused: replayed');
  });

  it('opens racing on two instances resume exactly once', async () => {
    const a = instance(await connect());
    const b = instance(await connect());
    const wire = sealed(a);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => opened(i % 2 === 0 ? a : b, wire)));
    expect(results.filter((r) => r === REQUEST.state)).toHaveLength(1);
    expect(results.filter((r) => r === 'refused: replayed')).toHaveLength(19);
  });

  it('a claim survives closing and reopening the store', async () => {
    const first = await open();
    const wire = sealed(instance(first));
    expect(await opened(instance(first), wire)).toBe(REQUEST.state);
    await first.close();
    const restarted = instance(await connect());
    expect(await opened(restarted, wire)).toBe('refused: replayed');
  });

  it('a token of another instance is still checked before it is claimed: another principal cannot spend it', async () => {
    const a = instance(await connect());
    const b = instance(await connect());
    const wire = sealed(a);
    const other = await b.openRequest(InputRequest.parse(wire), { ...CALL, principal: 'mallory' }).then(
      () => 'opened',
      (e: unknown) => (e as ContinuationError).reason,
    );
    expect(other).toBe('wrong_principal');
    expect(await opened(b, wire)).toBe(REQUEST.state);
  });

  it('a TTL with a fraction of a ms opens (the store takes whole ms; regression: ERR_STORE_INVALID_ARGUMENT)', async () => {
    const a = instance(await connect(), { ttlMs: 60_000.5 });
    const b = instance(await connect(), { ttlMs: 60_000.5 });
    const wire = sealed(a);
    expect(await opened(b, wire)).toBe(REQUEST.state);
    expect(await opened(a, wire)).toBe('refused: replayed');
  });

  it('a closed store fails the open with its own error, never as a replay', async () => {
    const store = await open();
    const a = instance(store);
    const wire = sealed(a);
    await store.close();
    await expect(a.openRequest(InputRequest.parse(wire), CALL)).rejects.toMatchObject({ code: 'ERR_STORE_CLOSED' });
    expect(await opened(instance(await connect()), wire)).toBe(REQUEST.state);
  });
}

describe('continuation tokens over one SqliteStore file', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-mcp-shared-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  sharedStoreBehavior(() => SqliteStore.open(path.join(dir, 'claims.db')));
});

describe('continuation tokens over one PostgreSQL database (a real server the suite starts)', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());

  sharedStoreBehavior(() => PostgresStore.open({ connectionString: server.connectionString, max: 2 }));
});
