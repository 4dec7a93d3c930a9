/**
 * The text helpers every message uses: clipMiddle (pointers, patterns, values) and goQuoteClipped
 * (member names) never split a surrogate pair, so a clipped message stays well-formed Unicode.
 */
import { ToolError, clipMiddle, goQuoteClipped, hasErrorCode, wrapError, wrappedText } from '../../lib/protocol/errors';
import { admitJson } from '../../lib/protocol';
import { hasLoneSurrogate } from '../../lib/protocol/json';

const EMOJI = '\u{1F600}';

describe('clipMiddle', () => {
  it('keeps a string at most max code units long as it is', () => {
    expect(clipMiddle('abcdef', 6)).toBe('abcdef');
  });

  it('keeps the first and last max / 2 code units around ...', () => {
    expect(clipMiddle('abcdefghij', 4)).toBe('ab...ij');
  });

  it('never splits a surrogate pair at either cut', () => {
    // Pairs at code units 2-3 and 10-11 of 13.
    const s = `ab${EMOJI}cdefgh${EMOJI}i`;
    expect(clipMiddle(s, 6)).toBe(`ab...${EMOJI}i`); // head cut at code unit 3 would split the first pair
    expect(clipMiddle(s, 4)).toBe('ab...i'); // tail cut at code unit 11 would split the second pair
  });
});

describe('goQuoteClipped', () => {
  it('cuts a long name to 64 code units without splitting a pair', () => {
    const name = `${'a'.repeat(63)}${EMOJI}${'b'.repeat(10)}`;
    expect(goQuoteClipped(name)).toBe(`"${'a'.repeat(63)}..."`);
    expect(goQuoteClipped('short')).toBe('"short"');
  });
});

describe('admission messages stay well-formed when they clip a pointer', () => {
  it('a duplicate member under a long name with emoji reports well-formed text', () => {
    const key = EMOJI.repeat(100);
    const admitted = admitJson(`{"${key}":{"a":1,"a":2}}`);
    expect(admitted.ok).toBe(false);
    if (!admitted.ok) expect(hasLoneSurrogate(admitted.issue.message)).toBe(false);
  });
});

describe('wrapError: a wrapped message does not repeat its prefix (issue 15 item 7)', () => {
  it('drops the shared `tool: ` package prefix of an inner error of another code', () => {
    const inner = new ToolError('ERR_INVALID_REQUEST', 'call of tool "make_file": the stream ended');
    const err = wrapError('ERR_INVALID_INVOCATION', inner);
    expect(err.message).toBe('tool: invalid invocation: invalid request: call of tool "make_file": the stream ended');
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.cause).toBe(inner);
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
  });

  it('drops the whole sentinel of an inner error of the same code, after a segment', () => {
    const inner = new ToolError('ERR_INVALID_TOOL', 'tool is nil');
    expect(wrapError('ERR_INVALID_TOOL', inner, 'tools[0]').message).toBe('tool: invalid tool: tools[0]: tool is nil');
    expect(wrapError('ERR_INVALID_TOOL', new ToolError('ERR_INVALID_TOOL'), 'tools[0]').message).toBe(
      'tool: invalid tool: tools[0]',
    );
  });

  it('keeps a message of another package or none whole', () => {
    expect(wrappedText('tool: invalid invocation', new ToolError('ERR_INVALID_SCHEMA', 'x'))).toBe(
      'jsonschema: invalid schema: x',
    );
    expect(wrappedText('tool: invalid invocation', new Error('disk full'))).toBe('disk full');
    expect(wrappedText('tool: invalid invocation', 'tool: rejected')).toBe('rejected');
  });
});
