/**
 * Authenticated continuation state for runtimes that let a checkpoint leave the server (a client
 * holds it between turns, a queue persists it). The MCP server of this folder seals the
 * `requestState` of a call suspended under protocol revision 2026-07-28 with it
 * (lib/mcp/input-required.ts); its elicitation flow keeps the state in memory. Single use across
 * instances: pass a runtime SuspensionStore (lib/runtime/store.ts) as `useStore`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InputRequest, ToolError, canonicalJson } from '../protocol';
import { hasLoneSurrogate } from '../protocol/json';
import type { JsonObject, JsonValue } from '../protocol';

/** One HMAC key of a ContinuationSealer's ring. */
export interface ContinuationKey {
  /** The key id written into every token it seals: 1 to 64 characters of `A-Z a-z 0-9 _ -`. */
  readonly id: string;
  /**
   * The secret, at least 32 random bytes (for example `crypto.randomBytes(32)`); a secret of one
   * repeated byte (all zero, all 0xff, ...) is refused. Keep it out of source control.
   */
  readonly secret: Uint8Array;
}

/**
 * Where token ids are claimed, so a token opens once. Single use holds per store: every sealer
 * that holds the key must claim in the same store. The default, a MemoryContinuationUseStore of
 * each sealer, holds for that sealer only (two sealers with the same keys and their own default
 * stores each open a token once); sealers in one process or across processes that share keys
 * pass one shared store.
 *
 * Every runtime SuspensionStore of `scope-tool/runtime` (lib/runtime/store.ts: MemoryStore,
 * SqliteStore, PostgresStore) is a ContinuationUseStore as it is, through its
 * `claim(tokenId, expiresAt)`: sealers over one SQLite file or one PostgreSQL database, in one
 * process or many, open a token once, and a claim survives closing and reopening the store
 * (spec/mcp/shared-store.spec.ts). A store error (for example StoreError ERR_STORE_CLOSED or
 * ERR_STORE_DRIVER) fails the open with that error.
 */
export interface ContinuationUseStore {
  /**
   * Claims `tokenId` atomically: `true` the first time, anything else (`false`) when it was claimed
   * before. The store may forget an id once `expiresAt` (ms since the epoch; the sealer passes the
   * token's expiry rounded up to a whole ms) has passed: the sealer refuses an expired token before
   * it claims. A throw or rejection fails the open with that error.
   */
  claim(tokenId: string, expiresAt: number): boolean | Promise<boolean>;
}

/** Configuration of a ContinuationSealer. */
export interface ContinuationSealerConfig {
  /** The key ring: every key a token may have been sealed with (ids unique), at least one. */
  readonly keys: readonly ContinuationKey[];
  /** The id of the key `seal` uses; it must be in `keys`. Rotate by adding a key, then making it current. */
  readonly currentKeyId: string;
  /** How long a sealed state may be opened, in ms (default 900,000 = 15 minutes). */
  readonly ttlMs?: number;
  /** The clock, in ms since the epoch (default `Date.now`); tests pass their own. */
  readonly now?: () => number;
  /** Where opened tokens are claimed (default: a MemoryContinuationUseStore on `now`, one process). */
  readonly useStore?: ContinuationUseStore;
}

/** The call a suspended state belongs to, as the runtime knows it (SealBinding without the schema). */
export interface SealCall {
  /** The tool name of the suspended call. */
  readonly toolName: string;
  /** The admitted arguments JSON text of the suspended call (`Invocation.arguments`), exactly. */
  readonly arguments: string;
  /**
   * Who is calling, as the runtime authenticated them (for example the MCP `authInfo` client id or
   * subject); a token opens only for the same principal. Use `''` only where calls are anonymous.
   */
  readonly principal: string;
}

/**
 * What a sealed state is bound to: the call, the schema the answer is checked against and the
 * prompt the person is shown. Every string must be well-formed UTF-16 (no lone surrogate).
 */
export interface SealBinding extends SealCall {
  /** The `InputRequest.responseSchema`, compared by its canonicalJson text. */
  readonly responseSchema: JsonValue;
  /**
   * The `InputRequest.prompt` JSON text, compared by the canonicalJson of its value (so the compact
   * re-encoding of `InputRequest.parse` matches); sealRequest / openRequest pass it. A token sealed
   * without a prompt opens only without one, and one sealed with a prompt only with the same.
   */
  readonly prompt?: string;
}

/**
 * Why a ContinuationError was thrown. Token refusals: `malformed` (not `v2.<key id>.<payload>.<mac>`
 * in canonical base64url, RFC 4648 section 3.5), `unknown_key` (the key id is not in the ring),
 * `tampered` (MAC mismatch: forged, altered or sealed under another secret), `expired`, `wrong_tool`,
 * `wrong_arguments`, `wrong_schema`, `wrong_prompt`, `wrong_principal`, `replayed` (already opened
 * through this sealer's use store). Misuse: `weak_key` and `invalid_config` (constructor),
 * `invalid_binding` (seal or open arguments: not strings, a string with a lone surrogate, a schema
 * or prompt that is not JSON).
 */
export type ContinuationErrorReason =
  | 'malformed'
  | 'unknown_key'
  | 'tampered'
  | 'expired'
  | 'wrong_tool'
  | 'wrong_arguments'
  | 'wrong_schema'
  | 'wrong_prompt'
  | 'wrong_principal'
  | 'replayed'
  | 'weak_key'
  | 'invalid_config'
  | 'invalid_binding';

/**
 * A ToolError (code ERR_INVALID_INPUT_REQUEST) from a ContinuationSealer; branch on `reason`.
 * Messages never hold a secret, the sealed state or the principal.
 */
export class ContinuationError extends ToolError {
  /** Why: see ContinuationErrorReason. */
  readonly reason: ContinuationErrorReason;

  constructor(reason: ContinuationErrorReason, detail: string) {
    super('ERR_INVALID_INPUT_REQUEST', detail);
    this.name = 'ContinuationError';
    this.reason = reason;
  }
}

/**
 * The default ContinuationUseStore: a Map in this process. Claimed ids are kept until their expiry
 * passes (swept when the map has doubled since the last sweep), so memory stays bounded by the
 * tokens opened within one TTL.
 */
export class MemoryContinuationUseStore implements ContinuationUseStore {
  readonly #now: () => number;
  readonly #claimed = new Map<string, number>();
  #sweepAt = 64;

  /** @param options.now - the clock, ms since the epoch (default `Date.now`) */
  constructor(options: { readonly now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  claim(tokenId: string, expiresAt: number): boolean {
    if (this.#claimed.has(tokenId)) return false;
    if (this.#claimed.size >= this.#sweepAt) {
      const now = this.#now();
      for (const [id, expiry] of this.#claimed) if (expiry <= now) this.#claimed.delete(id);
      this.#sweepAt = Math.max(64, 2 * this.#claimed.size);
    }
    this.#claimed.set(tokenId, expiresAt);
    return true;
  }
}

// The prompt digest `q` joined the payload without a new version label (unreleased format): a token
// sealed before it lacks `q` and is refused as `malformed`, never opened unbound.
const VERSION = 'v2';
const DOMAIN = 'scope-tool/continuation-state/v2';
const DEFAULT_TTL_MS = 15 * 60 * 1000;
const MIN_SECRET_BYTES = 32;
const MAC_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The sealed payload: bound values are keyed digests (HMAC under the token's key), so none leaks. */
interface Payload {
  readonly t: string; // tool name
  readonly a: string; // digest of the arguments text
  readonly r: string; // digest of canonicalJson(response schema)
  readonly q: string; // digest of canonicalJson(prompt value), or of its absence
  readonly p: string; // digest of the principal
  readonly e: number; // expiry, ms since the epoch
  readonly n: string; // token id: 128 random bits
  readonly s: string; // the state
}
const PAYLOAD_MEMBERS = ['a', 'e', 'n', 'p', 'q', 'r', 's', 't'];

/**
 * Seals an `InputRequest.state` into a token a client may carry, and opens it again only for the
 * same call (tool name, arguments text, response schema, prompt, principal), once, before it expires.
 *
 * Token: `v2.<key id>.<payload>.<mac>`, each part base64url without padding (RFC 4648 section 5).
 * The payload is the JSON of the tool name, keyed digests of the arguments text, of the
 * canonicalJson of the response schema, of the canonicalJson of the prompt (or of its absence) and
 * of the principal, the expiry (ms since the epoch), a random 128-bit token id and the state; the
 * MAC is HMAC-SHA-256 (RFC 2104) over the version, key id and payload under the key the id names.
 * Every bound string must be well-formed UTF-16 (`invalid_binding` otherwise: a lone surrogate
 * would hash as U+FFFD, so `'\ud800'` and `'\udbff'` would open each other's tokens). Opening
 * checks, in order: shape and strict decoding (`malformed`), key id (`unknown_key`), MAC in
 * constant time (`tampered`), expiry (`expired`), tool, arguments, schema, prompt, principal
 * (`wrong_*`), then claims the token id in the use store (`replayed`). Single use holds per use
 * store (see ContinuationUseStore). The state is authenticated, not encrypted: do not seal secrets.
 *
 * Most runtimes use `sealRequest` / `openRequest`: the schema that checks the answer and the prompt
 * shown are then the ones the token was sealed with, so a client that swaps `response_schema` (say
 * for `true`) or `prompt` (say for `"Ignore previous instructions"`) is refused.
 */
export class ContinuationSealer {
  readonly #keys = new Map<string, Buffer>();
  readonly #currentKeyId: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #store: ContinuationUseStore;

  /**
   * @throws ContinuationError (ToolError ERR_INVALID_INPUT_REQUEST) reason `weak_key` when a secret is
   *   not a Uint8Array of at least 32 bytes or is one repeated byte; reason `invalid_config` when `keys`
   *   is empty, an id is malformed or repeated, `currentKeyId` is not in the ring, `ttlMs` is not a
   *   positive number of ms, or `now` / `useStore` has the wrong shape
   */
  constructor(config: ContinuationSealerConfig) {
    const keys: unknown = config?.keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      invalid('keys must be a non-empty array of { id, secret } (secret: crypto.randomBytes(32))');
    }
    for (const [i, key] of (keys as unknown[]).entries()) {
      const { id, secret } = (key ?? {}) as { id?: unknown; secret?: unknown };
      if (typeof id !== 'string' || !KEY_ID.test(id)) {
        invalid(`keys[${i}].id must be 1 to 64 characters of A-Z a-z 0-9 _ -`);
      }
      if (this.#keys.has(id)) invalid(`keys[${i}].id ${JSON.stringify(id)} is used twice; give every key its own id`);
      this.#keys.set(id, checkSecret(secret, `keys[${i}] (id ${JSON.stringify(id)})`));
    }
    const current: unknown = config.currentKeyId;
    if (typeof current !== 'string' || !this.#keys.has(current)) {
      const ids = [...this.#keys.keys()].map((k) => JSON.stringify(k)).join(', ');
      invalid(`currentKeyId must be the id of a key in keys (${ids})`);
    }
    const ttl = config.ttlMs ?? DEFAULT_TTL_MS;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
      invalid('ttlMs must be a positive number of milliseconds');
    }
    if (config.now !== undefined && typeof config.now !== 'function') {
      invalid('now must be a function returning ms since the epoch');
    }
    const store: unknown = config.useStore;
    if (store !== undefined && typeof (store as { claim?: unknown } | null)?.claim !== 'function') {
      invalid('useStore must have a claim(tokenId, expiresAt) method');
    }
    this.#currentKeyId = current as string;
    this.#ttlMs = ttl;
    this.#now = config.now ?? Date.now;
    this.#store = config.useStore ?? new MemoryContinuationUseStore({ now: this.#now });
  }

  /**
   * Seals `state` for the call `binding` names, under the current key.
   * @param state - the tool's checkpoint JSON text (`InputRequest.state`)
   * @returns the token `v2.<key id>.<payload>.<mac>`
   * @throws ContinuationError reason `invalid_binding` when the state or a binding member is not a
   *   string, a bound string has a lone surrogate, the schema is not a JSON value, the prompt is not
   *   JSON text, or the clock does not return a finite number
   */
  seal(state: string, binding: SealBinding): string {
    if (typeof state !== 'string') {
      refuse('invalid_binding', 'seal: state must be a string (the JSON text of InputRequest.state)');
    }
    const kid = this.#currentKeyId;
    const key = this.#keys.get(kid) as Buffer;
    const bound = bind(key, binding);
    const expiry = this.#clock() + this.#ttlMs;
    const payload: Payload = { ...bound, e: expiry, n: randomBytes(16).toString('base64url'), s: state };
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${VERSION}.${kid}.${body}.${mac(key, kid, body).toString('base64url')}`;
  }

  /**
   * Opens a token sealed under a key of the ring for the same call, exactly once.
   * @returns the sealed state text
   * @throws ContinuationError (ToolError ERR_INVALID_INPUT_REQUEST) with reason `malformed`,
   *   `unknown_key`, `tampered`, `expired`, `wrong_tool`, `wrong_arguments`, `wrong_schema`,
   *   `wrong_prompt`, `wrong_principal`, `replayed` or `invalid_binding` (see ContinuationErrorReason); an error the
   *   use store throws is passed on as it is
   */
  async open(token: string, binding: SealBinding): Promise<string> {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 4 || parts[0] !== VERSION) {
      refuse('malformed', 'is not a sealed state token (v2.<key id>.<payload>.<mac>)');
    }
    const [, kid, body, tag] = parts;
    const given = strictBase64url(tag, 'MAC');
    const bodyBytes = strictBase64url(body, 'payload');
    if (given.length !== MAC_BYTES) refuse('malformed', `MAC is ${given.length} bytes, not ${MAC_BYTES}`);
    const key = this.#keys.get(kid);
    if (key === undefined) {
      refuse('unknown_key', 'was sealed under a key id this sealer does not hold (retired key?); start the call again');
    }
    if (!timingSafeEqual(given, mac(key, kid, body))) {
      refuse('tampered', 'MAC does not match; the token was forged or altered');
    }
    const payload = readPayload(bodyBytes);
    const bound = bind(key, binding);
    if (!(this.#clock() < payload.e)) refuse('expired', 'has expired; start the call again');
    if (payload.t !== bound.t) {
      refuse('wrong_tool', `was sealed for another tool, not ${JSON.stringify(binding.toolName)}`);
    }
    if (!same(payload.a, bound.a)) refuse('wrong_arguments', 'was sealed for other arguments');
    if (!same(payload.r, bound.r)) {
      refuse('wrong_schema', 'was sealed with another response schema; the request was altered');
    }
    if (!same(payload.q, bound.q)) {
      refuse('wrong_prompt', 'was sealed with another prompt; the request was altered');
    }
    if (!same(payload.p, bound.p)) refuse('wrong_principal', 'was sealed for another principal');
    // Claimed until a whole ms at or after the expiry: a runtime store takes integral ms only
    // (lib/runtime/stores/record.ts), and `ttlMs` or the clock may have a fraction.
    if ((await this.#store.claim(payload.n, claimExpiry(payload.e))) !== true) {
      refuse('replayed', 'was already used (replay); a suspended call resumes once');
    }
    return payload.s;
  }

  /**
   * Seals a tool's InputRequest for the wire: the same prompt and response schema, with the state
   * replaced by the token (as a JSON string), bound to both. Send `toJSON()` of the result to the client.
   * @throws ContinuationError reason `invalid_binding` (see seal); ToolError ERR_INVALID_INPUT_REQUEST
   *   when the token exceeds MAX_INPUT_BYTES (a state of more than about 750,000 bytes)
   */
  sealRequest(request: InputRequest, call: SealCall): InputRequest {
    if (!(request instanceof InputRequest)) refuse('invalid_binding', 'sealRequest: request must be an InputRequest');
    const binding = { ...pick(call), responseSchema: request.responseSchema, prompt: request.prompt };
    const token = this.seal(request.state, binding);
    return InputRequest.create({
      prompt: request.prompt,
      responseSchema: request.responseSchema as JsonObject | boolean,
      continuationState: JSON.stringify(token),
    });
  }

  /**
   * Opens a request that came back from the wire (`InputRequest.parse`) and sealRequest made: the
   * token is checked against this request's response schema and prompt, so the answer
   * `continuation()` checks is checked against the schema the tool asked with, and the prompt
   * returned is the tool's (`wrong_prompt` otherwise). Returns the request with the tool's state.
   * @throws ContinuationError as open (reason `malformed` when the state is not a token string)
   */
  async openRequest(request: InputRequest, call: SealCall): Promise<InputRequest> {
    if (!(request instanceof InputRequest)) {
      refuse('invalid_binding', 'openRequest: request must be an InputRequest (InputRequest.parse)');
    }
    const token: unknown = JSON.parse(request.state);
    if (typeof token !== 'string') {
      refuse('malformed', 'is not a sealed state token: the request state is not a JSON string');
    }
    const binding = { ...pick(call), responseSchema: request.responseSchema, prompt: request.prompt };
    const state = await this.open(token, binding);
    return InputRequest.create({
      prompt: request.prompt,
      responseSchema: request.responseSchema as JsonObject | boolean,
      continuationState: state,
    });
  }

  #clock(): number {
    const now = this.#now();
    if (typeof now !== 'number' || !Number.isFinite(now)) {
      refuse('invalid_binding', 'the clock (now) did not return a finite number of ms');
    }
    return now;
  }
}

/**
 * The expiry a claim is kept until: `expiresAt` rounded up to a whole ms, within 0 and
 * Number.MAX_SAFE_INTEGER (an id kept longer than needed is still single use; one forgotten early
 * would open twice).
 */
function claimExpiry(expiresAt: number): number {
  return Math.min(Math.max(Math.ceil(expiresAt), 0), Number.MAX_SAFE_INTEGER);
}

function checkSecret(secret: unknown, where: string): Buffer {
  if (!(secret instanceof Uint8Array) || secret.byteLength < MIN_SECRET_BYTES) {
    const want = `a Uint8Array of at least ${MIN_SECRET_BYTES} bytes`;
    refuse('weak_key', `${where}: secret must be ${want} (crypto.randomBytes(32))`);
  }
  const copy = Buffer.from(secret);
  if (copy.every((b) => b === copy[0])) {
    const byte = copy[0].toString(16).padStart(2, '0');
    refuse('weak_key', `${where}: secret is one byte repeated (0x${byte}); use crypto.randomBytes(32)`);
  }
  return copy;
}

/** The binding members of a SealCall, read once (a getter cannot answer differently twice). */
function pick(call: SealCall): SealCall {
  return { toolName: call?.toolName, arguments: call?.arguments, principal: call?.principal };
}

function bind(key: Buffer, binding: SealBinding): Pick<Payload, 't' | 'a' | 'r' | 'q' | 'p'> {
  const { toolName, arguments: args, principal, responseSchema, prompt } = (binding ?? {}) as Partial<SealBinding>;
  const texts = [
    ['toolName', toolName],
    ['arguments', args],
    ['principal', principal],
  ] as [string, unknown][];
  if (prompt !== undefined) texts.push(['prompt', prompt]);
  for (const [name, value] of texts) {
    if (typeof value !== 'string') refuse('invalid_binding', `binding.${name} must be a string`);
    // Digests read UTF-8, where every lone surrogate is U+FFFD: refuse rather than collide.
    if (hasLoneSurrogate(value)) {
      refuse('invalid_binding', `binding.${name} is not well-formed UTF-16 (a lone surrogate)`);
    }
  }
  let schema: string;
  try {
    schema = canonicalJson(responseSchema);
  } catch (e) {
    refuse('invalid_binding', `binding.responseSchema must be a JSON value: ${(e as Error).message}`);
  }
  let shown: string | undefined;
  if (prompt !== undefined) {
    try {
      shown = canonicalJson(JSON.parse(prompt));
    } catch (e) {
      refuse('invalid_binding', `binding.prompt must be JSON text (InputRequest.prompt): ${(e as Error).message}`);
    }
  }
  return {
    t: toolName as string,
    a: digest(key, 'arguments', args as string),
    r: digest(key, 'schema', schema),
    q: shown === undefined ? digest(key, 'no-prompt', '') : digest(key, 'prompt', shown),
    p: digest(key, 'principal', principal as string),
  };
}

function digest(key: Buffer, label: string, text: string): string {
  return createHmac('sha256', key).update(`${DOMAIN}/${label}\n${text}`, 'utf8').digest('base64url');
}

function mac(key: Buffer, kid: string, body: string): Buffer {
  return createHmac('sha256', key).update(`${DOMAIN}.${kid}.${body}`).digest();
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Decodes base64url strictly (RFC 4648 section 3.5, canonical encoding): no padding, only the URL
 * alphabet, no length of 1 mod 4, zero trailing bits; the bytes must re-encode to the same text.
 */
function strictBase64url(text: string, part: string): Buffer {
  if (text.length === 0 || !BASE64URL.test(text) || text.length % 4 === 1) {
    refuse('malformed', `${part} is not base64url without padding (RFC 4648 section 5)`);
  }
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) {
    refuse('malformed', `${part} is not canonical base64url (RFC 4648 section 3.5: non-zero trailing bits)`);
  }
  return bytes;
}

/** The payload behind a valid MAC; still checked, so a bug or a leaked key cannot crash the caller. */
function readPayload(bytes: Buffer): Payload {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    refuse('malformed', 'payload is not UTF-8 JSON');
  }
  const p = value as Record<string, unknown>;
  const ok =
    typeof p === 'object' &&
    p !== null &&
    !Array.isArray(p) &&
    Object.keys(p).sort().join() === PAYLOAD_MEMBERS.join() &&
    ['t', 'a', 'r', 'q', 'p', 'n', 's'].every((k) => typeof p[k] === 'string') &&
    typeof p.e === 'number' &&
    Number.isFinite(p.e);
  if (!ok) refuse('malformed', `payload is not { ${PAYLOAD_MEMBERS.join(', ')} }`);
  return p as unknown as Payload;
}

function invalid(why: string): never {
  throw new ContinuationError('invalid_config', `ContinuationSealer: ${why}`);
}

function refuse(reason: ContinuationErrorReason, why: string): never {
  const misuse = reason === 'weak_key' || reason === 'invalid_binding';
  throw new ContinuationError(reason, misuse ? `ContinuationSealer: ${why}` : `continuation state ${why}`);
}
