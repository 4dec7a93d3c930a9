/**
 * Shared fixtures of the runtime specs: the store, a wrapper that injects store faults, and tools
 * that complete, suspend, count their side effects and record the idempotency keys they see.
 */
import { FuncTool, Failure, Guard, InputRequest, Output, Registry } from '../../lib/protocol';
import type { Authorizer, JsonValue, Tool } from '../../lib/protocol';
import type { ProviderToolCall } from '../../lib/providers';
import { MemoryStore } from '../../lib/runtime/stores';
import type {
  CallKey,
  CountOptions,
  ListFilter,
  RunningCall,
  SettledCall,
  StoredOutcome,
  SuspensionRecord,
  SuspensionStore,
} from '../../lib/runtime/store';

/** The store the runtime specs run on: the library's MemoryStore. */
export function newStore(): SuspensionStore {
  return new MemoryStore();
}

/** Wraps a store; each fault, when set, makes that operation reject (or resolve as told). */
export class FaultyStore implements SuspensionStore {
  readonly inner: SuspensionStore;
  commitError: Error | undefined;
  getError: Error | undefined;
  finishError: Error | undefined;
  settleError: Error | undefined;
  commits = 0;
  /** How many of the next `get` calls resolve undefined (as if the record were not committed yet). */
  hiddenGets = 0;

  constructor(inner: SuspensionStore) {
    this.inner = inner;
  }

  async commit(record: SuspensionRecord): Promise<boolean> {
    this.commits++;
    if (this.commitError !== undefined) throw this.commitError;
    return this.inner.commit(record);
  }
  get(key: CallKey) {
    if (this.getError !== undefined) return Promise.reject(this.getError);
    if (this.hiddenGets > 0) {
      this.hiddenGets--;
      return Promise.resolve(undefined);
    }
    return this.inner.get(key);
  }
  take(key: CallKey, now: number, leaseMs?: number) {
    return this.inner.take(key, now, leaseMs);
  }
  async finish(key: CallKey, claim: string, outcome: StoredOutcome): Promise<void> {
    if (this.finishError !== undefined) throw this.finishError;
    return this.inner.finish(key, claim, outcome);
  }
  release(key: CallKey, claim: string) {
    return this.inner.release(key, claim);
  }
  begin(call: RunningCall, now: number, leaseMs?: number) {
    return this.inner.begin(call, now, leaseMs);
  }
  abandon(key: CallKey, claim: string) {
    return this.inner.abandon(key, claim);
  }
  async settle(call: SettledCall): Promise<boolean> {
    if (this.settleError !== undefined) throw this.settleError;
    return this.inner.settle(call);
  }
  getSettled(key: CallKey) {
    if (this.getError !== undefined) return Promise.reject(this.getError);
    return this.inner.getSettled(key);
  }
  countCall(threadId: string, tool: string, options?: CountOptions) {
    return this.inner.countCall(threadId, tool, options);
  }
  list(filter: ListFilter, now: number) {
    return this.inner.list(filter, now);
  }
  claim(tokenId: string, expiresAt: number) {
    return this.inner.claim(tokenId, expiresAt);
  }
  close() {
    return this.inner.close();
  }
}

export const OBJECT = (properties: Record<string, JsonValue> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** What the approval tool's person answers: `{"ok": true}` runs it, `{"ok": false}` cancels it. */
export const APPROVAL_SCHEMA = OBJECT({ ok: { type: 'boolean' } }, ['ok']);

/** Side effects and idempotency keys the tools saw. */
export interface Effects {
  sent: number;
  keys: (string | undefined)[];
  calls: number;
}

export function effects(): Effects {
  return { sent: 0, keys: [], calls: 0 };
}

/**
 * `send_email({ to })`: asks for approval first (InputRequest), then on `{"ok": true}` "sends" it
 * (one side effect) and returns `sent to <to>`. With `twice`, the first approval asks once more.
 */
export function sendEmail(seen: Effects, options: { twice?: boolean; description?: string } = {}): Tool {
  return FuncTool.create(
    {
      name: 'send_email',
      description: options.description ?? 'Send an email after approval',
      inputSchema: OBJECT({ to: { type: 'string' } }, ['to']),
      decode: (v) => v as { to: string },
    },
    (input, call) => {
      seen.calls++;
      seen.keys.push(call.idempotencyKey);
      const step = call.continuation === undefined ? 0 : (JSON.parse(call.continuation.state) as { step: number }).step;
      if (call.continuation === undefined || (options.twice === true && step === 1)) {
        return InputRequest.create({
          prompt: JSON.stringify(`Send the email to ${input.to}?`),
          responseSchema: APPROVAL_SCHEMA,
          continuationState: JSON.stringify({ step: step + 1 }),
        });
      }
      const answer = JSON.parse(call.continuation.response) as { ok: boolean };
      if (!answer.ok) return 'not sent';
      seen.sent++;
      return `sent to ${input.to}`;
    },
  );
}

/** `echo({ text })`: returns the text. */
export function echo(seen?: Effects): Tool {
  return FuncTool.create(
    { name: 'echo', inputSchema: OBJECT({ text: { type: 'string' } }, ['text']), decode: (v) => v as { text: string } },
    (input, call) => {
      if (seen !== undefined) {
        seen.calls++;
        seen.keys.push(call.idempotencyKey);
      }
      return input.text;
    },
  );
}

/** `fail()`: throws a Failure of kind failed with a model-facing text. */
export function failing(): Tool {
  return FuncTool.create({ name: 'fail', inputSchema: OBJECT(), decode: (v) => v }, () => {
    throw new Failure({
      kind: 'failed',
      output: Output.text('error: the disk is full; try later'),
      cause: new Error('ENOSPC'),
    });
  });
}

/** `crash()`: throws a plain Error whose message must never reach the model. */
export const SECRET = 'password=hunter2 at /srv/db';
export function crashing(): Tool {
  return FuncTool.create({ name: 'crash', inputSchema: OBJECT(), decode: (v) => v }, () => {
    throw new Error(SECRET);
  });
}

/** Wraps a tool in a Guard with `authorizer`. */
export function guarded(tool: Tool, authorizer: Authorizer | ((...a: never[]) => boolean)): Tool {
  return new Guard({ tool, authorizer: authorizer as Authorizer });
}

/** A provider call as the readers produce it. */
export function call(id: string, name: string, args: JsonValue = {}): ProviderToolCall {
  return { id, request: { name, arguments: JSON.stringify(args) } };
}

/** `pay({ to, amount, rounds? })`: asks `rounds` questions (default 1), then pays; `paid` records each payment. */
export function payTool(paid: string[]): Tool {
  return FuncTool.create(
    {
      name: 'pay',
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, amount: { type: 'number' }, rounds: { type: 'number' } },
        required: ['to', 'amount'],
        additionalProperties: false,
      },
      decode: (v) => v as { to: string; amount: number; rounds?: number },
    },
    (input, call) => {
      const round =
        call.continuation === undefined ? 0 : (JSON.parse(call.continuation.state) as { round: number }).round;
      if (round < (input.rounds ?? 1)) {
        return InputRequest.create({
          prompt: JSON.stringify(`Pay ${input.amount} to ${input.to}? (question ${round + 1})`),
          responseSchema: { type: 'boolean' },
          continuationState: JSON.stringify({ round: round + 1 }),
        });
      }
      paid.push(`${input.amount} to ${input.to}`);
      return `PAID ${input.amount} to ${input.to}`;
    },
  );
}

export { Registry };
