/**
 * Issue 14 row 3 over MCP, with the SDK's real Client over InMemoryTransport: with listing checks
 * (Authorizer.canList), `tools/list` shows a caller only the tools its policy permits, and a
 * `tools/call` of a hidden tool gets exactly the response of a tool the server does not hold.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../lib/mcp';
import type { McpCallInfo, McpServerOptions } from '../../lib/mcp';
import { FuncTool, Guard, Registry, callerAuthorizer } from '../../lib/protocol';
import type { CallOptions, Definition, JsonValue } from '../../lib/protocol';
import { startTelemetry } from '../tracing/support';

const func = (name: string, readOnlyHint: boolean) =>
  FuncTool.create(
    { name, inputSchema: { type: 'object' }, annotations: { readOnlyHint }, decode: (v: JsonValue) => v },
    (_args, options) => `ran for ${(options?.context as { role?: string } | undefined)?.role}`,
  );

/** Admins see and call everything; everyone else only the read-only tools. */
const roles = callerAuthorizer(
  (definition: Definition, options: CallOptions) =>
    (options.context as { role?: string } | undefined)?.role === 'admin' ||
    definition.annotations?.readOnlyHint === true,
);

const guarded = () =>
  new Registry(
    new Guard({ tool: func('read_note', true), authorizer: roles }),
    new Guard({ tool: func('delete_note', false), authorizer: roles }),
  );

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(registry: Registry, options: McpServerOptions): Promise<Client> {
  const server = createMcpServer(registry, options);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

const as = (role: string) => ({ context: () => ({ role }) });

describe('createMcpServer with listing checks', () => {
  it('lists only the tools the caller may see', async () => {
    const guest = await connect(guarded(), as('guest'));
    const admin = await connect(guarded(), as('admin'));
    expect((await guest.listTools()).tools.map((t) => t.name)).toEqual(['read_note']);
    expect((await admin.listTools()).tools.map((t) => t.name)).toEqual(['delete_note', 'read_note']);
  });

  it('refuses a call of a hidden tool exactly like a tool the server does not hold', async () => {
    const guest = await connect(guarded(), as('guest'));
    const hidden = await guest.callTool({ name: 'delete_note', arguments: {} }).catch((e: unknown) => e);
    const alone = await connect(new Registry(new Guard({ tool: func('read_note', true), authorizer: roles })), {});
    const absent = await alone.callTool({ name: 'delete_note', arguments: {} }).catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(McpError);
    expect((hidden as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((hidden as McpError).message).toBe((absent as McpError).message);
  });

  it('runs a visible tool with the context the listing was decided on', async () => {
    const guest = await connect(guarded(), as('guest'));
    const result = await guest.callTool({ name: 'read_note', arguments: {} });
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'ran for guest' }]);
  });

  it('runs the context factory for tools/list (toolName empty) and lists nothing when it throws', async () => {
    const infos: McpCallInfo[] = [];
    const errors: unknown[] = [];
    const failure = new Error('no identity');
    const client = await connect(guarded(), {
      context: (info) => {
        infos.push(info);
        throw failure;
      },
      onError: (e) => errors.push(e),
    });
    expect((await client.listTools()).tools).toEqual([]);
    expect(infos.map((i) => i.toolName)).toEqual(['']);
    expect(errors).toEqual([failure]);
  });

  it('refuses every call as an unknown tool while the context factory throws', async () => {
    // Regression: a failing factory served the call from the whole registry, so a hidden tool
    // answered "failed" where an absent one answers "unknown": its existence leaked.
    const errors: unknown[] = [];
    const failure = new Error('no identity');
    const client = await connect(guarded(), { context: () => Promise.reject(failure), onError: (e) => errors.push(e) });
    const absentServer = await connect(new Registry(), {});
    for (const name of ['delete_note', 'read_note']) {
      const refused = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
      const absent = await absentServer.callTool({ name, arguments: {} }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((refused as McpError).message).toBe((absent as McpError).message);
    }
    expect(errors).toEqual([failure, failure]);
  });

  it('traces the call of a hidden tool as an unknown one: no description in the span', async () => {
    // Regression (hostile review): the span's description came from the whole registry, so
    // telemetry told a hidden tool from an absent one.
    const telemetry = startTelemetry();
    try {
      const described = (name: string) =>
        FuncTool.create(
          {
            name,
            description: `about ${name}`,
            annotations: { readOnlyHint: name === 'read_note' },
            inputSchema: { type: 'object' },
            decode: (v: JsonValue) => v,
          },
          () => 'ok',
        );
      const registry = new Registry(
        new Guard({ tool: described('read_note'), authorizer: roles }),
        new Guard({ tool: described('delete_note'), authorizer: roles }),
      );
      const guest = await connect(registry, { ...as('guest'), tracing: { tracer: telemetry.tracer } });
      await guest.callTool({ name: 'delete_note', arguments: {} }).catch(() => undefined);
      await guest.callTool({ name: 'read_note', arguments: {} });
      const spans = telemetry.toolSpans();
      expect(spans.map((span) => span.attributes['gen_ai.tool.description'])).toEqual([undefined, 'about read_note']);
    } finally {
      await telemetry.stop();
    }
  });

  it('keeps the factory after admission and lists everything without listing checks', async () => {
    const infos: McpCallInfo[] = [];
    const open = new Registry(func('read_note', true), func('delete_note', false));
    const client = await connect(open, { context: (info) => void infos.push(info) });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['delete_note', 'read_note']);
    expect(infos).toEqual([]);
  });
});
