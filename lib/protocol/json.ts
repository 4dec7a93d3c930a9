/**
 * I-JSON (RFC 7493) admission: the one check every JSON text crossing the boundary passes.
 *
 * STUB (interface fixed, implementation naive): to be replaced by the real non-recursive scanner.
 */
import type { AdmissionIssue } from './errors';

/** Upper bound, in UTF-8 bytes, of tool arguments and every other admitted JSON text. Ports MaxInputBytes. */
export const MAX_INPUT_BYTES = 1_048_576;

/** Deepest nesting of arrays and objects admitted (10,000); one more level is refused. */
export const MAX_DEPTH = 10_000;

/** A JSON value as admitted. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object as admitted. */
export interface JsonObject {
  [member: string]: JsonValue;
}

/** The outcome of admitting one JSON text: its value, or the first violation found. */
export type JsonAdmission =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly issue: AdmissionIssue };

/** Options of admitJson. */
export interface AdmitJsonOptions {
  /** Refuse texts longer than this many UTF-8 bytes (issue `too_large`). Default: MAX_INPUT_BYTES. */
  maxBytes?: number;
}

/**
 * Admits one JSON text under RFC 7493 and DESIGN.md section 3: exactly one value, strict grammar,
 * no lone surrogates, unique member names after unescaping, numbers finite as doubles and integer
 * literals within +/-(2^53 - 1), nesting at most MAX_DEPTH. Never throws; stops at the first violation.
 */
export function admitJson(text: string, options: AdmitJsonOptions = {}): JsonAdmission {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  if (utf8Length(text) > maxBytes) {
    return { ok: false, issue: { code: 'too_large', path: [], message: `exceeds ${maxBytes} bytes` } };
  }
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (e) {
    return { ok: false, issue: { code: 'invalid_json', path: [], message: String((e as Error).message) } };
  }
}

/** UTF-8 length of `text` in bytes (a lone surrogate counts as 3, as U+FFFD would). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Reports whether `text` holds an unpaired UTF-16 surrogate code unit. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/**
 * Reports whether `text` is empty or only whitespace in Go's `unicode.IsSpace` sense
 * (U+0085 and U+00A0 count, U+FEFF does not). Blank arguments are normalized to `{}`.
 */
export function isBlank(text: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(text);
}

/** RFC 8785 canonical JSON of a JSON value (sorted members, shortest escapes), for hashing and comparison. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
