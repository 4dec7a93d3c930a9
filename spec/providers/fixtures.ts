/** Reads the recorded provider fixtures of samples/fixtures (test helper, not a spec). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '..', '..', 'samples', 'fixtures');

/** The UTF-8 text of a fixture file. */
export function fixtureText(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

/** A JSON fixture, decoded and typed by the caller (the shapes are checked by the tests). */
export function fixtureJson<T>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}
