/**
 * Issue 14 rows 1 and 2 through the decorators and the container, end to end with the MCP SDK
 * Client: `@Tool({ title, annotations, output })` reach the Definition and `tools/list`; the
 * manifest's output schema is checked on every call; bad options are named errors.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { IsInt, IsString } from 'class-validator';
import { createRegistry } from '../../lib/container';
import { Tool, Toolset } from '../../lib/decorators';
import { createMcpServer } from '../../lib/mcp';
import { hasErrorCode, type JsonObject, type ToolError } from '../../lib/protocol';
import { entry, manifest } from './fixtures';

class NoteInput {
  @IsString() text!: string;
}

class NoteResult {
  @IsString() id!: string;
  @IsInt() words!: number;
}

const inputSchema: JsonObject = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
};
const outputSchema: JsonObject = {
  type: 'object',
  properties: { id: { type: 'string' }, words: { type: 'integer' } },
  required: ['id', 'words'],
  additionalProperties: false,
};

@Toolset()
class NotesTools {
  @Tool({
    name: 'count_words',
    input: NoteInput,
    output: NoteResult,
    title: 'Count words',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  count(input: NoteInput): NoteResult {
    return { id: input.text, words: input.text === 'lie' ? ('many' as never) : input.text.split(' ').length };
  }
}

function withOutput(output = 'NoteResult') {
  const tool = entry('count_words', 'NotesTools', 'count', 'NoteInput', inputSchema);
  return manifest({
    ...tool,
    definition: { ...tool.definition, output_schema: outputSchema },
    source: { ...tool.source, output },
  });
}

describe('@Tool({ title, annotations, output }) in the container', () => {
  it('puts title, annotations and the manifest output schema into the Definition', () => {
    const registry = createRegistry({ manifest: withOutput(), toolsets: [NotesTools] });
    expect(registry.resolve('count_words')!.contract.definition()).toMatchObject({
      title: 'Count words',
      annotations: { readOnlyHint: true, openWorldHint: false },
      outputSchema,
    });
  });

  it('refuses a manifest whose source.output names another class: stale', () => {
    expect(() => createRegistry({ manifest: withOutput('OtherResult'), toolsets: [NotesTools] })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_TOOL' }),
    );
  });

  it('lists them over MCP and checks every result against the output schema', async () => {
    const registry = createRegistry({ manifest: withOutput(), toolsets: [NotesTools] });
    const errors: unknown[] = [];
    const server = createMcpServer(registry, { onError: (e) => errors.push(e) });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    try {
      const [listed] = (await client.listTools()).tools;
      expect(listed).toMatchObject({
        name: 'count_words',
        title: 'Count words',
        annotations: { readOnlyHint: true, openWorldHint: false },
        outputSchema,
      });
      const good = await client.callTool({ name: 'count_words', arguments: { text: 'two words' } });
      expect(good.structuredContent).toEqual({ id: 'two words', words: 2 });
      const bad = await client.callTool({ name: 'count_words', arguments: { text: 'lie' } });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toBeUndefined();
      expect(hasErrorCode(errors[0], 'ERR_OUTPUT_MISMATCH')).toBe(true);
      expect((errors[0] as ToolError).issues.map((i) => i.path)).toEqual([['words']]);
    } finally {
      await client.close();
    }
  });
});

describe('@Tool() refuses bad title, annotations and output when decorating', () => {
  const decorate = (options: object) => () => {
    class T {
      @Tool(options as never)
      m(): string {
        return '';
      }
    }
    return T;
  };

  it.each([
    ['an unknown hint', { annotations: { readOnly: true } }],
    ['a hint that is not a boolean', { annotations: { readOnlyHint: 'yes' } }],
    ['annotations that are not an object', { annotations: 'read-only' }],
    ['a title that is not text', { title: 1 }],
    ['an output that is not a class', { output: 'NoteResult' }],
  ])('refuses %s with ERR_INVALID_TOOL', (_label, options) => {
    expect(decorate(options)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_TOOL' }));
  });

  it('says which decorator and which hint', () => {
    expect(decorate({ annotations: { readOnly: true } })).toThrow(
      '@Tool() on T.m: annotations: unknown member "readOnly"; expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint',
    );
  });
});
