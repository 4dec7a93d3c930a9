/** Test doubles shared by the protocol specs. */
import type { CallOptions, Definition, Invocation, Result, Tool } from '../../lib/protocol';
import { Output } from '../../lib/protocol';

/** A tool whose definition and behavior the test controls, counting calls. */
export class FakeTool implements Tool {
  definitionCalls = 0;
  calls: { invocation: Invocation; options?: CallOptions }[] = [];

  constructor(
    public def: Definition = { name: 'fake', inputSchema: { type: 'object' } },
    public run: (invocation: Invocation, options?: CallOptions) => Promise<Result> = async () => ({
      output: Output.text('ok'),
    }),
  ) {}

  definition(): Definition {
    this.definitionCalls++;
    return this.def;
  }

  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    this.calls.push({ invocation, options });
    return this.run(invocation, options);
  }
}

/** A tool that also declares an input validator, counting declarations. */
export class ValidatingTool extends FakeTool {
  declarations = 0;

  constructor(
    def: Definition,
    public validator: ((argumentsJson: string) => void) | undefined,
  ) {
    super(def);
  }

  inputValidator(): ((argumentsJson: string) => void) | undefined {
    this.declarations++;
    return this.validator;
  }
}

/** A plain wrapper around `inner` (a WrappingTool). */
export class Wrapper implements Tool {
  constructor(public inner: Tool) {}
  definition(): Definition {
    return this.inner.definition();
  }
  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    return this.inner.call(invocation, options);
  }
  unwrap(): Tool {
    return this.inner;
  }
}

/** Resolves to the rejection reason of `promise`, or fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the promise to reject');
}

/** The error `fn` throws, or fails the test if it returns. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}
