/**
 * The runtime part of `npm start`: a suspension survives a restart. A child process runs the
 * recorded Anthropic call that asks the user first (ToolRunner.nock.json [6], `submit_analysis`, answered by
 * `save_analysis_note`: samples/assistant/recorded-names.ts)
 * through a Runtime on a SQLite file, and exits once the suspension is committed; this process
 * then opens the same file with a new Runtime, lists what waits, resumes the call with a scripted
 * answer, prints the Anthropic tool result message, and shows that a repeated answer does not run
 * the tool again. The file lives in a fresh folder of os.tmpdir() and is removed after.
 *
 * Each line is `label: value`, so spec/samples/restart-demo.spec.ts reads it by label.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from 'scope-tool';
import type { Registry } from 'scope-tool';
import { anthropicToolCalls } from 'scope-tool/anthropic';
import { Runtime, SqliteStore, toAnthropicMessage } from 'scope-tool/runtime';
import { DiagnosticsTools } from './assistant/diagnostics.tools';
import { NotesStore } from './assistant/notes-store';
import { NotesTools } from './assistant/notes.tools';
import { asAssistantCall } from './assistant/recorded-names';
import { WeatherTools } from './assistant/weather.tools';

/** The conversation and the caller of the demo (policies read the scopes from the context). */
const THREAD = 'restart-demo';
const ALICE = { user: 'alice', scopes: ['notes:write'] };
/** What the person answers; scripted, as the transcript's answers are. */
export const SCRIPTED_ANSWER = '{"approve":true,"title":"Companion animals"}';

/** Where the demo reads its inputs and writes its lines. */
export interface RestartDemoOptions {
  readonly fixturesDir: string;
  readonly manifestPath: string;
  readonly write: (line: string) => void;
  /**
   * Runs `suspendIntoFile(file, ...)` in another process and resolves the lines it printed once
   * it has exited (samples/main.ts runs itself with `--suspend-into <file>`).
   */
  readonly suspendInChild: (file: string) => Promise<string[]>;
  /** Where the demo makes its temporary folder (default: os.tmpdir()). */
  readonly tmpDir?: string;
}

function registryOf(manifestPath: string): { registry: Registry; notes: NotesStore } {
  const notes = new NotesStore();
  const registry = createRegistry({
    manifest: manifestPath,
    toolsets: [new WeatherTools(), new NotesTools(notes), new DiagnosticsTools()],
  });
  return { registry, notes };
}

/**
 * The child's part: runs the recorded call, which suspends; the record is committed to `file`
 * before runTurn resolves. Closes the store; the caller exits.
 */
export async function suspendIntoFile(
  file: string,
  options: Pick<RestartDemoOptions, 'fixturesDir' | 'manifestPath' | 'write'>,
): Promise<void> {
  const { write } = options;
  const recorded = JSON.parse(fs.readFileSync(path.join(options.fixturesDir, 'ToolRunner.nock.json'), 'utf8'));
  const calls = anthropicToolCalls(recorded[6].response).map(asAssistantCall);
  const store = await SqliteStore.open(file);
  try {
    const runtime = new Runtime({ registry: registryOf(options.manifestPath).registry, store });
    const [outcome] = await runtime.runTurn({ threadId: THREAD, principal: ALICE.user, context: ALICE, calls });
    write(`  process 1: pid ${process.pid}`);
    write(`  call: ${outcome.call.request.name} (id ${outcome.call.id})`);
    write(`  runTurn: ${outcome.kind}`);
    if (outcome.kind === 'suspended') {
      write(`  asks: ${outcome.inputRequest.prompt}`);
      write(
        `  committed: record version ${outcome.record.version}, expires ${new Date(outcome.record.expiresAt).toISOString()}`,
      );
    }
  } finally {
    await store.close();
  }
  write('  exit: process 1 ends; the call waits in the file');
}

/** Runs the whole demo; resolves the kind of the resumed outcome. */
export async function runRestartDemo(options: RestartDemoOptions): Promise<string> {
  const { write } = options;
  const folder = fs.mkdtempSync(path.join(options.tmpDir ?? os.tmpdir(), 'scope-tool-demo-'));
  const file = path.join(folder, 'suspensions.db');
  write('');
  write('== A suspension survives a restart (a SQLite file in the temp folder)');
  try {
    for (const line of await options.suspendInChild(file)) write(line);
    const { registry, notes } = registryOf(options.manifestPath);
    const store = await SqliteStore.open(file);
    try {
      const runtime = new Runtime({ registry, store });
      write(`  process 2: pid ${process.pid}`);
      const waiting = await runtime.list({ threadId: THREAD });
      write(`  list: ${waiting.map((r) => `${r.tool} (id ${r.callId})`).join(', ') || 'nothing waits'}`);
      if (waiting.length === 0) return 'missing';
      const callId = waiting[0].callId;
      write(`  human (scripted): ${SCRIPTED_ANSWER}`);
      const answer = { threadId: THREAD, callId, answer: SCRIPTED_ANSWER, principal: ALICE.user, context: ALICE };
      const outcome = await runtime.resume(answer);
      write(`  resume: ${outcome.kind}`);
      if (outcome.kind !== 'suspended') {
        write(`  anthropic tool result: ${JSON.stringify(toAnthropicMessage([outcome]))}`);
      }
      const again = await runtime.resume(answer);
      write(`  same answer again: ${again.kind}`);
      write(`  notes filed: ${notes.size}`);
      return outcome.kind;
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
