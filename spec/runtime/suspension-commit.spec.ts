/**
 * Suspension is committed before it is announced (lib/runtime/runtime.ts): a replayed turn
 * re-announces the committed request without running the tool; a commit that fails announces
 * nothing; a commit that finds the key taken announces the stored request; a store that fails
 * before the call keeps the tool from running. The idempotency key is the same on the first run
 * and on resume, for a FuncTool and a @Tool() method.
 */
import 'reflect-metadata';
import { InputRequest, Registry } from '../../lib/protocol';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import { createRegistry } from '../../lib/container';
import { Runtime, idempotencyKeyOf } from '../../lib/runtime';
import type { CallOutcome, SuspendedCallOutcome } from '../../lib/runtime';
import { entry, manifest } from '../container/fixtures';
import { APPROVAL_SCHEMA, FaultyStore, call, effects, newStore, sendEmail } from './support';

function suspended(outcome: CallOutcome): SuspendedCallOutcome {
  if (outcome.kind !== 'suspended') throw new Error(`expected a suspended outcome, got ${outcome.kind}`);
  return outcome;
}

const EMAIL = [call('c', 'send_email', { to: 'c@x.org' })];

describe('suspension commit and replay', () => {
  it('re-announces the committed request to a replayed turn without running the tool', async () => {
    const seen = effects();
    const store = newStore();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    const first = suspended((await runtime.runTurn({ threadId: 't', calls: EMAIL }))[0]);
    // The process crashed after commit; the turn is run again, here or on another instance.
    const again = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    const replayed = suspended((await again.runTurn({ threadId: 't', calls: EMAIL }))[0]);
    expect(replayed.replayed).toBe(true);
    expect(replayed.record).toEqual(first.record);
    expect(replayed.inputRequest.prompt).toBe(first.inputRequest.prompt);
    expect(seen.calls).toBe(1);
  });

  it("does not re-announce another principal's suspension to a replayed turn (error, nothing runs)", async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store: newStore() });
    await runtime.runTurn({ threadId: 't', principal: 'alice', calls: EMAIL });
    const [outcome] = await runtime.runTurn({ threadId: 't', principal: 'mallory', calls: EMAIL });
    expect(outcome.kind).toBe('error');
    expect(outcome).not.toHaveProperty('inputRequest');
    expect(seen.calls).toBe(1);
  });

  it('makes a failed commit an error outcome and announces nothing', async () => {
    const seen = effects();
    const store = new FaultyStore(newStore());
    store.commitError = new Error('disk full');
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    const [outcome] = await runtime.runTurn({ threadId: 't', calls: EMAIL });
    expect(outcome.kind).toBe('error');
    expect(outcome).not.toHaveProperty('inputRequest');
    expect(outcome.kind !== 'suspended' && outcome.rendered.output.asText()).not.toContain('disk full');
    expect(await store.get({ threadId: 't', callId: 'c' })).toBeUndefined();
  });

  it('announces the stored request when the commit finds the call already committed', async () => {
    const seen = effects();
    const inner = newStore();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store: inner });
    const first = suspended((await runtime.runTurn({ threadId: 't', calls: EMAIL }))[0]);
    // Another instance ran the same turn at the same time: its gets (before and after its claim)
    // found nothing, its commit loses.
    const racing = new FaultyStore(inner);
    racing.hiddenGets = 2;
    const other = new Runtime({ registry: new Registry(sendEmail(seen)), store: racing });
    const outcome = suspended((await other.runTurn({ threadId: 't', calls: EMAIL }))[0]);
    expect(racing.commits).toBe(1);
    expect(outcome.record).toEqual(first.record);
    expect(outcome.replayed).toBe(true);
  });

  it('does not run the tool when the store cannot tell whether the call was stored', async () => {
    const seen = effects();
    const store = new FaultyStore(newStore());
    store.getError = new Error('connection reset');
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    const [outcome] = await runtime.runTurn({ threadId: 't', calls: EMAIL });
    expect(outcome.kind).toBe('error');
    expect(seen.calls).toBe(0);
  });

  it('returns the outcome of a resume whose finish failed, with the store error', async () => {
    const seen = effects();
    const store = new FaultyStore(newStore());
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store });
    await runtime.runTurn({ threadId: 't', calls: EMAIL });
    store.finishError = new Error('write failed');
    const outcome = await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    expect(outcome.kind).toBe('completed');
    expect(outcome.storeError).toBe(store.finishError);
    expect(seen.sent).toBe(1);
  });
});

const methodKeys: (string | undefined)[] = [];

@Toolset()
@Authorize(() => true)
class ApprovalTools {
  @Tool({ name: 'approve' })
  approve(_input: unknown, call: ToolCall): string | InputRequest {
    methodKeys.push(call.idempotencyKey);
    if (call.continuation === undefined) {
      return InputRequest.create({ prompt: '"Approve?"', responseSchema: APPROVAL_SCHEMA, continuationState: '{}' });
    }
    return 'approved';
  }
}
// No input DTO: declare no parameters to the container (tsc would emit Object for `unknown`).
Reflect.defineMetadata('design:paramtypes', [], ApprovalTools.prototype, 'approve');

describe('the idempotency key on the first run and on resume', () => {
  it('is the same for a FuncTool', async () => {
    const seen = effects();
    const runtime = new Runtime({ registry: new Registry(sendEmail(seen)), store: newStore() });
    await runtime.runTurn({ threadId: 't', calls: EMAIL });
    await runtime.resume({ threadId: 't', callId: 'c', answer: '{"ok":true}' });
    expect(seen.keys).toEqual([idempotencyKeyOf('t', 'c'), idempotencyKeyOf('t', 'c')]);
  });

  it('is the same for a @Tool() method', async () => {
    const registry = createRegistry({
      manifest: manifest(entry('approve', 'ApprovalTools', 'approve', null)),
      toolsets: [new ApprovalTools()],
    });
    const runtime = new Runtime({ registry, store: newStore() });
    const [outcome] = await runtime.runTurn({ threadId: 't', calls: [call('m', 'approve')] });
    expect(outcome.kind).toBe('suspended');
    const done = await runtime.resume({ threadId: 't', callId: 'm', answer: '{"ok":true}' });
    expect(done.kind).toBe('completed');
    expect(methodKeys).toEqual([idempotencyKeyOf('t', 'm'), idempotencyKeyOf('t', 'm')]);
  });
});
