/**
 * Admission throughput: scope-tool's I-JSON admission (`admitJson`, RFC 7493: one value, UTF-8,
 * unique member names after unescaping, no lone surrogates, bounded depth and numbers) against
 * `JSON.parse` and `secure-json-parse`, on tool arguments of 1 KiB, 64 KiB and 1 MiB, in two shapes:
 * wide (an array of small records) and deep (records nested a few thousand levels).
 */
import sjson from 'secure-json-parse';
import { admitJson, MAX_INPUT_BYTES } from '../../lib/protocol';
import { workload } from '../workload';
import type { Workload } from '../workload';

/** A payload size: its label and its target in UTF-8 bytes (1 MiB stays within MAX_INPUT_BYTES). */
export interface PayloadSize {
  readonly label: string;
  readonly bytes: number;
}

/** The sizes of the issue. */
export const PAYLOAD_SIZES: readonly PayloadSize[] = [
  { label: '1KiB', bytes: 1024 },
  { label: '64KiB', bytes: 64 * 1024 },
  { label: '1MiB', bytes: MAX_INPUT_BYTES },
];

function record(i: number): object {
  return {
    id: i,
    title: `Note ${i} about caf\u00e9 \u2603 and "quotes"`,
    tags: ['alpha', 'beta', `t${i % 17}`],
    score: (i * 7.25) / 3,
    done: i % 2 === 0,
    owner: { name: 'Ada Lovelace', email: `ada${i}@example.com` },
    parent: null,
  };
}

/** A wide payload: `{"items":[record, ...]}` of at most `bytes` UTF-8 bytes, as close as records allow. */
export function widePayload(bytes: number): string {
  const parts: string[] = [];
  let size = '{"items":[]}'.length;
  for (let i = 0; ; i++) {
    const text = JSON.stringify(record(i));
    const add = Buffer.byteLength(text) + (i === 0 ? 0 : 1);
    if (size + add > bytes) break;
    parts.push(text);
    size += add;
  }
  return `{"items":[${parts.join(',')}]}`;
}

/** A deep payload: records nested through `child`, about 200 bytes per level (at most 4,000 levels), padded to `bytes`. */
export function deepPayload(bytes: number): string {
  const depth = Math.max(2, Math.min(4000, Math.floor(bytes / 200)));
  const open = (i: number): string => `{"level":${i},"name":"node ${i} \u00e9","tags":["a","b"],"ok":true,"child":`;
  let head = '';
  for (let i = 0; i < depth; i++) head += open(i);
  const tail = '}'.repeat(depth);
  const skeleton = `${head}{"note":""}${tail}`;
  const pad = Math.max(0, bytes - Buffer.byteLength(skeleton));
  return `${head}{"note":"${'x'.repeat(pad)}"}${tail}`;
}

/** The admission rows of every size and shape. */
export function admissionWorkloads(sizes: readonly PayloadSize[] = PAYLOAD_SIZES): Workload[] {
  const rows: Workload[] = [];
  for (const shape of ['wide', 'deep'] as const) {
    for (const size of sizes) {
      const text = shape === 'wide' ? widePayload(size.bytes) : deepPayload(size.bytes);
      const bytes = Buffer.byteLength(text);
      const group = `admission/${shape}-${size.label}`;
      rows.push(
        workload(group, 'JSON.parse', 'floor', () => JSON.parse(text), { bytes }),
        workload(group, 'secure-json-parse', 'peer', () => sjson.parse(text), { bytes }),
        workload(
          group,
          'scope-tool admitJson',
          'scope',
          () => {
            const admitted = admitJson(text);
            if (!admitted.ok)
              throw new Error(`bench: admission refused the ${group} payload: ${admitted.issue.message}`);
            return admitted.value;
          },
          { bytes },
        ),
      );
    }
  }
  return rows;
}
