import {
  admitJson,
  canonicalJson,
  checkJson,
  hasLoneSurrogate,
  isBlank,
  jsonPointer,
  MAX_DEPTH,
  MAX_INPUT_BYTES,
  utf8Length,
} from '../../lib/protocol/json';
import type { AdmissionIssue } from '../../lib/protocol/errors';

function issueOf(text: string, maxBytes?: number): AdmissionIssue {
  const r = admitJson(text, maxBytes === undefined ? {} : { maxBytes });
  if (r.ok) throw new Error(`expected ${JSON.stringify(text.slice(0, 40))} to be refused`);
  return r.issue;
}

function valueOf(text: string): unknown {
  const r = admitJson(text);
  if (!r.ok) throw new Error(`expected admission, got ${r.issue.message}`);
  return r.value;
}

describe('admitJson: exactly one value', () => {
  it('admits any top-level value with JSON whitespace around it', () => {
    expect(valueOf(' \t\r\n{"a":[1,true,null,"x"]} \n')).toEqual({ a: [1, true, null, 'x'] });
    expect(valueOf('3')).toBe(3);
    expect(valueOf('"s"')).toBe('s');
  });

  it.each([
    ['empty text', '', 0],
    ['whitespace only', ' \n', 2],
  ])('refuses %s as invalid_json', (_name, text, offset) => {
    expect(issueOf(text)).toMatchObject({ code: 'invalid_json', path: [], offset });
  });

  it('refuses two values ({} {}) at the offset of the second', () => {
    expect(issueOf('{} {}')).toMatchObject({ code: 'invalid_json', offset: 3 });
  });

  it('refuses trailing garbage and names what was expected', () => {
    const issue = issueOf('{"a":1} x');
    expect(issue).toMatchObject({ code: 'invalid_json', path: [], offset: 8 });
    expect(issue.message).toBe(
      'unexpected character "x" at the top level (offset 8); expected the end of the text (exactly one JSON value)',
    );
  });

  it('refuses a byte order mark: it is not JSON whitespace', () => {
    const issue = issueOf('\ufeff{}');
    expect(issue).toMatchObject({ code: 'invalid_json', offset: 0 });
    expect(issue.message).toContain('byte order mark U+FEFF');
  });

  it.each(['\u00a0{}', '\u000b{}', '\u000c{}', '{}\u2028', '{}\u0085'])('refuses non-JSON whitespace %j', (text) => {
    expect(issueOf(text).code).toBe('invalid_json');
  });
});

describe('admitJson: strict RFC 8259 grammar', () => {
  it.each([
    ['[1,]', 3],
    ['{"a":1,}', 7],
    ['[01]', 2],
    ['[.5]', 1],
    ['[1.]', 3],
    ['[-]', 2],
    ['[+1]', 1],
    ['[NaN]', 1],
    ['[Infinity]', 1],
    ['[0x10]', 2],
    ["['a']", 1],
    ['{a:1}', 1],
    ['[tru]', 1],
    ['"\\x"', 1],
    ['"\\u12"', 1],
    ['{"a" 1}', 5],
    ['[1 2]', 3],
    ['[', 1],
    ['{"a":', 5],
    ['"abc', 0],
  ])('refuses %j at offset %d', (text, offset) => {
    expect(issueOf(text)).toMatchObject({ code: 'invalid_json', offset });
  });

  it('refuses a raw control character in a string and says how to escape it', () => {
    const issue = issueOf('{"a":"x\ty"}');
    expect(issue).toMatchObject({ code: 'invalid_json', path: ['a'], offset: 7 });
    expect(issue.message).toContain('raw control character U+0009');
  });

  it('admits every RFC 8259 escape, including an escaped NUL', () => {
    expect(valueOf('"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000 \\u00e9"')).toBe('" \\ / \b \f \n \r \t \u0000 \u00e9');
  });

  it('reports where a syntax error happened as a JSON Pointer path', () => {
    expect(issueOf('{"a":{"b":[0,{"c":x}]}}')).toMatchObject({ path: ['a', 'b', 1, 'c'], offset: 18 });
  });
});

describe('admitJson: Unicode', () => {
  it.each([
    ['a raw lone high surrogate', '"a\ud800b"', 2],
    ['a raw lone low surrogate', '"\udc00"', 1],
    ['an escaped lone high surrogate', '"\\ud800"', 1],
    ['an escaped lone low surrogate', '"\\udc00"', 1],
    ['an escaped reversed pair', '"\\ude00\\ud83d"', 1],
    ['a high surrogate followed by a non-surrogate escape', '"\\ud800\\u0041"', 1],
    ['an escaped lone surrogate in a member name', '{"\\udfaa":0}', 2],
  ])('refuses %s (lone_surrogate)', (_name, text, offset) => {
    expect(issueOf(text)).toMatchObject({ code: 'lone_surrogate', offset });
  });

  it('admits surrogate pairs, raw and escaped', () => {
    expect(valueOf('["\ud83d\ude00","\\ud83d\\ude00"]')).toEqual(['\u{1f600}', '\u{1f600}']);
  });

  it('admits noncharacters (U+FFFF, U+FDD0), as Go does', () => {
    expect(valueOf('["\uffff","\\uffff","\ufdd0"]')).toEqual(['\uffff', '\uffff', '\ufdd0']);
  });
});

describe('admitJson: member names', () => {
  it('refuses a duplicate at the top level', () => {
    expect(issueOf('{"a":1,"a":2}')).toMatchObject({ code: 'duplicate_member', path: [], offset: 7 });
  });

  it('refuses a nested duplicate with its path, offset and fix', () => {
    const issue = issueOf('{"x":{"a":1,"a":2}}');
    expect(issue).toEqual({
      code: 'duplicate_member',
      path: ['x'],
      offset: 12,
      message: 'duplicate member name "a" at /x (offset 12); send each member once',
    });
  });

  it('compares names after unescaping: "\\u0061" duplicates "a"', () => {
    expect(issueOf('{"a":1,"\\u0061":2}')).toMatchObject({ code: 'duplicate_member', offset: 7 });
    expect(issueOf('{"\\u0061":1,"a":2}')).toMatchObject({ code: 'duplicate_member', offset: 12 });
  });

  it('finds duplicates in large objects too (past the linear check)', () => {
    const members = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(valueOf(`{${members.join(',')}}`)).toHaveProperty('k39', 39);
    expect(issueOf(`{${members.join(',')},"k3":0}`)).toMatchObject({ code: 'duplicate_member' });
    expect(issueOf(`{${members.join(',')},"k\\u0033":0}`)).toMatchObject({ code: 'duplicate_member' });
  });

  // Regressions of the light scan (admitJson skips string contents natively and leaves grammar to
  // JSON.parse): each was misread by a draft of it.
  it('finds a duplicate after values that hold escaped quotes (an odd number in each)', () => {
    expect(issueOf('{"a":1,"x":"\\"","a":"\\""}')).toMatchObject({ code: 'duplicate_member', offset: 16 });
    expect(issueOf('{"b":"\\"","b":"\\""}')).toMatchObject({ code: 'duplicate_member', offset: 10 });
    expect(valueOf('{"a":"\\\\","b":"\\\\\\""}')).toEqual({ a: '\\', b: '\\"' });
  });

  it('refuses a number where a member name belongs as the full scan does, without throwing', () => {
    for (const text of ['{-\\\\"}', '[{1e400\\\\"}]', '{"a":{-\\\\"}}', '{"a":1,-1}']) {
      const full = checkJson(text);
      expect(full).toMatchObject({ code: 'invalid_json' });
      expect(admitJson(text)).toEqual({ ok: false, issue: full });
    }
  });

  it('refuses an invalid escape in a member name as invalid_json, not a thrown SyntaxError', () => {
    expect(issueOf('[{"\\x41":null}]')).toMatchObject({ code: 'invalid_json', path: [0], offset: 3 });
  });

  it('keeps siblings at the same depth independent', () => {
    expect(valueOf('[{"a":1},{"a":2},{"b":{"a":3}}]')).toEqual([{ a: 1 }, { a: 2 }, { b: { a: 3 } }]);
  });

  it('does not normalize: NFC "\u00e9" and NFD "e\u0301" are different names', () => {
    expect(Object.keys(valueOf('{"\u00e9":1,"e\u0301":2}') as object)).toHaveLength(2);
  });

  it('admits __proto__ and constructor as own data properties, leaving prototypes untouched', () => {
    const value = valueOf('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('admitJson: numbers', () => {
  it.each([
    ['1e400', 'not finite'],
    ['-1e400', 'not finite'],
    ['9007199254740993', 'outside'],
    ['9007199254740992', 'outside'],
    ['-9007199254740992', 'outside'],
    ['123456789012345678901234567890', 'outside'],
  ])('refuses %s (number_out_of_range)', (text, words) => {
    const issue = issueOf(`{"n":${text}}`);
    expect(issue).toMatchObject({ code: 'number_out_of_range', path: ['n'], offset: 5 });
    expect(issue.message).toContain(words);
  });

  it.each([
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['1.5e-300', 1.5e-300],
    ['-0', -0],
    ['1e15', 1e15],
    ['1.5e300', 1.5e300],
    ['1e20', 1e20],
    ['9007199254740993.5', 9007199254740994],
    ['0.1', 0.1],
  ])('admits %s', (text, value) => {
    expect(valueOf(text)).toBe(value);
  });
});

describe('admitJson: integers in disguise and underflow are refused rather than silently changed', () => {
  // The failing case: with {"n":{"type":"integer","maximum":9007199254740992}}, 9007199254740993 was
  // refused but 9007199254740993.0 reached the tool as 9007199254740992, and 1e-400 as 0. Scientific
  // notation stays a float, rounded as any decimal is (6.022e23 is a legitimate argument).
  it.each([
    ['9007199254740993.0', 'zero fraction'],
    ['-9007199254740993.0', 'zero fraction'],
    ['9007199254740992.000', 'zero fraction'],
    ['12345678901234567890.0', 'zero fraction'],
    ['1e-400', 'would become 0'],
    ['-1e-400', 'would become 0'],
    ['2e-324', 'would become 0'],
    ['123.456e-789', 'would become 0'],
    [`0.${'0'.repeat(323)}1`, 'would become 0'],
  ])('refuses %s with number_out_of_range at its path', (text, words) => {
    const issue = issueOf(`{"a":[0,{"n":${text}}]}`);
    expect(issue).toMatchObject({ code: 'number_out_of_range', path: ['a', 1, 'n'], offset: 13 });
    expect(issue.message).toContain(words);
    expect(issue.message).toMatch(/send (it as a string|0, a larger number or a string)$/);
  });

  it('says what was refused and how to fix it', () => {
    expect(issueOf('{"n":9007199254740993.0}').message).toBe(
      'number 9007199254740993.0 at /n (offset 5) is an integer ' +
        'written with a zero fraction, outside +/-9007199254740991 (2^53 - 1), and cannot be kept exactly; ' +
        'send it as a string',
    );
    expect(issueOf('{"n":1e-400}').message).toBe(
      'number 1e-400 at /n (offset 5) is not zero but too small for a double ' +
        '(below about 2.5e-324 in magnitude) and would become 0; send 0, a larger number or a string',
    );
  });

  it.each([
    ['0.1', 0.1],
    ['1.5e-10', 1.5e-10],
    ['9007199254740991.0', 9007199254740991],
    ['-9007199254740991.0', -9007199254740991],
    ['9.007199254740991e15', 9007199254740991],
    ['90071992547409910e-1', 9007199254740991],
    ['1e15', 1e15],
    ['1E6', 1e6],
    ['100e-2', 1],
    ['0e5', 0],
    ['0.0', 0],
    ['-0.0', -0],
    ['0e-400', 0],
    ['0.000e999', 0],
    ['5e-324', 5e-324],
    [`0.${'0'.repeat(322)}1`, 1e-323],
    ['12345678901234567890e-2', 123456789012345678.9],
    ['9007199254740993.5', 9007199254740994],
    ['1.7976931348623157e-308', 1.7976931348623157e-308],
    ['9.007199254740993e15', 9007199254740992],
    ['1e16', 1e16],
    ['-1e16', -1e16],
    ['1E22', 1e22],
    ['1e300', 1e300],
    ['6.022e23', 6.022e23],
    ['123.456e78', 123.456e78],
    ['90071992547409920e-1', 9007199254740992],
  ])('admits %s (kept, or rounded as any decimal is)', (text, value) => {
    expect(valueOf(`{"n":${text}}`)).toEqual({ n: value });
  });

  it('rounds a non-integral literal as any decimal is, even beyond 2^53 - 1 (12345678901234567890e-2)', () => {
    // 123456789012345678.9 is not an integer: its nearest double is admitted like 0.1's.
    expect(Object.is(valueOf('12345678901234567890e-2'), 123456789012345680)).toBe(true);
  });
});

describe('admitJson: nesting depth', () => {
  it.each([
    ['arrays', '[', ']'],
    ['objects', '{"a":', '}'],
  ])('admits %s nested MAX_DEPTH (10,000) deep', (_n, open, close) => {
    expect(MAX_DEPTH).toBe(10_000);
    expect(admitJson(`${open.repeat(MAX_DEPTH)}0${close.repeat(MAX_DEPTH)}`).ok).toBe(true);
  });

  it.each([
    ['arrays', '[', ']'],
    ['objects', '{"a":', '}'],
  ])('refuses %s nested 10,001 deep with too_deep, never a RangeError', (_n, open, close) => {
    const text = `${open.repeat(MAX_DEPTH + 1)}0${close.repeat(MAX_DEPTH + 1)}`;
    const issue = issueOf(text);
    expect(issue.code).toBe('too_deep');
    expect(issue.path).toHaveLength(MAX_DEPTH);
    expect(issue.offset).toBe(open.length * MAX_DEPTH);
    expect(issue.message.length).toBeLessThan(400);
  });

  it('refuses 100,000 levels without exhausting the stack', () => {
    expect(issueOf('['.repeat(100_000)).code).toBe('too_deep');
  });
});

describe('admitJson: size bound in UTF-8 bytes, checked before scanning', () => {
  // "é" is 1 UTF-16 code unit and 2 UTF-8 bytes, so UTF-16 length would undercount.
  function textOfBytes(bytes: number): string {
    const filler = 'é'.repeat((bytes - 4) >> 1) + (bytes % 2 === 1 ? 'a' : '');
    return `["${filler}"]`;
  }

  it('admits exactly MAX_INPUT_BYTES (1,048,576) bytes of multibyte text', () => {
    const text = textOfBytes(MAX_INPUT_BYTES);
    expect(utf8Length(text)).toBe(MAX_INPUT_BYTES);
    expect(text.length).toBeLessThan(MAX_INPUT_BYTES);
    expect(admitJson(text).ok).toBe(true);
  });

  it('refuses one byte more with too_large, even if the text is invalid JSON', () => {
    const text = textOfBytes(MAX_INPUT_BYTES + 1);
    expect(utf8Length(text)).toBe(MAX_INPUT_BYTES + 1);
    expect(issueOf(text)).toEqual({
      code: 'too_large',
      path: [],
      offset: 0,
      message: 'JSON text is 1048577 UTF-8 bytes, over the limit of 1048576; send a smaller value',
    });
    expect(issueOf(`${text.slice(0, -1)}x`).code).toBe('too_large');
  });

  it('honors a custom maxBytes', () => {
    expect(issueOf('"abc"', 4).code).toBe('too_large');
    expect(admitJson('"abc"', { maxBytes: 5 }).ok).toBe(true);
  });
});

describe('admitJson: issues', () => {
  it('returns frozen issues and never throws on hostile input', () => {
    const issue = issueOf('{"a":[}');
    expect(Object.isFrozen(issue)).toBe(true);
    expect(Object.isFrozen(issue.path)).toBe(true);
    for (const text of ['{"', '"\\', '"\\u', '[-', '{"a"', '[1e', '[1e+', '"\ud800']) {
      expect(() => admitJson(text)).not.toThrow();
      expect(admitJson(text).ok).toBe(false);
    }
  });

  it('keeps messages short when names and paths are huge', () => {
    const name = 'n'.repeat(100_000);
    expect(issueOf(`{"${name}":1,"${name}":2}`).message.length).toBeLessThan(300);
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by UTF-16 code units, at every depth, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: { z: null, '\u00e9': 1, '\u{1f600}': 2, '\uffff': 3, A: 4 } })).toBe(
      '{"a":{"A":4,"z":null,"\u00e9":1,"\u{1f600}":2,"\uffff":3},"b":1}',
    );
  });

  it('writes strings in their shortest escaping and numbers in ECMAScript shortest form', () => {
    expect(canonicalJson(['\u2028<>&/"\\\n\u0001', 1e21, 0.1, -0, 1.0, 5e-7])).toBe(
      '["\u2028<>&/\\"\\\\\\n\\u0001",1e+21,0.1,0,1,5e-7]',
    );
  });

  it('handles depth beyond the call stack', () => {
    let v: unknown = 0;
    for (let i = 0; i < 50_000; i++) v = [v];
    expect(canonicalJson(v)).toHaveLength(100_001);
  });

  it('throws a TypeError naming the path for non-JSON values and cycles', () => {
    expect(() => canonicalJson({ a: [1, undefined] })).toThrow(
      'canonicalJson: the value at /a/1 is of type undefined; only JSON values can be serialized',
    );
    expect(() => canonicalJson({ n: NaN })).toThrow(TypeError);
    expect(() => canonicalJson(new Date(0))).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow('a cycle');
  });

  it('accepts a repeated (non-cyclic) reference', () => {
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('text helpers', () => {
  it('utf8Length counts UTF-8 bytes', () => {
    expect(utf8Length('a\u00e9\u20ac\u{1f600}')).toBe(1 + 2 + 3 + 4);
  });

  it('hasLoneSurrogate finds unpaired code units only', () => {
    expect(hasLoneSurrogate('a\u{1f600}b')).toBe(false);
    expect(hasLoneSurrogate('\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00\ud83d')).toBe(true);
    expect(hasLoneSurrogate('x\udc00')).toBe(true);
  });

  it('isBlank follows Go unicode.IsSpace: U+00A0 and U+0085 are blank, U+FEFF is not', () => {
    expect(isBlank('')).toBe(true);
    expect(isBlank(' \t\n\u00a0\u0085\u3000')).toBe(true);
    expect(isBlank('\ufeff')).toBe(false);
    expect(isBlank(' {} ')).toBe(false);
    expect(isBlank('   x')).toBe(false);
    expect(isBlank('x   ')).toBe(false);
  });

  it('isBlank treats as space exactly the Unicode White_Space code units (Go unicode.IsSpace)', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const unit = String.fromCharCode(c);
      const white = /^\p{White_Space}$/u.test(unit);
      if (isBlank(unit) !== white || isBlank(` ${unit}\u3000`) !== white) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it('jsonPointer escapes ~ and / (RFC 6901)', () => {
    expect(jsonPointer([])).toBe('');
    expect(jsonPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
  });
});
