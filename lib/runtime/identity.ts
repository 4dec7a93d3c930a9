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

/** `sha256:` + hex over the arguments text (UTF-8), as SuspensionRecord.argumentsDigest. */
export function argumentsDigest(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** The most rounds one call may suspend (its first run, then each resume that suspends again). */
export const MAX_SUSPENSION_ROUNDS = 100;

/**
 * The store key of round `round` of a call: the provider call id for round 1, `<call id>#<round>`
 * for a resume that suspended again (round 2, 3, ...). The runtime finds the current round by
 * following the stored outcomes of kind `suspended` from round 1, so it never parses a key.
 */
export function roundKey(callId: string, round: number): string {
  return round === 1 ? callId : `${callId}#${round}`;
}
