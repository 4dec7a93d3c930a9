import * as path from 'node:path';
import { runTranscript } from '../../samples/transcript';

const ROOT = path.join(__dirname, '..', '..');

async function transcript(): Promise<{ lines: string[]; count: number }> {
  const lines: string[] = [];
  const count = await runTranscript({
    fixturesDir: path.join(ROOT, 'samples', 'fixtures'),
    manifestPath: path.join(ROOT, 'samples', 'tools.manifest.json'),
    write: (line) => lines.push(line),
  });
  return { lines, count };
}

/** The lines of the block that starts at the first line containing `marker`, up to the next call. */
function block(lines: string[], marker: string): string {
  const start = lines.findIndex((l) => l.includes(marker));
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && (l.startsWith('▸') || l.startsWith('==') || l === ''));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

describe('the main sample replays every recorded provider tool call', () => {
  let lines: string[];
  let count: number;
  beforeAll(async () => {
    ({ lines, count } = await transcript());
  });

  it('replays all eight recorded calls and files one note', () => {
    expect(count).toBe(8);
    expect(lines[lines.length - 1]).toBe('replayed 8 recorded tool calls; the notes store now holds 1 note(s)');
  });

  it('runs the OpenAI call and answers with a tool message', () => {
    const text = block(lines, '▸ get_current_weather (id call_abc123)');
    expect(text).toContain('admitted: {\\n"location": "Boston, MA"\\n}');
    expect(text).toContain('authorization: requireScope(weather:read): permit for alice');
    expect(text).toContain(
      'openai tool result: {"role":"tool","tool_call_id":"call_abc123","content":"{\\"location\\":\\"Boston, MA\\",\\"temperature\\":7,\\"unit\\":\\"celsius\\"}"}',
    );
  });

  it('runs one call of the parallel pair and the policy refuses the other', () => {
    const first = block(lines, '▸ test_tool (id toolu_01L8GVQapA1HmggQcrwboukH)');
    const second = block(lines, '▸ test_tool (id toolu_01J5Fvzxu7DP1Uh59c1kr5JD)');
    expect(first).toContain('outcome: completed: ok: value=- count=1');
    expect(second).toContain('authorization: maxRepetitions(1): refuse count=2');
    expect(second).toContain('outcome: rejected: error: tool "test_tool" is not authorized');
    expect(second).toContain('"is_error":true');
  });

  it('refuses arguments with an undeclared member before any policy runs', () => {
    const text = block(lines, '▸ test_tool (id toolu_01BTPr2x4Nduos6gVrE19JZr)');
    expect(text).toContain('admission refused:');
    expect(text).not.toContain('authorization:');
    expect(text).toContain('"is_error":true');
    expect(text).toContain('input');
  });

  it('refuses the stream cut off mid-arguments and tells the model to resend', () => {
    const text = block(lines, '▸ make_file (id toolu_01EKqbqmZrGRXy18eN7m9kvY)');
    expect(text).toContain('stream: ended before the arguments were complete');
    expect(text).toContain('admission refused:');
    expect(text).not.toContain('authorization:');
    expect(text).toContain('"is_error":true');
  });

  it('suspends for confirmation, refuses an answer that fails its schema, and resumes with a valid one', () => {
    const text = block(lines, '▸ submit_analysis');
    expect(text).toContain('suspended: asks "File this 1214-character analysis as a note?"');
    expect(text).toContain(
      'answer {"approve":"yes"}: refused: tool: invalid input request: response: /approve: must be boolean',
    );
    expect(text).toContain('answer {"approve":true,"title":"Companion animals"}: accepted; resuming the call');
    expect(text).toContain('outcome: completed: Filed the analysis as note-1.');
    expect(text).toContain('"content":"Filed the analysis as note-1."');
  });

  it('never prints a stack trace into a tool result', () => {
    for (const line of lines.filter((l) => l.includes('tool result:'))) expect(line).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
