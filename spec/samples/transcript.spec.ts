import * as path from 'node:path';
import { notAuthorizedText } from '../../lib/protocol/messages';
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
function block(lines: string[], marker: string): string[] {
  const start = lines.findIndex((l) => l.includes(marker));
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && (l.startsWith('▸') || l.startsWith('==') || l === ''));
  return lines.slice(start, end === -1 ? undefined : end);
}

/** One replayed call of the transcript: its steps as `label: value` pairs, in order. */
interface Replayed {
  readonly steps: readonly (readonly [string, string])[];
  /** The value of the last step with this label. */
  readonly step: (label: string) => string | undefined;
  /** The provider tool result message, parsed. */
  readonly result: Record<string, unknown>;
}

function replayed(lines: string[], marker: string): Replayed {
  const steps = block(lines, marker)
    .slice(1)
    .map((line) => {
      const text = line.trim();
      const at = text.indexOf(': ');
      return [text.slice(0, at), text.slice(at + 2)] as const;
    });
  const step = (label: string) => steps.filter(([l]) => l === label).at(-1)?.[1];
  const result = steps.find(([label]) => label.endsWith(' tool result'));
  return { steps, step, result: JSON.parse(result?.[1] ?? 'null') as Record<string, unknown> };
}

const labels = (call: Replayed) => call.steps.map(([label]) => label);

describe('the main sample replays every recorded provider tool call', () => {
  let lines: string[];
  let count: number;
  beforeAll(async () => {
    ({ lines, count } = await transcript());
  });

  it('replays all eight recorded calls and files one note', () => {
    expect(count).toBe(8);
    expect(lines[lines.length - 1].startsWith(`replayed ${count} recorded tool calls;`)).toBe(true);
    expect(lines[lines.length - 1]).toContain('holds 1 note(s)');
  });

  // The one golden check of the transcript's layout (what README.md says `npm start` prints): the
  // other tests read the same lines as `label: value` steps.
  it('prints a call as its arguments, admission, authorization, outcome and tool result message', () => {
    expect(block(lines, '▸ get_current_weather (id call_abc123)')).toEqual([
      '▸ get_current_weather (id call_abc123)',
      '  arguments: {\\n"location": "Boston, MA"\\n}',
      '  admitted: {\\n"location": "Boston, MA"\\n}',
      '  authorization: requireScope(weather:read): permit for alice',
      '  outcome: completed: {"location":"Boston, MA","temperature":7,"unit":"celsius"}',
      '  openai tool result: {"role":"tool","tool_call_id":"call_abc123","content":"{\\"location\\":\\"Boston, MA\\",\\"temperature\\":7,\\"unit\\":\\"celsius\\"}"}',
    ]);
  });

  it('runs one call of the parallel pair and the policy refuses the other', () => {
    const first = replayed(lines, '▸ check_connection (id toolu_01L8GVQapA1HmggQcrwboukH)');
    const second = replayed(lines, '▸ check_connection (id toolu_01J5Fvzxu7DP1Uh59c1kr5JD)');
    expect(first.step('outcome')).toBe('completed: ok: value=- count=1');
    expect(first.result.is_error).toBeUndefined();
    expect(second.step('authorization')).toBe('maxRepetitions(1): refuse count=2');
    expect(second.step('outcome')).toBe(`rejected: ${notAuthorizedText('check_connection')}`);
    expect(second.result).toMatchObject({
      tool_use_id: 'toolu_01J5Fvzxu7DP1Uh59c1kr5JD',
      content: notAuthorizedText('check_connection'),
      is_error: true,
    });
  });

  it('refuses arguments with an undeclared member before any policy runs', () => {
    const call = replayed(lines, '▸ check_connection (id toolu_01BTPr2x4Nduos6gVrE19JZr)');
    expect(labels(call)).toEqual(['arguments', 'admission refused', 'outcome', 'anthropic tool result']);
    expect(call.step('admission refused')).toContain('"input"');
    expect(call.result).toMatchObject({ is_error: true, content: expect.stringContaining('"input"') });
  });

  it('refuses the stream cut off mid-arguments and tells the model to resend', () => {
    const call = replayed(lines, '▸ write_note_file (id toolu_01EKqbqmZrGRXy18eN7m9kvY)');
    expect(labels(call)).toEqual(['arguments', 'stream', 'admission refused', 'outcome', 'anthropic tool result']);
    expect(call.step('stream')).toContain('ended before the arguments');
    expect(call.result).toMatchObject({ is_error: true, content: expect.stringContaining('"write_note_file"') });
  });

  it('suspends for confirmation, refuses an answer that fails its schema, and resumes with a valid one', () => {
    const call = replayed(lines, '▸ save_analysis_note');
    expect(labels(call)).toEqual([
      'arguments',
      'admitted',
      'authorization',
      'suspended',
      'human (scripted)',
      'answer refused',
      'human (scripted)',
      'answer accepted',
      'authorization',
      'outcome',
      'anthropic tool result',
    ]);
    expect(call.steps.filter(([label]) => label === 'human (scripted)').map(([, value]) => value)).toEqual([
      '{"approve":"yes"}',
      '{"approve":true,"title":"Companion animals"}',
    ]);
    expect(call.step('suspended')).toContain('1214-character analysis');
    expect(call.step('answer refused')?.startsWith('tool: invalid input request: ')).toBe(true);
    expect(call.step('answer refused')).toContain('/approve: must be boolean');
    expect(call.step('answer accepted')).toBe('resuming the call');
    expect(call.result.content).toBe('Filed the analysis as note-1.');
    expect(call.step('outcome')).toBe(`completed: ${String(call.result.content)}`);
  });

  it('never prints a stack trace into a tool result', () => {
    for (const line of lines.filter((l) => l.includes('tool result:'))) expect(line).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
