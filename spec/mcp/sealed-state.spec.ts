/**
 * ContinuationSealer: HMAC-SHA256 sealed continuation state bound to tool name, arguments and an
 * expiry; forged, altered, expired, misbound and replayed states are refused.
 */
import { randomBytes } from 'node:crypto';
import { ContinuationSealer } from '../../lib/mcp';

const KEY = randomBytes(32);
const CALL = { toolName: 'file_note', arguments: '{"text":"milk"}' };
const STATE = '{"step":"confirm","draft":7}';

function sealer(now = () => 1_000_000, key = KEY): ContinuationSealer {
  return new ContinuationSealer({ key, ttlMs: 60_000, now });
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  throw new Error('expected a refusal');
};

describe('ContinuationSealer', () => {
  it('opens a sealed state once, for the same tool and arguments, exactly as sealed', () => {
    const s = sealer();
    const token = s.seal(STATE, CALL);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(s.open(token, CALL)).toBe(STATE);
  });

  it('refuses a replayed state', () => {
    const s = sealer();
    const token = s.seal(STATE, CALL);
    s.open(token, CALL);
    expect(refusal(() => s.open(token, CALL))).toEqual({ code: 'ERR_INVALID_INPUT_REQUEST', message: expect.stringContaining('already used (replay)') });
  });

  it('refuses a state whose payload was altered, or sealed under another key', () => {
    const s = sealer();
    const [v, body, mac] = s.seal(STATE, CALL).split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { s: string };
    const altered = Buffer.from(JSON.stringify({ ...payload, s: '{"step":"done"}' })).toString('base64url');
    expect(refusal(() => s.open(`${v}.${altered}.${mac}`, CALL)).message).toContain('signature does not match');
    const foreign = sealer(undefined, randomBytes(32)).seal(STATE, CALL);
    expect(refusal(() => s.open(foreign, CALL)).message).toContain('signature does not match');
  });

  it('refuses an expired state', () => {
    let now = 1_000_000;
    const s = sealer(() => now);
    const token = s.seal(STATE, CALL);
    now += 60_000;
    expect(refusal(() => s.open(token, CALL)).message).toContain('has expired');
  });

  it('refuses a state sealed for another tool or other arguments', () => {
    const s = sealer();
    expect(refusal(() => s.open(s.seal(STATE, CALL), { ...CALL, toolName: 'delete_all' })).message).toContain('another tool');
    expect(refusal(() => s.open(s.seal(STATE, CALL), { ...CALL, arguments: '{"text":"milk" }' })).message).toContain('other arguments');
  });

  it('refuses malformed tokens and weak keys', () => {
    const s = sealer();
    for (const token of ['', 'v1.a', 'v2.a.b', 'v1..', 42 as unknown as string]) {
      expect(refusal(() => s.open(token, CALL)).code).toBe('ERR_INVALID_INPUT_REQUEST');
    }
    expect(refusal(() => new ContinuationSealer({ key: randomBytes(16) })).message).toContain('at least 32 bytes');
    expect(refusal(() => new ContinuationSealer({ key: KEY, ttlMs: 0 })).message).toContain('ttlMs');
  });
});
