/**
 * fast-check generators of JSON values and texts for the admission properties, and an independent
 * I-JSON oracle (RFC 7493 as docs/architecture.md section 3 pins it) built on JSON.parse plus token counts,
 * sharing no code with lib/protocol/json.ts.
 */
import fc from 'fast-check';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Doubles whose JSON.stringify form is admitted: integer literals stay within +/-(2^53 - 1); from
 * 1e21 on JSON.stringify writes an exponent (`1e+21`), a float that admission rounds and admits.
 */
export const safeNumber = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .filter((d) => !(Number.isInteger(d) && Math.abs(d) > MAX_SAFE && Math.abs(d) < 1e21)),
);

/** Member names and strings: full Unicode without lone surrogates, `__proto__` and friends included. */
const safeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'polluted'),
);

/** Builds an object with own data properties (Object.fromEntries keeps `__proto__` an own member). */
function objectOf<T>(entries: fc.Arbitrary<[string, T]>): fc.Arbitrary<Record<string, T>> {
  return fc.uniqueArray(entries, { maxLength: 6, selector: (e) => e[0] }).map((list) => Object.fromEntries(list));
}

export const { value: safeJsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    safeNumber,
    safeString,
    fc.array(tie('value'), { maxLength: 5 }),
    objectOf(fc.tuple(safeString, tie('value'))),
  ),
}));

/** I-JSON objects (top level an object): what an open `{ "type": "object" }` schema accepts. */
export const safeJsonObject = objectOf(fc.tuple(safeString, safeJsonValue));

/** JSON whitespace, occasionally a character JSON does not allow there. */
const ws = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('', ' ', '\n', '\t\r ') },
  { weight: 1, arbitrary: fc.constantFrom('\u00a0', '\ufeff', '\v') },
);

/** Number token forms: plain, fraction, exponent, huge, out of range, leading zeros. */
const numberToken = fc.oneof(
  safeNumber.map((n) => JSON.stringify(n)),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1e6',
    '1E+2',
    '1e-999',
    '1e400',
    '-1e400',
    '9007199254740991',
    '9007199254740992',
    '-9007199254740992',
    '123456789012345678901234567890',
    '01',
    '1.',
    '.5',
    '+1',
    '0x10',
    'NaN',
    'Infinity',
  ),
  fc.constantFrom(
    '9007199254740993.0',
    '9.007199254740993e15',
    '9007199254740991.0',
    '90071992547409910e-1',
    '1e16',
    '-1e16',
    '1e15',
    '1e300',
    '1.5e300',
    '1.5e-300',
    '12345678901234567890e-2',
    '9007199254740993.5',
    '1e-400',
    '-1e-400',
    '2e-324',
    '5e-324',
    '0e5',
    '0.0',
    '-0.0',
    '0e-400',
    '100e-2',
    `0.${'0'.repeat(323)}1`,
    `0.${'0'.repeat(322)}1`,
  ),
);

/**
 * RFC 8259 number literals around the edges of the number rule: 2^53 - 1 written with fractions and
 * exponents, trailing and leading zeros, exponents near the double's limits (overflow, underflow).
 */
export const numberLiteral: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(
      fc.constant('0'),
      fc
        .tuple(
          fc.constantFrom('1', '9'),
          fc.string({ unit: fc.constantFrom('0', '0', '0', '1', '5', '9'), maxLength: 24 }),
        )
        .map(([a, b]) => a + b),
      fc.constantFrom(
        '9007199254740991',
        '9007199254740992',
        '9007199254740993',
        '90071992547409910',
        '900719925474099',
      ),
    ),
    fc.option(fc.string({ unit: fc.constantFrom('0', '0', '0', '1', '5'), minLength: 1, maxLength: 24 })),
    fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 300, max: 420 })),
        fc.constantFrom('', '0', '00'),
      ),
    ),
  )
  .map(
    ([sign, int, fraction, exp]) =>
      `${sign}${int}${fraction === null ? '' : `.${fraction}`}${exp === null ? '' : `${exp[0]}${exp[1]}${exp[3]}${exp[2]}`}`,
  );

/** String token forms: plain, escaped, surrogate pairs, lone surrogate escapes, raw controls. */
const stringToken = fc.oneof(
  safeString.map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\u0061"',
    '"\\ud83d\\ude00"',
    '"\\ud800"',
    '"\\udc00x"',
    '"\\ude00\\ud83d"',
    '"\\uffff"',
    '"\\u0000"',
    '"\\/"',
    '"\\x41"',
    '"\t"',
    '"\ud800"',
    '"a\\"b"',
    '"\\',
  ),
);

/** Random JSON-like texts from tokens: mostly valid, sometimes duplicate names or bad tokens. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false'),
    numberToken,
    stringToken,
    fc.tuple(ws, fc.array(tie('text'), { maxLength: 4 }), ws).map(([a, items, b]) => `${a}[${items.join(',')}]${b}`),
    fc
      .tuple(ws, fc.array(fc.tuple(fc.oneof(stringToken, fc.constant('"k"')), tie('text')), { maxLength: 4 }), ws)
      .map(([a, members, b]) => `${a}{${members.map(([k, v]) => `${k}:${v}`).join(',')}}${b}`),
  ),
})).text;

/**
 * Objects whose names and values are built from escapes: escaped quotes and runs of backslashes
 * before a quote, escapes that spell the same name as another member (`"a"` and `"\u0061"`), lone
 * surrogate escapes, invalid escapes. What a scan that skips strings natively must not misread.
 */
const escapePiece = fc.constantFrom(
  'a',
  '\\"',
  '\\\\',
  '\\\\\\"',
  '\\u0061',
  '\\u0022',
  '\\u005c',
  '\\ud800',
  '\\ud83d\\ude00',
  '\\n',
  '\\x',
  '\\',
  '"',
  ':',
  ',',
  '}',
);
const escapedString = fc.array(escapePiece, { maxLength: 5 }).map((parts) => `"${parts.join('')}"`);
/**
 * Names that repeat often, so that a duplicate lands after strings a scan could misread; now and
 * then a number where the name belongs.
 */
const escapedName = fc.oneof(fc.constantFrom('"a"', '"b"', '"\\u0061"', '-', '1e400\\\\"'), escapedString);
/** Values with an odd number of escaped quotes: one misread quote would shift every string after it. */
const escapedValue = fc.oneof(
  escapedString,
  fc.constantFrom('"\\""', '"x\\"y"', '"\\\\\\""', '1', '{"a":1,"a":2}', '["\\"",{"a":"\\""}]'),
);
export const escapedText: fc.Arbitrary<string> = fc
  .array(fc.tuple(escapedName, escapedValue), { maxLength: 6 })
  .map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`);

/** One mutation of a valid arguments text. */
const mutations: fc.Arbitrary<(t: string) => string>[] = [
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 0xffff })).map(([i, c]) => (t) => {
    const k = i % (t.length || 1);
    return t.slice(0, k) + String.fromCharCode(c) + t.slice(k + 1);
  }),
  fc.nat().map((i) => (t) => t.slice(0, i % (t.length + 1))),
  fc.constant((t) => (t.startsWith('{') && t.length > 2 ? `{"dup":1,"dup":2,${t.slice(1)}` : t)),
  fc.constant((t) => (t.startsWith('{') && t.length > 2 ? `{"a":1,"\\u0061":2,${t.slice(1)}` : t)),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom('\\u', '\\ud800', '\\udc00', '\\"', '\\\\', '\\n', '\ud800', '\udfff', '\u0000', '"'),
    )
    .map(([i, s]) => (t) => {
      const k = i % (t.length + 1);
      return t.slice(0, k) + s + t.slice(k);
    }),
  fc.integer({ min: 1, max: 10_050 }).map((d) => (t) => `{"deep":${'['.repeat(d)}${']'.repeat(d)},${t.slice(1)}`),
  fc
    .constantFrom(
      '1e400',
      '-1e400',
      '9007199254740993',
      '1' + '0'.repeat(400),
      '1e-400',
      '9007199254740993.0',
      '9.007199254740993e15',
      '1e300',
      '-1e-400',
    )
    .map((n) => (t) => `{"n":${n},${t.slice(1)}`),
  fc.constant((t) => `\ufeff${t}`),
  fc.constant((t) => `${t} ${t}`),
];

/** Valid arguments texts after one or two mutations. */
export const mutatedText = fc
  .tuple(
    fc.oneof(safeJsonObject, fc.constant({ name: 'x', count: 1 })).map((v) => JSON.stringify(v)),
    fc.array(fc.oneof(...mutations), { minLength: 1, maxLength: 2 }),
  )
  .map(([t, fs]) => fs.reduce((acc, f) => f(acc), t));

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The oracle: does I-JSON (as docs/architecture.md section 3 pins it) allow `text`, given JSON.parse's value?
 * Refused: lone surrogates (raw or escaped), numbers a double would change rather than round (see
 * numberAllowed), duplicate member names (more name tokens than parsed members), nesting beyond 10,000.
 */
export function iJsonAllows(text: string, value: unknown): boolean {
  if (LONE_SURROGATE.test(text)) return false;
  let names = 0;
  let depth = 0;
  let maxDepth = 0;
  const tokens = /"(?:[^"\\]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[[{]|[\]}]/g;
  for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
    const token = m[0];
    if (token[0] === '"') {
      const decoded = JSON.parse(m[1] === undefined ? token : token.slice(0, token.length - m[1].length)) as string;
      if (LONE_SURROGATE.test(decoded)) return false;
      if (m[1] !== undefined) names++;
    } else if (token === '[' || token === '{') {
      maxDepth = Math.max(maxDepth, ++depth);
    } else if (token === ']' || token === '}') {
      depth--;
    } else if (!numberAllowed(token)) {
      return false;
    }
  }
  return maxDepth <= 10_000 && memberCount(value) === names;
}

const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;

/**
 * The number rule, computed exactly from the token's digits with BigInt: refused when not finite as
 * a double, when it is not zero but becomes 0 as a double (`1e-400`), or when, written without an
 * exponent, its value is an integer beyond +/-(2^53 - 1) (`9007199254740993`, `9007199254740993.0`);
 * scientific notation is a float, rounded as any decimal is (`1e16`, `1e300` admitted).
 */
export function numberAllowed(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  const m = NUMBER.exec(token);
  if (m === null) return true; // not a number token: JSON.parse already judged the text
  const fraction = m[2] ?? '';
  const digits = (m[1] + fraction).replace(/^0+/, '');
  if (digits === '') return true; // the value is 0, kept as 0 (or -0)
  if (value === 0) return false; // not zero, yet 0 as a double
  if (m[3] !== undefined) return true; // scientific notation: a float, rounded as any decimal is
  const significant = digits.replace(/0+$/, '');
  // value = significant * 10^scale
  const scale = Number(m[3] ?? '0') - fraction.length + (digits.length - significant.length);
  if (scale < 0) return true; // not an integer: rounded as any decimal is
  if (significant.length + scale > 16) return false;
  return BigInt(significant) * 10n ** BigInt(scale) <= BigInt(MAX_SAFE);
}

/** Members of all objects in `value`, counted iteratively (values may nest 10,000 deep). */
function memberCount(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) count += children.length;
    stack.push(...children);
  }
  return count;
}

/**
 * Deep equality of two JSON values (member order included, as JSON.stringify would see it), checked
 * iteratively: values may nest 10,000 deep, beyond what a recursive JSON.stringify survives.
 */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!(x === y || (typeof x === 'number' && x === y))) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length || kx.some((k, i) => k !== ky[i])) return false;
    for (const k of kx) stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
  }
  return true;
}
