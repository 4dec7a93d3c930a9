/**
 * A thrown value whose `cause` chain never ends: a Proxy answering every `cause` read with a new
 * Proxy, and an Error whose `cause` getter builds a fresh Error on each read. Every cause walk of
 * lib/ (classifyFailure, hasErrorCode, findError, isError, the renderers' cancellation check) goes
 * through one bounded walker (`walkCauses`, MAX_CAUSE_NODES), so each renderer answers
 * `error: tool "t" failed` and the MCP server keeps answering, where the process used to run out
 * of heap.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../lib/mcp';
import {
  AuthorizationError,
  Failure,
  FuncTool,
  Output,
  Registry,
  bind,
  classifyFailure,
  findError,
  hasErrorCode,
  isError,
} from '../../lib/protocol';
import { MAX_CAUSE_NODES } from '../../lib/protocol/errors';
import {
  anthropicToolResult,
  geminiFunctionResponse,
  openAIFunctionCallOutput,
  openAIToolMessage,
  renderOutcome,
} from '../../lib/providers';
import type { ProviderToolCall } from '../../lib/providers';

const FAILED = 'error: tool "t" failed';

/** Counts `cause` reads, so a test can tell the walk stopped at the bound. */
let causeReads = 0;

/** A Proxy whose `cause` is a new such Proxy, forever; every other read is undefined. */
function lazy(): object {
  return new Proxy({}, { get: (_t, k) => (k === 'cause' ? (causeReads++, lazy()) : undefined) });
}

/** A plain Error whose `cause` getter returns a fresh Error of its kind on every read. */
class FreshCause extends Error {
  override get cause(): unknown {
    causeReads++;
    return new FreshCause('again');
  }
}

const endless: [string, () => unknown][] = [
  ['a Proxy whose cause is always a new Proxy', lazy],
  ['an Error whose cause getter returns a fresh Error', () => new FreshCause('first')],
];

/** What a FuncTool that throws `value` rejects with (Binding.call passes it through unchanged). */
async function thrownByTool(value: () => unknown): Promise<unknown> {
  const tool = FuncTool.create({ name: 't', inputSchema: { type: 'object' }, decode: (v: unknown) => v }, () => {
    throw value();
  });
  const b = bind(tool);
  try {
    await b.call(b.contract.prepare({ name: 't', arguments: '{}' }));
  } catch (error) {
    return error;
  }
  throw new Error('the tool did not throw');
}

const call: ProviderToolCall = { id: 'c', request: { name: 't', arguments: '{}' } };

describe.each(endless)('%s thrown by a tool', (_label, make) => {
  beforeEach(() => {
    causeReads = 0;
  });

  it('classifyFailure follows at most MAX_CAUSE_NODES links and finds none', async () => {
    const error = await thrownByTool(make);
    causeReads = 0;
    expect(classifyFailure(error)).toBeUndefined();
    expect(causeReads).toBeLessThanOrEqual(MAX_CAUSE_NODES);
  });

  it('hasErrorCode, findError and isError end with no match', async () => {
    const error = await thrownByTool(make);
    expect(hasErrorCode(error, 'ERR_INVALID_OUTPUT')).toBe(false);
    expect(findError(error, AuthorizationError)).toBeUndefined();
    expect(isError(error, new Error('elsewhere'))).toBe(false);
  });

  it('renderOutcome: kind error, the generic text (also with an aborted signal)', async () => {
    const error = await thrownByTool(make);
    const rendered = renderOutcome('t', { error });
    expect([rendered.kind, rendered.isError, rendered.output.asText()]).toEqual(['error', true, FAILED]);
    const controller = new AbortController();
    controller.abort(new Error('not in the chain'));
    expect(renderOutcome('t', { error }, { signal: controller.signal }).output.asText()).toBe(FAILED);
  });

  it('openAIToolMessage, openAIFunctionCallOutput, anthropicToolResult, geminiFunctionResponse', async () => {
    const error = await thrownByTool(make);
    expect(openAIToolMessage(call, { error })).toEqual({ role: 'tool', tool_call_id: 'c', content: FAILED });
    expect(openAIFunctionCallOutput(call, { error })).toEqual({
      type: 'function_call_output',
      call_id: 'c',
      output: FAILED,
    });
    expect(anthropicToolResult(call, { error })).toEqual({
      type: 'tool_result',
      tool_use_id: 'c',
      content: FAILED,
      is_error: true,
    });
    expect(geminiFunctionResponse(call, { error })).toEqual({
      functionResponse: { id: 'c', name: 't', response: { error: FAILED } },
    });
  });
});

describe('the shared bound of cause walks', () => {
  /** `depth` plain Errors, each the cause of the one before, ending in `last`. */
  function chain(depth: number, last: unknown): Error {
    let node: unknown = last;
    for (let i = 0; i < depth; i++) node = new Error(`link ${i}`, { cause: node });
    return node as Error;
  }
  const failure = new Failure({ kind: 'rejected', output: Output.text('no') });

  it('a Failure that is the MAX_CAUSE_NODES-th node is found; one link further it is not', () => {
    expect(classifyFailure(chain(MAX_CAUSE_NODES - 1, failure))).toBe(failure);
    expect(classifyFailure(chain(MAX_CAUSE_NODES, failure))).toBeUndefined();
    expect(isError(chain(MAX_CAUSE_NODES - 1, failure), failure)).toBe(true);
    expect(isError(chain(MAX_CAUSE_NODES, failure), failure)).toBe(false);
  });

  it('a cause getter that throws mid-walk ends that branch: no match, no throw', () => {
    const boom = Object.defineProperty(new Error('boom'), 'cause', {
      get: () => {
        throw new Error('getter');
      },
    });
    const error = chain(3, boom);
    expect(classifyFailure(error)).toBeUndefined();
    expect(hasErrorCode(error, 'ERR_INVALID_OUTPUT')).toBe(false);
    expect(renderOutcome('t', { error }).output.asText()).toBe(FAILED);
  });

  it('an AggregateError whose errors claim 2^32 - 1 members reads at most MAX_CAUSE_NODES of them', () => {
    let reads = 0;
    const members = new Proxy([], {
      get: (target, k) =>
        k === 'length'
          ? 2 ** 32 - 1
          : typeof k === 'string' && /^\d+$/.test(k)
            ? (reads++, new Error(k))
            : Reflect.get(target, k),
    });
    const aggregate = Object.defineProperty(new AggregateError([]), 'errors', { value: members });
    expect(findError(aggregate, AuthorizationError)).toBeUndefined();
    expect(reads).toBeLessThan(MAX_CAUSE_NODES);
    expect(renderOutcome('t', { error: aggregate }).output.asText()).toBe(FAILED);
  });
});

describe('over MCP (createMcpServer, SDK Client, InMemoryTransport)', () => {
  it('a tool throwing an endless chain gets the generic failure; a sibling tool still answers', async () => {
    const throwing = FuncTool.create({ name: 't', inputSchema: { type: 'object' }, decode: (v: unknown) => v }, () => {
      throw lazy();
    });
    const sibling = FuncTool.create({ name: 'ok', inputSchema: { type: 'object' }, decode: (v: unknown) => v }, () =>
      Output.text('fine'),
    );
    const errors: unknown[] = [];
    const server = createMcpServer(new Registry(throwing, sibling), { onError: (e) => errors.push(e) });
    const client = new Client({ name: 'endless-cause-spec', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      expect(await client.callTool({ name: 't', arguments: {} })).toEqual({
        content: [{ type: 'text', text: FAILED }],
        isError: true,
      });
      expect(errors).toHaveLength(1);
      expect(await client.callTool({ name: 'ok', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'fine' }],
        isError: false,
      });
    } finally {
      await client.close();
    }
  });
});
