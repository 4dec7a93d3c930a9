/**
 * Every schema pattern runs on RE2 (linear time), keeping its ECMA-262 meaning;
 * what RE2 cannot express is refused at compile (lib/protocol/regex.ts, lib/protocol/schema.ts).
 */
import { FuncTool, ToolError, bind, compileSchemaValue, type JsonValue } from '../../lib/protocol';
import { compilePattern, PatternSyntaxError } from '../../lib/protocol/regex';
import { thrownBy } from './helpers';

/** Every BMP code point but the surrogates, and every 97th astral one. */
const CODE_POINTS: string[] = [];
for (let c = 0; c <= 0x10ffff; c += c < 0x10000 ? 1 : 97) {
  if (c < 0xd800 || c > 0xdfff) CODE_POINTS.push(String.fromCodePoint(c));
}

/**
 * Adversarial inputs that take a backtracking engine seconds: for the e-mail pattern, "a@", dots and
 * "@" (a backtracking engine tries every dot as the `\.`: quadratic, seconds at 40 KB), 1 MiB; for the
 * nested one, 42 bytes.
 */
const EMAIL = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
const NESTED = '^([a-z0-9]+-?)+$';
const NESTED_42 = `${'a'.repeat(41)}!`;

describe('compilePattern: ECMA-262 meaning on RE2', () => {
  const classes = ['^\\s$', '^\\S$', '^[^@\\s]$', '^[a\\S]$', '^[^\\S]$', '^.$', '^\\d$', '^\\w$', '^\\W$', '^[\\b]$'];
  classes.push('^[^]$', '^[]$');
  it.each(classes)('%s gives the verdict of the u-flag RegExp on every code point tested', (source) => {
    const linear = compilePattern(source);
    const ecma = new RegExp(source, 'u');
    const differ = CODE_POINTS.filter((s) => linear.test(s) !== ecma.test(s));
    expect(differ.map((s) => s.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it.each([
    ['^\\u{1F600}$', '😀'],
    ['^\\uD83D\\uDE00$', '😀'],
    ['^\\cJ$', '\n'],
    ['^\\0$', '\0'],
    ['^\\x41$', 'A'],
    ['\\bfoo\\b', 'a foo.'],
    ['^(?<n>a)b$', 'ab'],
    ['^\\p{sc=Greek}+$', 'αβ'],
    ['^\\p{L}$', 'é'],
    ['^[\\[x]+$', '[x['],
  ])('%s matches %j, as ECMA-262 reads it', (source, input) => {
    expect(new RegExp(source, 'u').test(input)).toBe(true);
    expect(compilePattern(source).test(input)).toBe(true);
  });

  it('is unanchored like RegExp.prototype.test, and a line break is not "." nor the end ($)', () => {
    expect(compilePattern('b').test('abc')).toBe(true);
    expect(compilePattern('^a.b$').test('a\rb')).toBe(false);
    expect(compilePattern('^a$').test('a\n')).toBe(false);
  });

  it.each([
    ['(a)\\1', /uses a backreference \(\\1, \\k<name>\), which RE2 syntax lacks/],
    ['(?<n>a)\\k<n>', /uses a backreference/],
    ['(?=x)', /uses lookaround \(\(\?=, \(\?!, \(\?<=, \(\?<!\), which RE2 syntax lacks/],
    ['(?!x)', /uses lookaround/],
    ['(?<=x)y', /uses lookaround/],
    ['(?<!x)y', /uses lookaround/],
    ['\\uD800', /escapes a lone surrogate/],
    ['a{1,5000}', /RE2 allows at most 1000 repetitions/],
    ['\\p{Letter}', /cannot run on RE2/],
    ['\\-', /is not a valid ECMA-262 regular expression with the u flag/],
  ])('refuses %s, naming the pattern', (source, reason) => {
    const err = thrownBy(() => compilePattern(source));
    expect(err).toBeInstanceOf(PatternSyntaxError);
    expect((err as PatternSyntaxError).pattern).toBe(source);
    expect((err as Error).message).toMatch(reason);
    expect((err as Error).message.startsWith(`pattern ${JSON.stringify(source)} `)).toBe(true);
  });

  it('refuses the v flag and unknown flags', () => {
    expect((thrownBy(() => compilePattern('a', 'v')) as Error).message).toMatch(/the v flag is not supported/);
    expect(thrownBy(() => compilePattern('a', 'uu'))).toBeInstanceOf(PatternSyntaxError);
  });

  it('keeps the flags the decoder may meet: i, m, s and y', () => {
    expect(compilePattern('^abc$', 'i').test('ABC')).toBe(true);
    expect(compilePattern('^b$', 'm').test('a\nb')).toBe(true);
    expect(compilePattern('^a.b$', 's').test('a\nb')).toBe(true);
    expect(compilePattern('b', 'y').test('ab')).toBe(false);
    expect(compilePattern('a', 'y').test('ab')).toBe(true);
  });

  it('refuses a 1 MiB e-mail lookalike and the 42-byte nested-quantifier input (timed by npm run bench)', () => {
    expect(compilePattern(EMAIL).test(`a@${'.'.repeat(1 << 20)}@`)).toBe(false);
    expect(compilePattern(EMAIL).test(`a@${'a.'.repeat(1 << 19)}@`)).toBe(false);
    expect(compilePattern(NESTED).test(NESTED_42)).toBe(false);
    expect(compilePattern(NESTED).test('abc-def-ghi')).toBe(true);
  });
});

describe('schemas: pattern and patternProperties run on the linear engine', () => {
  it.each(['(?=x)', '(a)\\1'])('refuses a pattern %s at compile, ERR_INVALID_SCHEMA naming it', (source) => {
    const schemas = [
      { type: 'string', pattern: source },
      { type: 'object', patternProperties: { [source]: {} } },
    ];
    for (const schema of schemas) {
      const err = thrownBy(() => compileSchemaValue(schema)) as ToolError;
      expect(err.code).toBe('ERR_INVALID_SCHEMA');
      expect(err.message).toContain(`pattern ${JSON.stringify(source)}`);
      expect(err.message).toMatch(/RE2 syntax lacks/);
    }
  });

  it('reads \\s in patternProperties as ECMA-262 does (U+00A0 is white space)', () => {
    const schema = compileSchemaValue({ type: 'object', patternProperties: { '^x\\s$': { type: 'number' } } });
    expect(schema.validate({ 'x\u00a0': 1 })).toEqual([]);
    expect(schema.validate({ 'x\u00a0': 'one' })[0]).toMatchObject({ keyword: 'type', path: ['x\u00a0'] });
  });

  function funcTool(pattern: string) {
    const properties = { s: { type: 'string', pattern } };
    const inputSchema = { type: 'object', properties, required: ['s'], additionalProperties: false };
    const fn = jest.fn(() => 'ran');
    const tool = FuncTool.create({ name: 'probe', inputSchema, decode: (v: JsonValue) => v }, fn);
    const contract = bind(tool).contract;
    return { fn, prepare: (s: string) => contract.prepare({ name: 'probe', arguments: JSON.stringify({ s }) }) };
  }

  it.each([
    [EMAIL, `a@${'.'.repeat((1 << 20) - 16)}@`],
    [NESTED, NESTED_42],
  ])('FuncTool prepare refuses %s against its adversarial string with the pattern issue', (pattern, input) => {
    const { fn, prepare } = funcTool(pattern);
    const err = thrownBy(() => prepare(input)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues[0]).toMatchObject({ code: 'schema', path: ['s'], keyword: 'pattern', params: { pattern } });
    expect(fn).not.toHaveBeenCalled();
    expect(() => prepare(pattern === EMAIL ? 'ann@example.org' : 'abc-def')).not.toThrow();
  });
});

describe('formats: the library regexes', () => {
  it('refuses format "url" at compile (its regex backtracks quadratically) and asserts "uri"', () => {
    // The refusal's wording (pointing to "uri") is spec/protocol/schema.spec.ts's, where it is built.
    const err = thrownBy(() => compileSchemaValue({ type: 'string', format: 'url' })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_SCHEMA');
    expect(compileSchemaValue({ type: 'string', format: 'uri' }).validate('http://a:b@example.org/x')).toEqual([]);
  });

  it('keeps the other formats and the format keywords (formatMinimum)', () => {
    const schema = compileSchemaValue({ type: 'string', format: 'date', formatMinimum: '2024-01-01' });
    expect(schema.validate('2024-05-01')).toEqual([]);
    expect(schema.validate('2023-05-01')[0]).toMatchObject({ keyword: 'formatMinimum' });
    const email = compileSchemaValue({ type: 'string', format: 'email' });
    expect(email.validate(`a@${'a-'.repeat(1 << 18)}!`)[0]).toMatchObject({ keyword: 'format' });
  });
});
