/** Reads the recorded provider fixtures of samples/fixtures (test helper, not a spec). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseServerSentJson } from '../../lib/providers';
import type { AssembledToolCall } from '../../lib/providers';

const DIR = join(__dirname, '..', '..', 'samples', 'fixtures');

/** The UTF-8 text of a fixture file. */
export function fixtureText(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

/** A JSON fixture, decoded and typed by the caller (the shapes are checked by the tests). */
export function fixtureJson<T>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** What every stream assembler offers: one decoded event at a time, the calls at any time. */
interface StreamAssembler {
  push(event: unknown): void;
  toolCalls(): AssembledToolCall[];
}

/** Feeds decoded events to `assembler` one by one, as a live stream would, and returns its calls. */
export function assembled(assembler: StreamAssembler, events: Iterable<unknown>): AssembledToolCall[] {
  for (const event of events) assembler.push(event);
  return assembler.toolCalls();
}

/** Feeds a recorded `text/event-stream` body (a `.sse` file) to `assembler` and returns its calls. */
export function assembledSse(assembler: StreamAssembler, sseText: string): AssembledToolCall[] {
  return assembled(assembler, parseServerSentJson(sseText));
}
