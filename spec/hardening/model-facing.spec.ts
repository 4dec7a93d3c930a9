/**
 * Nothing leaked: for every error path, the text a model sees (renderOutcome, openAIToolMessage,
 * anthropicToolResult) carries no diagnostic cause, CallError evidence, stack trace, abort reason
 * or secret from the caller's `context`; the developer still gets the full typed error.
 */
import {
  AuthorizationError,
  CallError,
  Failure,
  FuncTool,
  Guard,
  InputValidatorError,
  Output,
  Registry,
  ToolError,
  bind,
  findError,
} from '../../lib/protocol';
import type { CallOptions, JsonValue, Result, Tool } from '../../lib/protocol';
import { anthropicToolResult, openAIToolMessage, prepareToolCall, renderOutcome } from '../../lib/providers';
import type { ToolOutcome } from '../../lib/providers';
import { outcomeOf, rawTool } from './support';

const SECRET = 'sk-live-SECRET-4242';
const CONTEXT = Object.freeze({ apiKey: SECRET, tenant: `tenant-${SECRET}` });
const SCHEMA = {
  type: 'object',
  properties: { n: { type: 'integer', maximum: 5 } },
  required: ['n'],
  additionalProperties: false,
} as const;

/** A tool whose call does `behave`, with the secret context in reach. */
function tool(behave: (options?: CallOptions) => Promise<Result>): Tool {
  return rawTool('t', behave, SCHEMA as never);
}

const secretError = (): Error => new Error(`database refused ${SECRET}`);

/** Every error path, each as the outcome and signal a runtime would render. */
function paths(): [string, () => Promise<{ outcome: ToolOutcome; signal?: AbortSignal }>][] {
  const run = async (t: Tool, args = '{"n":1}', signal?: AbortSignal) => ({
    outcome: await outcomeOf(bind(t), args, { context: CONTEXT, signal }),
    signal,
  });
  return [
    [
      'a Failure (failed) whose diagnostic cause holds the secret',
      () =>
        run(
          tool(async (o) => {
            throw new Failure({
              kind: 'failed',
              cause: new Error(JSON.stringify(o?.context)),
              output: Output.text('could not save'),
            });
          }),
        ),
    ],
    [
      'a Failure (rejected) with an empty output',
      () =>
        run(
          tool(async () => {
            throw new Failure({ kind: 'rejected' });
          }),
        ),
    ],
    [
      'a CallError with secret cause and evidence',
      () =>
        run(
          tool(async () => {
            throw new CallError({ cause: secretError(), evidence: Output.text(SECRET) });
          }),
        ),
    ],
    [
      'a plain Error with the secret in message and stack',
      () =>
        run(
          tool(async () => {
            throw secretError();
          }),
        ),
    ],
    [
      'a thrown string holding the context',
      () =>
        run(
          tool(async (o) => {
            throw JSON.stringify(o?.context);
          }),
        ),
    ],
    [
      'a ToolError from the tool whose cause holds the secret',
      () =>
        run(
          tool(async () => {
            throw new ToolError('ERR_INVALID_OUTPUT', 'details', { cause: secretError() });
          }),
        ),
    ],
    ['an invalid Result holding the secret', () => run(tool(async () => ({ output: SECRET }) as unknown as Result))],
    [
      'a policy that throws the secret (AuthorizationError)',
      () =>
        run(
          new Guard({
            tool: tool(async () => ({ output: Output.empty })),
            authorizer: (_a, o) => {
              throw new Error(JSON.stringify(o.context));
            },
          }),
        ),
    ],
    [
      'a policy that aborts with a secret reason and throws (AggregateError)',
      () => {
        const c = new AbortController();
        return run(
          new Guard({
            tool: tool(async () => ({ output: Output.empty })),
            authorizer: () => {
              c.abort(secretError());
              throw secretError();
            },
          }),
          '{"n":1}',
          c.signal,
        );
      },
    ],
    [
      'an abort whose reason holds the secret',
      () => {
        const c = new AbortController();
        c.abort(secretError());
        return run(
          new Guard({ tool: tool(async () => ({ output: Output.empty })), authorizer: () => true }),
          '{"n":1}',
          c.signal,
        );
      },
    ],
    [
      'an input validator that throws the secret (InputValidatorError)',
      () =>
        run({
          ...tool(async () => ({ output: Output.empty })),
          inputValidator: () => () => {
            throw secretError();
          },
        } as Tool),
    ],
    [
      'a FuncTool whose decoder throws the secret at call time (a retry of the invocation)',
      () => {
        let calls = 0;
        const decode = (v: JsonValue): JsonValue => {
          if (++calls > 1) throw secretError();
          return v;
        };
        const inner = FuncTool.create({ name: 't', inputSchema: SCHEMA as never, decode }, () => 'x');
        // The first call runs the input decoded at prepare; the retry decodes again, and that throws.
        const retrying: Tool & { unwrap(): Tool } = {
          definition: () => inner.definition(),
          call: async (invocation, options) => {
            await inner.call(invocation, options);
            return inner.call(invocation, options);
          },
          unwrap: () => inner,
        };
        return run(retrying);
      },
    ],
    [
      'a FuncTool whose result cannot be encoded',
      () =>
        run(
          FuncTool.create({ name: 't', inputSchema: SCHEMA as never, decode: (v) => v }, () => ({
            key: SECRET,
            big: 1n,
          })),
        ),
    ],
    [
      'a schema refusal',
      () =>
        run(
          tool(async () => ({ output: Output.empty })),
          '{"n":99}',
        ),
    ],
    [
      'invalid JSON arguments',
      () =>
        run(
          tool(async () => ({ output: Output.empty })),
          '{"n":',
        ),
    ],
    [
      'an unknown tool (prepareToolCall)',
      async () => {
        try {
          prepareToolCall(new Registry(tool(async () => ({ output: Output.empty }))), {
            id: 'c',
            request: { name: 'nope', arguments: '{}' },
          });
        } catch (error) {
          return { outcome: { error } };
        }
        throw new Error('admitted');
      },
    ],
    [
      'a stream cut off mid-arguments',
      async () => {
        try {
          prepareToolCall(new Registry(tool(async () => ({ output: Output.empty }))), {
            id: 'c',
            request: { name: 't', arguments: '{"n":' },
            complete: false,
          });
        } catch (error) {
          return { outcome: { error } };
        }
        throw new Error('admitted');
      },
    ],
  ];
}

const STACK_FRAME = /\n\s+at |\.ts:\d+|node_modules/;

describe('model-facing text on every error path', () => {
  it.each(paths())('carries no secret, cause, evidence or stack: %s', async (_label, make) => {
    const { outcome, signal } = await make();
    expect('error' in outcome).toBe(true);
    const call = { id: 'call_1', request: { name: 't', arguments: '{}' } };
    const texts = [
      JSON.stringify(renderOutcome('t', outcome, { signal }).output),
      JSON.stringify(openAIToolMessage(call, outcome, { signal })),
      JSON.stringify(anthropicToolResult(call, outcome, { signal })),
    ];
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(STACK_FRAME);
      expect(text.length).toBeLessThan(600);
    }
  });

  it('keeps the full typed error for the developer (diagnosticCause, cause, thrown value)', async () => {
    const [failure, , callError, , , , , policy, , , validator] = await Promise.all(paths().map(([, make]) => make()));
    const err = (o: { outcome: ToolOutcome }): unknown => ('error' in o.outcome ? o.outcome.error : undefined);
    expect(String((err(failure) as Failure).diagnosticCause)).toContain(SECRET);
    expect((err(callError) as CallError).evidence.asText()).toBe(SECRET);
    expect(String((err(policy) as AuthorizationError).diagnosticCause)).toContain(SECRET);
    expect(String(findError(err(validator), InputValidatorError)?.thrown)).toContain(SECRET);
  });

  it('tells the model which member, at which path, broke which rule, in one short line', async () => {
    const outcome = await outcomeOf(bind(tool(async () => ({ output: Output.empty }))), '{"n":99}');
    const text = renderOutcome('t', outcome).output.asText() as string;
    expect(text).toMatch(/^error: invalid arguments for tool "t": \/n: .*5.*; fix the arguments and call again$/);
    expect(text.split('\n')).toHaveLength(1);
  });
});
