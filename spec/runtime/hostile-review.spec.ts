/**
 * Hostile review of scope-tool/runtime (issue 13): odd ids, hostile answers, races across
 * instances over one SQLite file and one PostgreSQL server, tampered records, aborted resumes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Registry } from '../../lib/protocol';
import { Runtime } from '../../lib/runtime';
import type { CallOutcome, SuspendedCallOutcome } from '../../lib/runtime';
import { MemoryStore, PostgresStore, SqliteStore } from '../../lib/runtime/stores';
import { startPostgres, type TestPostgres } from '../support/postgres';
import { call, effects, sendEmail } from './support';

function suspended(outcome: CallOutcome): SuspendedCallOutcome {
  if (outcome.kind !== 'suspended') throw new Error(`expected a suspended outcome, got ${outcome.kind}`);
  return outcome;
}

describe('hostile review', () => {
  it('A: a new call whose id is "<id>#2" does not get the second round of call <id>', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen, { twice: true })), store: new MemoryStore() });
    suspended((await runtime.runTurn({ threadId: 't', calls: [call('x', 'send_email', { to: 'victim@x.org' })] }))[0]);
    const round2 = suspended(await runtime.resume({ threadId: 't', callId: 'x', answer: '{"ok":true}' }));
    expect(round2.record.callId).toBe('x#2');
    // The model now proposes a call of its own under the id "x#2" (a hostile or odd id).
    const [fresh] = await runtime.runTurn({
      threadId: 't',
      calls: [call('x#2', 'send_email', { to: 'attacker@x.org' })],
    });
    // Expected: its own suspension (or an error), never the request of call "x".
    expect(fresh.kind === 'suspended' ? fresh.record.arguments : fresh.kind).not.toBe('{"to":"victim@x.org"}');
  });

  it('B: round 2 of call <id> never resumes the record of another call "<id>#2"', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen, { twice: true })), store: new MemoryStore() });
    await runtime.runTurn({
      threadId: 't',
      calls: [call('x', 'send_email', { to: 'x@x.org' }), call('x#2', 'send_email', { to: 'other@x.org' })],
    });
    // x's answer makes it ask again: its round 2 key "x#2" is the other call's key.
    const again = await runtime.resume({ threadId: 't', callId: 'x', answer: '{"ok":true}' });
    expect(again.kind === 'suspended' ? again.record.arguments : again.kind).not.toBe('{"to":"other@x.org"}');
  });

  it('C: a resume with an already-aborted signal does not consume the answer', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store: new MemoryStore() });
    await runtime.runTurn({ threadId: 't', calls: [call('a', 'send_email', { to: 'a@x.org' })] });
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(
      runtime.resume({ threadId: 't', callId: 'a', answer: '{"ok":true}', signal: controller.signal }),
    ).rejects.toThrow('client went away');
    expect(await runtime.list({ threadId: 't' })).toHaveLength(1);
    const second = await runtime.resume({ threadId: 't', callId: 'a', answer: '{"ok":true}' });
    expect(second.kind).toBe('completed');
    expect(seen.sent).toBe(1);
  });

  describe('SQLite file', () => {
    let dir: string;
    beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-sqlite-'))));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('E: tampered arguments (digest no longer matches) are not run on resume', async () => {
      const file = path.join(dir, 'e.db');
      const seen = effects();
      const store = await SqliteStore.open(file);
      const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store });
      await runtime.runTurn({ threadId: 't', calls: [call('a', 'send_email', { to: 'a@x.org' })] });
      const raw = new Database(file);
      const row = raw.prepare('SELECT record FROM scope_tool_suspensions').get() as { record: string };
      const record = JSON.parse(row.record);
      record.arguments = '{"to":"attacker@evil.org"}';
      raw.prepare('UPDATE scope_tool_suspensions SET record = ?').run(JSON.stringify(record));
      raw.close();
      const out = await runtime.resume({ threadId: 't', callId: 'a', answer: '{"ok":true}' }).then(
        (o) => (o.kind === 'suspended' ? 'suspended' : `${o.kind}: ${o.rendered.output.asText()}`),
        (e) => `rejected ${e.code}`,
      );
      expect(out).toMatch(/^error: /);
      await store.close();
      expect(seen.sent).toBe(0);
    });

    it('F: 200 racing resumes on two Runtime instances over one file: one runs', async () => {
      const file = path.join(dir, 'f.db');
      const seen = effects();
      const [s1, s2] = [await SqliteStore.open(file), await SqliteStore.open(file)];
      const r1 = new Runtime({ registry: new Registry(sendEmail(seen)), store: s1 });
      const r2 = new Runtime({ registry: new Registry(sendEmail(seen)), store: s2 });
      await r1.runTurn({ threadId: 't', calls: [call('a', 'send_email', { to: 'a@x.org' })] });
      const outs = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 ? r1 : r2).resume({ threadId: 't', callId: 'a', answer: '{"ok":true}' }),
        ),
      );
      const kinds = outs.map((o) => o.kind);
      expect(kinds.filter((k) => k === 'completed')).toHaveLength(1);
      expect(seen.sent).toBe(1);
      await s1.close();
      await s2.close();
    });
  });

  describe('PostgreSQL', () => {
    let server: TestPostgres;
    beforeAll(async () => (server = await startPostgres()), 120_000);
    afterAll(() => server?.stop());

    it('H: 200 racing resumes across two Runtime instances over one server: one runs', async () => {
      const seen = effects();
      const [s1, s2] = [
        await PostgresStore.open({ connectionString: server.connectionString, max: 5 }),
        await PostgresStore.open({ connectionString: server.connectionString, max: 5 }),
      ];
      const r1 = new Runtime({ registry: new Registry(sendEmail(seen)), store: s1 });
      const r2 = new Runtime({ registry: new Registry(sendEmail(seen)), store: s2 });
      await r1.runTurn({ threadId: 'tH', calls: [call('a', 'send_email', { to: 'a@x.org' })] });
      const outs = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 ? r1 : r2).resume({ threadId: 'tH', callId: 'a', answer: '{"ok":true}' }),
        ),
      );
      expect(outs.filter((o) => o.kind === 'completed')).toHaveLength(1);
      expect(seen.sent).toBe(1);
      await s1.close();
      await s2.close();
    });
  });
});
