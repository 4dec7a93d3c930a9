/**
 * The MCP specification's example payloads (samples/fixtures/mcp, schema 2026-07-28) parse and
 * round-trip through scope-tool/mcp's projections: CallToolResult ↔ Output, ListToolsResult and
 * Tool ↔ Definition (input schemas in 2020-12 and draft-07), tools/call params → Request.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ListToolsResultSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createMcpServer,
  definitionOfMcpTool,
  mcpRequest,
  mcpTool,
  mcpToolResult,
  outputOfMcpToolResult,
} from '../../lib/mcp';
import { FuncTool, Registry } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import { prepareToolCall } from '../../lib/providers';
import { testRegistry } from './support/registry';

const DIR = path.join(__dirname, '..', '..', 'samples', 'fixtures', 'mcp');

function examples(type: string): [string, Record<string, unknown>][] {
  return fs
    .readdirSync(path.join(DIR, type))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(fs.readFileSync(path.join(DIR, type, f), 'utf8')) as Record<string, unknown>]);
}

/** A 2026-07-28 result as SDK 1.32.2 (2025-11-25) sends it: no resultType; absent isError is false. */
function as20251125(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType, ...rest } = result;
  expect(resultType).toBe('complete');
  return { ...rest, isError: rest.isError ?? false };
}

/**
 * What mcpTool lists of an MCP Tool read by definitionOfMcpTool: everything but icons, execution,
 * _meta and a title inside annotations; an output schema only when it is an object schema (SDK 1.32).
 */
function listable(tool: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...tool };
  for (const dropped of ['icons', 'execution', '_meta', 'annotations', 'outputSchema']) delete rest[dropped];
  const { annotations, outputSchema } = tool;
  const hints = { ...(annotations as Record<string, unknown> | undefined) };
  delete hints.title;
  return {
    ...rest,
    ...((outputSchema as { type?: unknown } | undefined)?.type === 'object' ? { outputSchema } : {}),
    ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
  };
}

const results = [
  ...examples('CallToolResult'),
  ...examples('CallToolResultResponse').map(([f, r]) => [f, r.result] as [string, Record<string, unknown>]),
];

describe('MCP example payloads through scope-tool/mcp', () => {
  it('finds every example folder copied with its provenance', () => {
    const folders = fs.readdirSync(DIR).filter((f) => fs.statSync(path.join(DIR, f)).isDirectory());
    expect(folders.length).toBeGreaterThanOrEqual(12);
    for (const folder of folders) {
      for (const [file] of examples(folder)) {
        expect(fs.existsSync(path.join(DIR, folder, file.replace(/\.json$/, '.source.txt')))).toBe(true);
      }
    }
  });

  it.each(results.filter(([, r]) => !Array.isArray(r.structuredContent)))(
    'round-trips CallToolResult %s',
    (_file, result) => {
      const { output, isError } = outputOfMcpToolResult(result);
      const back = mcpToolResult(output, isError);
      expect(back).toEqual(as20251125(result));
      expect(CallToolResultSchema.safeParse(back).success).toBe(true);
    },
  );

  it('reads an array structuredContent (2026-07-28) as details, and sends it as text where 2025-11-25 needs an object', () => {
    const [[, result]] = results.filter(([, r]) => Array.isArray(r.structuredContent));
    const { output, isError } = outputOfMcpToolResult(result);
    expect(JSON.parse(output.details as string)).toEqual(result.structuredContent);
    const back = mcpToolResult(output, isError);
    expect(back.structuredContent).toBeUndefined();
    expect(back.content).toEqual([...(result.content as unknown[]), { type: 'text', text: output.details }]);
    expect(CallToolResultSchema.safeParse(back).success).toBe(true);
  });

  it('keeps an error result an error: invalid-tool-input-error.json', () => {
    const [[, result]] = results.filter(([f]) => f === 'invalid-tool-input-error.json');
    const { output, isError } = outputOfMcpToolResult(result);
    expect(isError).toBe(true);
    expect(output.asText()).toBe('Invalid departure date: must be in the future. Current date is 08/08/2025.');
  });

  it.each([
    ...examples('ListToolsResult'),
    ...examples('ListToolsResultResponse').map(([f, r]) => [f, r.result] as [string, Record<string, unknown>]),
  ])('round-trips the tools of ListToolsResult %s (all but icons, execution, _meta)', (_file, result) => {
    expect(ListToolsResultSchema.safeParse(result).success).toBe(true);
    for (const tool of result.tools as Record<string, unknown>[]) {
      const projected = mcpTool(definitionOfMcpTool(tool));
      expect(projected).toEqual(listable(tool));
      expect(ToolSchema.safeParse(projected).success).toBe(true);
    }
  });

  const admits: Record<string, [JsonValue, JsonValue]> = {
    'with-default-2020-12-input-schema.json': [
      { a: 1, b: 2 },
      { a: 'one', b: 2 },
    ],
    'with-explicit-draft-07-input-schema.json': [{ a: 1, b: 2 }, { a: 1 }],
    'tool-with-composition-input-schema.json': [{ id: 'r-1' }, {}],
    'with-no-parameters.json': [{}, { extra: true }],
    'with-output-schema-for-structured-content.json': [{ location: 'Paris' }, { location: 7 }],
    'tool-with-array-output-schema.json': [{}, []],
  };

  it.each(examples('Tool'))(
    'binds Tool %s as a Definition whose input schema admits and refuses as authored',
    (file, tool) => {
      const definition = definitionOfMcpTool(tool);
      expect(definition.inputSchema).toEqual(tool.inputSchema);
      const fn = FuncTool.create({ ...definition, decode: (v) => v }, () => 'ok');
      const registry = new Registry(fn);
      const [good, bad] = admits[file];
      const call = (args: JsonValue) =>
        prepareToolCall(registry, { id: '1', request: { name: definition.name, arguments: JSON.stringify(args) } });
      expect(call(good).invocation.arguments).toBe(JSON.stringify(good));
      expect(() => call(bad)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }));
      expect(mcpTool(definition)).toEqual(listable(tool));
    },
  );

  it('reads the tools of a sampling request (CreateMessageRequestParams) as Definitions', () => {
    const [[, params]] = examples('CreateMessageRequestParams');
    const definitions = (params.tools as unknown[]).map(definitionOfMcpTool);
    expect(definitions.map((d) => d.name)).toEqual(['get_weather']);
  });

  it('turns tools/call params and tool_use input into Requests, serialized once', () => {
    const calls = [
      ...examples('CallToolRequestParams').map(([, p]) => p),
      ...examples('CallToolRequest').map(([, r]) => r.params as Record<string, unknown>),
      ...examples('ToolUseContent').map(([, c]) => ({ name: c.name, arguments: c.input })),
    ];
    for (const params of calls) {
      const request = mcpRequest(params.name as string, params.arguments);
      expect(request).toEqual({ name: params.name, arguments: JSON.stringify(params.arguments) });
    }
  });

  it('reads the content of a sampling tool_result (ToolResultContent) as an Output', () => {
    const [[, block]] = examples('ToolResultContent');
    expect(outputOfMcpToolResult(block).output.asText()).toBe('Weather in Paris: 18°C, partly cloudy');
  });

  it('serves the example get_weather call and answers an unknown tool with the example error code', async () => {
    const server = createMcpServer(testRegistry());
    const client = new Client({ name: 'fixtures', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    try {
      const [[, request]] = examples('CallToolRequest');
      const params = request.params as { name: string; arguments: Record<string, unknown> };
      const result = await client.callTool({ name: params.name, arguments: params.arguments });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Weather in New York: 18 degrees, cloudy' }],
        isError: false,
      });
      const unknown = examples('InvalidParamsError').find(([f]) => f === 'unknown-tool.json')?.[1] as {
        code: number;
        message: string;
      };
      const error = await client.callTool({ name: 'invalid_tool_name', arguments: {} }).catch((e: unknown) => e);
      expect((error as { code: number }).code).toBe(unknown.code);
      expect((error as Error).message).toContain('unknown tool "invalid_tool_name"');
    } finally {
      await client.close();
    }
  });
});
