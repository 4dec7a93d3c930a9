/**
 * CallOptions.idempotencyKey through the decorator layer: a `@Tool()` method reads it on its
 * ToolCall (lib/decorators/tool-call.ts), through the Guards of its policies, with and without a
 * deadline.
 */
import 'reflect-metadata';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import { createRegistry } from '../../lib/container';
import type { Binding } from '../../lib/protocol';
import { entry, manifest } from './fixtures';

const seen: ToolCall[] = [];

@Toolset()
@Authorize(() => true)
class PaymentTools {
  @Tool({ name: 'pay' })
  pay(_input: unknown, call: ToolCall): string {
    seen.push(call);
    return 'paid';
  }

  @Tool({ name: 'pay_unbounded', timeoutMs: Infinity })
  payUnbounded(_input: unknown, call: ToolCall): string {
    seen.push(call);
    return 'paid';
  }
}
// The methods take no DTO: what tsc emits for a method whose first parameter is `unknown` is Object,
// which the container refuses, so declare no parameters to the container.
Reflect.defineMetadata('design:paramtypes', [], PaymentTools.prototype, 'pay');
Reflect.defineMetadata('design:paramtypes', [], PaymentTools.prototype, 'payUnbounded');

const MANIFEST = manifest(
  entry('pay', 'PaymentTools', 'pay', null),
  entry('pay_unbounded', 'PaymentTools', 'payUnbounded', null),
);

function binding(name: string): Binding {
  const found = createRegistry({ manifest: MANIFEST, toolsets: [new PaymentTools()] }).resolve(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe('idempotencyKey on the ToolCall of a @Tool() method', () => {
  beforeEach(() => {
    seen.length = 0;
  });

  it('is the key of the call options, under a deadline', async () => {
    const b = binding('pay');
    await b.call(b.contract.prepare({ name: 'pay', arguments: '{}' }), { idempotencyKey: 'k-1', context: 'c' });
    expect(seen).toHaveLength(1);
    expect(seen[0].idempotencyKey).toBe('k-1');
    expect(seen[0].context).toBe('c');
  });

  it('is the key of the call options without a deadline', async () => {
    const b = binding('pay_unbounded');
    await b.call(b.contract.prepare({ name: 'pay_unbounded', arguments: '{}' }), { idempotencyKey: 'k-2' });
    expect(seen[0].idempotencyKey).toBe('k-2');
  });

  it('is undefined when the caller names none', async () => {
    const b = binding('pay');
    await b.call(b.contract.prepare({ name: 'pay', arguments: '{}' }));
    expect(seen[0].idempotencyKey).toBeUndefined();
  });
});
