/**
 * Benchmark: admitJson vs JSON.parse on about 1 MiB of typical tool-argument JSON (objects of short
 * strings, numbers, nested arrays, a few escapes and non-ASCII). Not run by `npm test`.
 *
 * Run: npx ts-node --transpile-only bench/admission.ts   (or: npx tsx bench/admission.ts)
 */
import { admitJson, MAX_INPUT_BYTES, utf8Length } from '../lib/protocol/json';

function sample(): string {
  const items: unknown[] = [];
  let i = 0;
  let text = '';
  for (;;) {
    items.push({
      id: i,
      title: `Note number ${i} about caf\u00e9 \u2603 and "quotes"`,
      tags: ['alpha', 'beta', `t${i % 17}`],
      score: (i * 7.25) / 3,
      done: i % 2 === 0,
      owner: { name: 'Ada Lovelace', email: `ada${i}@example.com`, roles: ['admin', 'writer'] },
      body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.\nSed do eiusmod tempor.',
      parent: null,
    });
    i++;
    if (i % 64 === 0) {
      text = JSON.stringify({ items });
      if (utf8Length(text) > MAX_INPUT_BYTES - 4096) return text;
    }
  }
}

function time(label: string, fn: () => unknown, rounds: number): number {
  for (let r = 0; r < 20; r++) fn();
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 / rounds;
  console.log(`${label.padEnd(12)} ${ms.toFixed(3)} ms per call`);
  return ms;
}

const text = sample();
const ok = admitJson(text);
if (!ok.ok) throw new Error(`sample refused: ${ok.issue.message}`);
const rounds = 200;
console.log(`input: ${utf8Length(text)} UTF-8 bytes, ${text.length} UTF-16 code units`);
const parse = time('JSON.parse', () => JSON.parse(text), rounds);
const admit = time('admitJson', () => admitJson(text), rounds);
console.log(`throughput ratio admitJson / JSON.parse: ${(parse / admit).toFixed(2)} (goal >= 0.50)`);
