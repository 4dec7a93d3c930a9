/**
 * Continuation tokens opened once across instances: ContinuationSealers of two instances (each with
 * its own runtime SuspensionStore object, over one SQLite file or one PostgreSQL database) share the
 * keys, and the store's `claim` (lib/runtime/store.ts) is their ContinuationUseStore
 * (lib/mcp/sealed-state.ts). The MCP server itself keeps no token (lib/mcp/server.ts): its
 * suspended call is answered once on its own session, which the last suite checks with the SDK
 * client.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ContinuationError, ContinuationSealer, createMcpServer } from '../../lib/mcp';
import type { ContinuationSealerConfig, ContinuationUseStore, SealCall } from '../../lib/mcp';
import { FuncTool, InputRequest, Registry } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
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

describe("the MCP server's suspended call (no store: the elicitation is answered on its session)", () => {
  it('resumes once when the client sends the answer to one elicitation twice', async () => {
    const resumed: string[] = [];
    const decode = (value: JsonValue) => value;
    const tool = FuncTool.create<JsonValue, unknown>(
      { name: 'file_note', inputSchema: { type: 'object' }, decode },
      (_input, call) => {
        if (call.continuation === undefined) {
          return InputRequest.create({
            prompt: '"File it?"',
            responseSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
            continuationState: '{"step":"confirm"}',
          });
        }
        resumed.push(call.continuation.response);
        return 'filed';
      },
    );
    const errors: unknown[] = [];
    const server = createMcpServer(new Registry(tool));
    server.onerror = (e) => errors.push(e);
    const client = new Client({ name: 'shared-store-spec', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A client (or a replaying proxy) that sends its answer to elicitation/create twice.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = async (message: JSONRPCMessage, options) => {
      await send(message, options);
      if ('result' in message && 'action' in message.result) await send(message, options);
    };
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const result = await client.callTool({ name: 'file_note', arguments: {} });
      expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'filed' }] });
      expect(resumed).toEqual(['{"approve":true}']);
      expect(errors).toHaveLength(1); // the second answer: dropped, no handler for its id
    } finally {
      await client.close();
      await server.close();
    }
  });
});
