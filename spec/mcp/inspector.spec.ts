/**
 * @modelcontextprotocol/inspector-cli 1.0.3 (`mcp-inspector-cli --cli`) against the samples' stdio
 * server: tools/list and tools/call, asserting on the JSON it prints.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, SERVE_MCP_COMMAND } from './support/serve-mcp-command';

const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');

/**
 * Runs the inspector in CLI mode. Its cwd is spec/: inspector-cli 1.0.3 checks `../package.json`
 * relative to the working directory (but imports it relative to its own file), so it needs a
 * parent folder holding a package.json.
 */
async function inspect(...method: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, '--cli', ...SERVE_MCP_COMMAND, ...method],
    {
      cwd: path.join(ROOT, 'spec'),
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout);
}

describe('mcp-inspector-cli --cli against samples/serve-mcp.ts', () => {
  it('lists the tools with their input schemas', async () => {
    const listed = (await inspect('--method', 'tools/list')) as {
      tools: { name: string; inputSchema: { type: string } }[];
    };
    expect(listed.tools.map((t) => t.name)).toEqual([
      'check_connection',
      'get_current_weather',
      'get_weather',
      'greet',
      'save_analysis_note',
      'write_note_file',
    ]);
    expect(listed.tools.every((t) => t.inputSchema.type === 'object')).toBe(true);
  }, 60_000);

  it('calls a tool and prints its result', async () => {
    const result = await inspect('--method', 'tools/call', '--tool-name', 'greet', '--tool-arg', 'name=Ada');
    expect(result).toEqual({ content: [{ type: 'text', text: expect.stringContaining('Ada') }], isError: false });
  }, 60_000);

  it('prints an isError result for arguments the contract refuses', async () => {
    const result = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'get_current_weather',
      '--tool-arg',
      'location=Paris',
      'unit=kelvin',
    );
    // The sentence is describeInvalidArguments' (spec/providers); here: the tool, the member, the values.
    expect(result).toEqual({
      content: [{ type: 'text', text: expect.stringContaining('"get_current_weather": /unit: ') }],
      isError: true,
    });
    expect(JSON.stringify(result)).toContain('celsius');
  }, 60_000);
});
