/**
 * Call identity: the deterministic idempotency key of a call, the fingerprint of the contract a
 * call was admitted by, the digest of its arguments, and the store key of a call that suspends
 * again after a resume. All SHA-256 (FIPS 180-4), hex, over UTF-8 text.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../protocol';
import type { Definition } from '../protocol';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The idempotency key of the call `callId` of thread `threadId`: 64 lowercase hex digits, SHA-256
 * over `scope-tool/idempotency/v1` and the JSON array `[threadId, callId]` (so no two pairs share a
 * text). The same on the first run and on every resume of the call, on any instance; a tool reads
 * it as `call.idempotencyKey` (CallOptions.idempotencyKey).
 */
export function idempotencyKeyOf(threadId: string, callId: string): string {
  return sha256Hex(`scope-tool/idempotency/v1\n${JSON.stringify([threadId, callId])}`);
}

/**
 * The fingerprint of a contract: `sha256:` + hex over the RFC 8785 canonical JSON of the tool's
 * Definition (`{ name, description?, inputSchema }`, `canonicalJson` of lib/protocol/json.ts). Any
 * change of name, description or input schema changes it; the member order of the schema does not.
 */
export function contractFingerprint(definition: Definition): string {
  const value =
    definition.description === undefined
      ? { name: definition.name, inputSchema: definition.inputSchema }
      : { name: definition.name, description: definition.description, inputSchema: definition.inputSchema };
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

/**
 * `sha256:` + hex over the RFC 8785 canonical JSON (`canonicalJson`) of the arguments text, as
 * SuspensionRecord.argumentsDigest: equal JSON values have one digest whatever their whitespace and
 * member order. Over the text itself (UTF-8) when it is not JSON, or when it holds a number token of
 * more than 15 significant digits (which a JSON number parsed to a double may not keep apart; digits
 * inside a string do not count). A text compared as text that holds a lone surrogate is hashed as
 * a 0xFF byte and its UTF-16 code units, so two such texts never share a digest (UTF-8 would make
 * every lone surrogate U+FFFD), nor one with a well-formed text (no UTF-8 holds a 0xFF byte).
 */
export function argumentsDigest(text: string): string {
  const canonical = canonicalArguments(text);
  if (canonical === undefined && LONE_SURROGATE.test(text)) {
    const units = Buffer.concat([Buffer.from([0xff]), Buffer.from(text, 'utf16le')]);
    return `sha256:${createHash('sha256').update(units).digest('hex')}`;
  }
  return `sha256:${sha256Hex(canonical ?? text)}`;
}

/** `sha256:` + hex over the arguments text itself: the digest releases before 0.x stored. @internal */
export function textDigest(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// The tokens of JSON text: a string (skipped: its digits are text) or a number's mantissa digits.
const TOKEN = /"(?:[^"\\]|\\.)*"|(\d+)(?:\.(\d+))?/g;

function canonicalArguments(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Valid JSON: every quote outside a string opens one, so TOKEN meets numbers outside strings only.
  for (const [, whole, fraction] of text.matchAll(TOKEN)) {
    if (whole === undefined) continue;
    if ((whole + (fraction ?? '')).replace(/^0+/, '').replace(/0+$/, '').length > 15) return undefined;
  }
  return canonicalJson(parsed);
}

/**
 * The key under which the budgets count a call (CountOptions.callId): 64 hex digits, SHA-256 over
 * `scope-tool/count/v1` and the JSON array `[tool, callId]`, so a call id reused for another tool
 * counts again (docs/runtime.md, Budgets).
 */
export function countKeyOf(tool: string, callId: string): string {
  return sha256Hex(`scope-tool/count/v1\n${JSON.stringify([tool, callId])}`);
}

/** The most rounds one call may suspend (its first run, then each resume that suspends again). */
export const MAX_SUSPENSION_ROUNDS = 100;

// A key that ends in `#` and digits is a round key (roundOfKey); any other key is round 1 of itself.
const ROUND_SUFFIX = /#([0-9]+)$/;

/**
 * Whether `callId` has the form of a round key: it ends in `#` and digits. No provider call id may
 * (Runtime.runTurn refuses such a call, ERR_INVALID_CALL): so every provider call id is the key of
 * its own round 1, and a key `<id>#<n>` only ever names round n of call `<id>` (docs/runtime.md).
 */
export function hasRoundSuffix(callId: string): boolean {
  return ROUND_SUFFIX.test(callId);
}

/**
 * The store key of round `round` of a call: `<call id>#<round>` for a resume that suspended again
 * (round 2, 3, ...); for round 1 the provider call id itself. (`<call id>#1` for an id that itself
 * ends in `#` and digits: runTurn refuses such ids now, but records of earlier releases, which
 * took them, are keyed so.) No two (call id, round) pairs share a key. At most 4 bytes longer than
 * the call id.
 */
export function roundKey(callId: string, round: number): string {
  return round === 1 && !hasRoundSuffix(callId) ? callId : `${callId}#${round}`;
}

/**
 * The call id and round a store key encodes (the inverse of roundKey); undefined for a key that
 * roundKey never makes (`x#02`, `x#1` for an `x` not ending in digits, ...).
 */
export function roundOfKey(key: string): { readonly callId: string; readonly round: number } | undefined {
  const match = ROUND_SUFFIX.exec(key);
  if (match === null) return { callId: key, round: 1 };
  const callId = key.slice(0, match.index);
  const round = Number(match[1]);
  if (callId === '' || String(round) !== match[1] || round < 1 || roundKey(callId, round) !== key) return undefined;
  return { callId, round };
}
