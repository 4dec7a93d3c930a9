/**
 * Issue 14 rows 1 and 2 over MCP, with the SDK's real Client over InMemoryTransport: `tools/list`
 * carries title, annotations and outputSchema; a result carries the details as structuredContent
 * (the SDK Client validates them against the listed outputSchema itself); details that break the
 * output schema are the tool's failure, never sent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, definitionOfMcpTool, mcpTool } from '../../lib/mcp';
import { FuncTool, Registry, hasErrorCode, type JsonValue } from '../../lib/protocol';

const inputSchema = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};
const outputSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, words: { type: 'integer' } },
  required: ['id', 'words'],
  additionalProperties: false,
};

function registry(): Registry {
  const decode = (v: JsonValue) => v as { title: string };
  return new Registry(
    FuncTool.create(
      {
        name: 'create_note',
        title: 'Create a note',
        description: 'Creates a note and returns its id.',
        inputSchema,
        outputSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        decode,
      },
      ({ title }) => ({ id: `note-${title}`, words: title.split(' ').length }),
    ),
    FuncTool.create({ name: 'broken', inputSchema, outputSchema, decode }, ({ title }) => ({
      id: title,
      words: 'many',
      secret: 'never-sent',
    })),
  );
}

async function connect(): Promise<{ client: Client; errors: unknown[]; close: () => Promise<void> }> {
  const errors: unknown[] = [];
  const server = createMcpServer(registry(), { onError: (e) => errors.push(e) });
  const client = new Client({ name: 'spec', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, errors, close: async () => void (await client.close()) };
}

describe('MCP tools/list: title, annotations, outputSchema', () => {
  it('lists them as the definition holds them', async () => {
    const { client, close } = await connect();
    try {
      const { tools } = await client.listTools();
      const note = tools.find((t) => t.name === 'create_note')!;
      expect(note.title).toBe('Create a note');
      expect(note.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      expect(note.outputSchema).toEqual(outputSchema);
      // Read back into a Definition, nothing is lost.
      expect(definitionOfMcpTool(note)).toEqual(registry().resolve('create_note')!.contract.definition());
    } finally {
      await close();
    }
  });

  it('reads only the four hints of annotations, and refuses a mistyped one', () => {
    const read = definitionOfMcpTool({
      name: 'x',
      inputSchema: { type: 'object' },
      annotations: { title: 'X', readOnlyHint: true, vendorHint: 1 },
    });
    expect(read.annotations).toEqual({ readOnlyHint: true });
    expect(() =>
      definitionOfMcpTool({ name: 'x', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } }),
    ).toThrow(expect.objectContaining({ code: 'ERR_INVALID_DEFINITION' }));
  });

  it('leaves the members out of a definition that has none', () => {
    const tool = mcpTool({ name: 'plain', inputSchema: { type: 'object' } });
    expect(Object.keys(tool)).toEqual(['name', 'inputSchema']);
  });
});

describe('MCP tools/call: structuredContent under the output contract', () => {
  it('returns the details as structuredContent, which the SDK Client validates', async () => {
    const { client, close } = await connect();
    try {
      await client.listTools(); // the Client caches the output schemas it validates with
      const result = await client.callTool({ name: 'create_note', arguments: { title: 'two words' } });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toEqual({ id: 'note-two words', words: 2 });
      expect(result.content).toEqual([{ type: 'text', text: '{"id":"note-two words","words":2}' }]);
    } finally {
      await close();
    }
  });

  it('fails a call whose details break the schema, without sending them', async () => {
    const { client, errors, close } = await connect();
    try {
      await client.listTools();
      const result = await client.callTool({ name: 'broken', arguments: { title: 't' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain('never-sent');
      expect(result.content).toEqual([{ type: 'text', text: 'error: tool "broken" failed' }]);
      expect(errors).toHaveLength(1);
      expect(hasErrorCode(errors[0], 'ERR_OUTPUT_MISMATCH')).toBe(true);
    } finally {
      await close();
    }
  });
});
