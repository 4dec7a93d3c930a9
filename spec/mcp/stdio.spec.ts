/**
 * samples/serve-mcp.ts (the samples' toolsets over stdio) spawned as a real process and driven by
 * the SDK's Client over StdioClientTransport. The process runs the TypeScript sources through
 * spec/support/register.js (swc; spec/mcp/support/resolve-package.js maps `scope-tool` to lib/), so
 * no build is needed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PROGRESS, inputNotGiven } from '../../lib/mcp/messages';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { ROOT, SERVE_MCP_COMMAND } from './support/serve-mcp-command';

describe('npm run serve:mcp (samples/serve-mcp.ts) over stdio, with the SDK Client', () => {
  const answers: ((signal: AbortSignal) => ElicitResult | Promise<ElicitResult>)[] = [];
  const client = new Client({ name: 'stdio-spec', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  let stderr = '';

  beforeAll(async () => {
    const [command, ...args] = SERVE_MCP_COMMAND;
    const transport = new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
      const answer = answers.shift();
      if (answer === undefined) throw new Error('the spec gave no answer');
      return answer(extra.signal);
    });
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => client.close());

  it("lists the samples' tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'check_connection',
      'get_current_weather',
      'get_weather',
      'greet',
      'save_analysis_note',
      'write_note_file',
    ]);
    expect(stderr).toContain('serving 6 tools over stdio');
  });

  it('runs a call through the Guard as the sample caller', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Paris' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Paris: 11 °C, light wind' }], isError: false });
  });

  it('refuses invalid arguments with an actionable isError result', async () => {
    const result = await client.callTool({
      name: 'get_current_weather',
      arguments: { location: 'Paris', unit: 'kelvin' },
    });
    // The sentence is describeInvalidArguments' (spec/providers); here: the tool, the member, the values.
    expect(result).toEqual({
      content: [{ type: 'text', text: expect.stringContaining('"get_current_weather": /unit: ') }],
      isError: true,
    });
    expect(JSON.stringify(result)).toContain('celsius');
  });

  it('answers a call the policy refuses with an isError result', async () => {
    const result = await client.callTool({ name: 'check_connection', arguments: { count: 2 } });
    expect(result).toEqual({ content: [{ type: 'text', text: notAuthorizedText('check_connection') }], isError: true });
  });

  it('asks the user by elicitation, reporting progress, and resumes save_analysis_note with the answer', async () => {
    const progress: Progress[] = [];
    let atElicitation: string[] = [];
    answers.push(
      () => (
        (atElicitation = progress.map((p) => p.message as string)),
        { action: 'accept', content: { approve: true, title: 'Companion animals' } }
      ),
    );
    const result = await client.callTool(
      { name: 'save_analysis_note', arguments: { summary: 'Cats and dogs.' } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p) },
    );
    expect(atElicitation).toEqual([PROGRESS.admitted, PROGRESS.waiting]);
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Filed the analysis as /) }]);
  });

  it('sends a declined elicitation back as a Failure', async () => {
    answers.push(() => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'save_analysis_note', arguments: { summary: 'Cats and dogs.' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: inputNotGiven('save_analysis_note', 'decline') }],
      isError: true,
    });
  });

  it('cancels the call, and its pending elicitation, on notifications/cancelled', async () => {
    let asked!: (signal: AbortSignal) => void;
    const elicitation = new Promise<AbortSignal>((resolve) => (asked = resolve));
    answers.push((signal) => (asked(signal), new Promise<ElicitResult>(() => undefined)));
    const controller = new AbortController();
    const call = client.callTool({ name: 'save_analysis_note', arguments: { summary: 'x' } }, CallToolResultSchema, {
      signal: controller.signal,
    });
    const signal = await elicitation;
    const cancelled = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    controller.abort('stop');
    await expect(call).rejects.toBeDefined();
    await cancelled;
    expect(signal.aborted).toBe(true);
  });
});
