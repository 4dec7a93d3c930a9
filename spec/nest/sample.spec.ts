import * as path from 'node:path';
import { renamedLine } from '../../samples/assistant/recorded-names';
import { runNestSample } from '../../samples/nest/run';

const ROOT = path.join(__dirname, '..', '..');

describe('the NestJS sample replays the recorded provider calls through its ToolRegistry', () => {
  let lines: string[];
  let count: number;
  beforeAll(async () => {
    lines = [];
    count = await runNestSample({
      fixturesDir: path.join(ROOT, 'samples', 'fixtures'),
      manifestPath: path.join(ROOT, 'samples', 'tools.manifest.json'),
      write: (line) => lines.push(line),
    });
  });

  it('registers the main sample tools from the Nest providers and replays all eight calls, filing one note in the injected store', () => {
    expect(lines[0]).toBe(
      'scope-tool NestJS sample: the weather and notes assistant as a Nest application, caller alice with scopes weather:read, notes:write',
    );
    expect(lines[1]).toBe(renamedLine());
    expect(lines[2]).toBe(
      'tools: check_connection, get_current_weather, get_weather, greet, save_analysis_note, write_note_file',
    );
    expect(count).toBe(8);
    expect(lines[lines.length - 1]).toBe('replayed 8 recorded tool calls; the notes store now holds 1 note(s)');
  });

  it('asks the injected KnownCallerPolicy first, with the caller from CallOptions.context, then the toolset policies', () => {
    const start = lines.findIndex((l) => l.includes('▸ get_current_weather (id call_abc123)'));
    const block = lines.slice(start, start + 6).join('\n');
    expect(block).toContain(
      'authorization: KnownCallerPolicy: permit alice (research) for get_current_weather; requireScope(weather:read): permit for alice',
    );
    expect(block).toContain(
      'openai tool result: {"role":"tool","tool_call_id":"call_abc123","content":"{\\"location\\":\\"Boston, MA\\",\\"temperature\\":7,\\"unit\\":\\"celsius\\"}"}',
    );
  });

  it('suspends, resumes and completes the confirmation call through the Nest-provided NotesTools', () => {
    expect(lines).toContain('  outcome: completed: Filed the analysis as note-1.');
  });
});
