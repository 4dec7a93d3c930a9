/**
 * Authenticated continuation state for runtimes that let a checkpoint leave the server (a client
 * holds it between turns, a queue persists it). The MCP server of this folder never needs it:
 * it awaits the elicitation inside the same `tools/call`, so `InputRequest.state` stays in memory.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ToolError } from '../protocol';

/** Configuration of a ContinuationSealer. */
export interface ContinuationSealerConfig {
  /** The server's secret HMAC-SHA256 key, at least 32 bytes. Keep it out of source control. */
  readonly key: Uint8Array;
  /** How long a sealed state may be opened, in ms (default 900,000 = 15 minutes). */
  readonly ttlMs?: number;
  /** The clock, in ms since the epoch (default `Date.now`); tests pass their own. */
  readonly now?: () => number;
}

/** What a sealed state is bound to: the call it belongs to. */
export interface SealBinding {
  /** The tool name of the suspended call. */
  readonly toolName: string;
  /** The admitted arguments JSON text of the suspended call (`Invocation.arguments`), exactly. */
  readonly arguments: string;
}

const VERSION = 'v1';
const DOMAIN = 'scope-tool/continuation-state/v1';
const DEFAULT_TTL_MS = 15 * 60 * 1000;

interface Payload {
  readonly t: string;
  readonly a: string;
  readonly s: string;
  readonly e: number;
  readonly n: string;
}

/**
 * Seals an `InputRequest.state` into a token a client may carry, and opens it again only for the
 * same call, once, before it expires. Token: `v1.<payload>.<mac>` (base64url), where the payload
 * holds the tool name, the SHA-256 of the arguments text, the state, the expiry (ms) and a random
 * 128-bit nonce, and the MAC is HMAC-SHA256 (RFC 2104) over the version and payload under the
 * server key. Opening checks, in order: shape, MAC (constant-time), expiry, tool name and
 * arguments, then single use (the nonce is consumed; nonces are remembered until they expire).
 * The state is authenticated, not encrypted: do not seal secrets.
 */
export class ContinuationSealer {
  readonly #key: Buffer;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #used = new Map<string, number>();

  /** @throws ToolError ERR_INVALID_INPUT_REQUEST when the key is shorter than 32 bytes or the TTL is not a positive number of ms */
  constructor(config: ContinuationSealerConfig) {
    if (!(config?.key instanceof Uint8Array) || config.key.byteLength < 32) {
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', 'ContinuationSealer: key must be a Uint8Array of at least 32 bytes (for example crypto.randomBytes(32))');
    }
    const ttl = config.ttlMs ?? DEFAULT_TTL_MS;
    if (!Number.isFinite(ttl) || ttl <= 0) throw new ToolError('ERR_INVALID_INPUT_REQUEST', 'ContinuationSealer: ttlMs must be a positive number of milliseconds');
    this.#key = Buffer.from(config.key);
    this.#ttlMs = ttl;
    this.#now = config.now ?? Date.now;
  }

  /**
   * Seals `state` for the call `binding` names.
   * @param state - the tool's checkpoint JSON text (`InputRequest.state`)
   * @returns the token `v1.<payload>.<mac>`
   */
  seal(state: string, binding: SealBinding): string {
    const payload: Payload = { t: binding.toolName, a: digest(binding.arguments), s: state, e: this.#now() + this.#ttlMs, n: randomBytes(16).toString('base64url') };
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${VERSION}.${body}.${this.#mac(body).toString('base64url')}`;
  }

  /**
   * Opens a token sealed by this key for the same call, exactly once.
   * @returns the sealed state text
   * @throws ToolError ERR_INVALID_INPUT_REQUEST `continuation state: ...` when the token is
   *   malformed, forged or altered (MAC mismatch), expired, sealed for another tool or other
   *   arguments, or already opened (replay)
   */
  open(token: string, binding: SealBinding): string {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 3 || parts[0] !== VERSION) refuse('is not a sealed state token (v1.<payload>.<mac>)');
    const [, body, mac] = parts;
    const expected = this.#mac(body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) refuse('signature does not match; the state was forged or altered');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    const now = this.#now();
    if (!(now < payload.e)) refuse('has expired; start the call again');
    if (payload.t !== binding.toolName) refuse(`was sealed for another tool, not ${JSON.stringify(binding.toolName)}`);
    if (payload.a !== digest(binding.arguments)) refuse('was sealed for other arguments');
    this.#forgetExpired(now);
    if (this.#used.has(payload.n)) refuse('was already used (replay); a suspended call resumes once');
    this.#used.set(payload.n, payload.e);
    return payload.s;
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#key).update(`${DOMAIN}.${body}`).digest();
  }

  #forgetExpired(now: number): void {
    for (const [nonce, expiry] of this.#used) if (expiry <= now) this.#used.delete(nonce);
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

function refuse(why: string): never {
  throw new ToolError('ERR_INVALID_INPUT_REQUEST', `continuation state ${why}`);
}
