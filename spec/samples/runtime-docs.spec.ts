import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryStore, Runtime } from 'scope-tool/runtime';
import { copyWaiting } from '../../samples/runtime/migrate';
import { codeBlocks } from '../docs/blocks';
import { newRuntime, openStore } from '../../samples/runtime/stores';
import { loopRegistry } from '../runtime/loops/support';
import { call, effects, sendEmail } from '../runtime/support';
import { Registry } from 'scope-tool';

const ROOT = path.join(__dirname, '..', '..');
const CALL = { id: 'call_1', request: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' } };

describe('docs/runtime.md', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'runtime.md'), 'utf8');

  it('quotes samples/runtime/stores.ts and migrate.ts (spec/docs/code-blocks.spec.ts checks the quotes)', () => {
    const quotes = codeBlocks('docs/runtime.md', doc).blocks.filter((b) => b.kind === 'quote');
    expect(quotes.map((b) => b.quotes)).toEqual(['samples/runtime/stores.ts', 'samples/runtime/migrate.ts']);
  });

  it('is linked from the README', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('](docs/runtime.md)');
  });

  it('opens a memory store and builds a Runtime with the documented budget', async () => {
    const { registry } = loopRegistry();
    const runtime = newRuntime(registry, await openStore('memory'));
    const [first] = await runtime.runTurn({ threadId: 't', calls: [CALL, { ...CALL, id: 'call_2' }] });
    expect(first.kind).toBe('completed');
    expect(runtime).toBeInstanceOf(Runtime);
  });

  it('copies a waiting call to another store, where it resumes; a second copy copies nothing', async () => {
    const { registry, runs } = loopRegistry({ confirmWeather: true });
    const from = new MemoryStore();
    const to = new MemoryStore();
    const [suspended] = await new Runtime({ registry, store: from }).runTurn({
      threadId: 't',
      principal: 'ada',
      calls: [CALL],
    });
    expect(suspended.kind).toBe('suspended');
    await expect(copyWaiting(from, to, ['ada'])).resolves.toBe(1);
    await expect(copyWaiting(from, to, ['ada'])).resolves.toBe(0);
    const resumed = await new Runtime({ registry, store: to }).resume({
      threadId: 't',
      callId: 'call_1',
      answer: '{"approve":true}',
      principal: 'ada',
    });
    expect(resumed.kind).toBe('completed');
    expect(runs.weather).toBe(1);
  });

  it('copies a call waiting in its second round: it resumes by its round key, a replayed turn runs nothing', async () => {
    const seen = effects();
    const registry = new Registry(sendEmail(seen, { twice: true }));
    const from = new MemoryStore();
    const old = new Runtime({ registry, store: from });
    const turn = { threadId: 't', principal: 'ada', calls: [call('c', 'send_email', { to: 'a@x.org' })] };
    await old.runTurn(turn);
    const round2 = await old.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}', principal: 'ada' });
    expect(round2.kind === 'suspended' && round2.record.callId).toBe('c#2');
    const to = new MemoryStore();
    await expect(copyWaiting(from, to, ['ada'])).resolves.toBe(1);
    await expect(copyWaiting(from, to, ['ada'])).resolves.toBe(0);
    const runtime = new Runtime({ registry, store: to });
    const [replayed] = await runtime.runTurn(turn);
    expect([replayed.kind, replayed.replayed, seen.calls]).toEqual(['suspended', true, 2]);
    expect((await runtime.list({ principal: 'ada' })).map((r) => r.callId)).toEqual(['c#2']);
    const done = await runtime.resume({ threadId: 't', callId: 'c#2', answer: '{"ok":true}', principal: 'ada' });
    expect([done.kind, seen.sent]).toEqual(['completed', 1]);
  });
});
