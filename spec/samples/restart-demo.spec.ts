import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { SCRIPTED_ANSWER, runRestartDemo } from '../../samples/runtime-demo';

const ROOT = path.join(__dirname, '..', '..');
const CHILD = path.join(__dirname, 'restart-child.ts');

/** The store files the demo handed its child process. */
const storeFiles: string[] = [];

/** The suspending process, as npm start runs it: another Node.js process, here from the sources. */
async function suspendInChild(file: string): Promise<string[]> {
  storeFiles.push(file);
  const args = ['-r', path.join(ROOT, 'spec', 'support', 'register.js'), CHILD, file];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT });
  return stdout.split('\n').filter((line) => line !== '');
}

/** The demo's lines as `label: value` steps (the first `: ` splits them). */
function steps(lines: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines.map((l) => l.trim())) {
    const at = line.indexOf(': ');
    if (at > 0) map.set(line.slice(0, at), line.slice(at + 2));
  }
  return map;
}

describe('npm start: a suspension survives a restart', () => {
  let lines: string[];
  let kind: string;
  // The demo's temporary folder goes under a folder of this spec's own, so that another test run on
  // the machine cannot make it look left behind.
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-restart-spec-'));
    lines = [];
    kind = await runRestartDemo({
      fixturesDir: path.join(ROOT, 'samples', 'fixtures'),
      manifestPath: path.join(ROOT, 'samples', 'tools.manifest.json'),
      write: (line) => lines.push(line),
      suspendInChild,
      tmpDir: tmp,
    });
  }, 60_000);

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('suspends in a child process that exits, and resumes in this one', () => {
    const step = steps(lines);
    expect(step.get('process 1')).not.toBe(step.get('process 2'));
    expect(step.get('process 1')).toMatch(/^pid \d+$/);
    expect(step.get('process 2')).toBe(`pid ${process.pid}`);
    expect(step.get('call')).toBe('save_analysis_note (id toolu_01XcUoZcU2fsiw59H5aEAyY6)');
    expect(step.get('runTurn')).toBe('suspended');
    expect(step.get('committed')).toMatch(/^record version 1,/);
    expect(step.has('exit')).toBe(true);
    expect(step.get('list')).toBe('save_analysis_note (id toolu_01XcUoZcU2fsiw59H5aEAyY6)');
  });

  it('resumes with the scripted answer and prints the Anthropic tool result', () => {
    const step = steps(lines);
    expect(kind).toBe('completed');
    expect(step.get('resume')).toBe('completed');
    expect(step.get('human (scripted)')).toBe(SCRIPTED_ANSWER);
    const message = JSON.parse(step.get('anthropic tool result') as string);
    expect(message).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01XcUoZcU2fsiw59H5aEAyY6', content: expect.any(String) }],
    });
    expect(message.content[0].content).toContain('note-1');
  });

  it('answers a repeated answer from the store without running the tool again', () => {
    expect(steps(lines).get('same answer again')).toBe('already-answered');
    expect(steps(lines).get('notes filed')).toBe('1');
  });

  it('removes its temporary folder', () => {
    expect(storeFiles.map((file) => path.dirname(path.dirname(file)))).toEqual([tmp]);
    expect(storeFiles.filter((file) => fs.existsSync(path.dirname(file)))).toEqual([]);
  });
});
