/**
 * The linear-time pattern engine: every JSON Schema `pattern` and `patternProperties` (through Ajv's
 * `code.regExp` option, lib/protocol/schema.ts) and every DTO `@Matches` (lib/dto/overrides.ts) runs
 * on RE2 (re2js, a pure-JavaScript port), whose matching time grows linearly with the input, as the
 * seed's reference does. A backtracking engine (JavaScript's RegExp) can take exponential time on a
 * model-sent string (`^([a-z0-9]+-?)+$` against 41 letters and `!`), inside the synchronous prepare.
 *
 * Patterns are written in ECMA-262 syntax (JSON Schema 2020-12 section 6.4, read with the u flag)
 * and translated to RE2 syntax so that they keep their ECMA-262 meaning where RE2 would differ:
 * - `\s` and `\S` mean ECMA-262 white space and line terminators (U+0009-U+000D, U+0020, U+00A0,
 *   U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF); RE2's `\s` is ASCII only.
 * - `.` excludes the four ECMA-262 line terminators (U+000A, U+000D, U+2028, U+2029); RE2's only U+000A.
 * - `[\b]` is U+0008; `\cX`, `\0`, `\uXXXX`, a `\uXXXX\uXXXX` surrogate pair and `\u{...}` are code points;
 *   `[]` matches nothing and `[^]` any code point; `\p{General_Category=X}` and `\p{Script=X}` become `\p{X}`.
 * - `\d`, `\w`, `\b`, `^` and `$` (without the m flag) mean the same on both: ASCII digits and word
 *   characters, the start and end of the whole string. Matching is by code point, as with the u flag.
 * What RE2 cannot express is refused when the pattern is compiled, never run on a backtracking engine:
 * lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), backreferences (`\1`, `\k<name>`), the v flag, a lone
 * surrogate escape (admission refuses lone surrogates, so it could match nothing), a bounded repeat
 * above 1000 (`{1,5000}`: use minLength/maxLength), and `\p{...}` names RE2 lacks (long names such as
 * `\p{Letter}`, Script_Extensions). Unicode property tables are RE2's (re2js), which may be of another
 * Unicode version than the running JavaScript engine's.
 * @internal
 */
import { RE2JS } from 're2js';
import { clipMiddle } from './errors';

/** A compiled pattern: what Ajv's RegExpEngine returns (`test`), plus its ECMA-262 source and flags. */
export interface LinearPattern {
  /** The pattern as written (ECMA-262 syntax). */
  readonly source: string;
  /** The flags as given (`u` is implied whether given or not). */
  readonly flags: string;
  /** Whether the pattern matches somewhere in `input` (unanchored, like RegExp.prototype.test). Linear time. */
  test(input: string): boolean;
  /** `/source/flags`, as RegExp's: Ajv keys compiled patterns by it. */
  toString(): string;
}

/** Thrown by compilePattern: the pattern is not ECMA-262 syntax, or RE2 cannot express it. */
export class PatternSyntaxError extends Error {
  override readonly name = 'PatternSyntaxError';
  /** The pattern as written. */
  readonly pattern: string;
  constructor(pattern: string, reason: string) {
    super(`pattern ${JSON.stringify(clipMiddle(pattern, 200))} ${reason}`);
    this.pattern = pattern;
  }
}

/** ECMA-262 WhiteSpace and LineTerminator code points (what `\s` matches), as RE2 class members. */
const SPACE =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}' + '\\x{3000}\\x{feff}';
/** The complement of SPACE, as RE2 class members (`\S` inside a class, where `[^...]` cannot nest). */
const NOT_SPACE =
  '\\x00-\\x08\\x0e-\\x1f!-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}' +
  '\\x{202a}-\\x{202e}' +
  '\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
/** What `.` matches without the s flag: anything but an ECMA-262 line terminator. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
/** Escapes of syntax characters, kept as they are (RE2 reads `\` + punctuation as the character). */
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/-']);
const SIMPLE = new Set([...'dDwWfnrtv']);
const FLAGS = /^[dgimsuy]*$/;

/**
 * Compiles an ECMA-262 pattern onto RE2 (see the module comment for what is translated and refused).
 * Compiled patterns are cached (by source and flags), so a pattern used by many schemas compiles once.
 * @param source - the pattern, ECMA-262 syntax (valid with the u flag)
 * @param flags - RegExp flags: `i` (RE2 simple case folding), `m` (`^`/`$` at U+000A line breaks only),
 *   `s`, `y` (anchored at the start); `u`, `g` and `d` change nothing a test sees. Default `u`.
 * @throws PatternSyntaxError when the pattern is not valid ECMA-262 syntax with the u flag, uses the
 *   v flag or an unknown flag, or needs what RE2 lacks (lookaround, backreferences, ...)
 */
export function compilePattern(source: string, flags = 'u'): LinearPattern {
  const key = `${flags}/${source}`;
  const cached = patterns.get(key);
  if (cached !== undefined) return cached;
  const compiled = compileFresh(source, flags);
  patterns.set(key, compiled);
  if (patterns.size > CACHE_SIZE) patterns.delete(patterns.keys().next().value as string);
  return compiled;
}

const CACHE_SIZE = 1_000;
const patterns = new Map<string, LinearPattern>();

/**
 * The engine Ajv runs `pattern` and `patternProperties` on (its documented RegExpEngine: called with
 * the pattern and the flags `u`, returns an object with `test`). `code` is what Ajv would print into
 * standalone validator source, which scope-tool never generates. @internal
 */
const engine = (pattern: string, flags: string): LinearPattern => compilePattern(pattern, flags);
export const linearRegExp = Object.assign(engine, {
  code: 'require("scope-tool").linearRegExp',
});

function compileFresh(source: string, flags: string): LinearPattern {
  if (!FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    throw new PatternSyntaxError(
      source,
      `has flags "${flags}"; use only d, g, i, m, s, u and y, each once ` + '(the v flag is not supported)',
    );
  }
  try {
    new RegExp(source, flags.includes('u') ? flags : `${flags}u`); // syntax only: never run
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    throw new PatternSyntaxError(
      source,
      `is not a valid ECMA-262 regular expression with the u flag (${why}); ` + 'fix its syntax',
    );
  }
  let translated = translate(source, flags.includes('s'));
  if (flags.includes('y')) translated = `\\A(?:${translated})`;
  let re2Flags = 0;
  if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated, re2Flags);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const hint = /repeat count/.test(why)
      ? 'RE2 allows at most 1000 repetitions in a bounded repeat ({n,m}); bound the length with ' +
        'minLength/maxLength instead'
      : 'rewrite it in the syntax RE2 shares with ECMA-262';
    throw new PatternSyntaxError(source, `cannot run on RE2, the linear-time engine patterns run on (${why}); ${hint}`);
  }
  const text = `/${source}/${flags}`;
  return Object.freeze({ source, flags, test: (input: string) => re.test(input), toString: () => text });
}

/** Translates an ECMA-262 u-mode pattern (syntax already checked) to RE2 syntax with the same meaning. */
function translate(source: string, dotAll: boolean): string {
  const chars = [...source];
  let out = '';
  let inClass = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\\') {
      const [text, used] = escape(chars, i, inClass, source);
      out += text;
      i += used;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      continue;
    }
    if (c === '[') {
      // RE2 reads a `]` right after `[` or `[^` as a literal; ECMA-262 as the end of an empty class.
      if (chars[i + 1] === ']') {
        out += '[^\\x00-\\x{10ffff}]';
        i += 1;
      } else if (chars[i + 1] === '^' && chars[i + 2] === ']') {
        out += '[\\x00-\\x{10ffff}]';
        i += 2;
      } else {
        inClass = true;
        out += c;
      }
      continue;
    }
    if (c === '(' && chars[i + 1] === '?') {
      const ahead = chars.slice(i + 2, i + 4).join('');
      if (ahead.startsWith('=') || ahead.startsWith('!') || ahead === '<=' || ahead === '<!') {
        throw new PatternSyntaxError(
          source,
          'uses lookaround ((?=, (?!, (?<=, (?<!), which RE2 syntax lacks ' +
            '(patterns run on RE2, in linear time); rewrite the pattern without it',
        );
      }
    }
    if (c === '.') out += dotAll ? '(?s:.)' : DOT;
    else out += c;
  }
  return out;
}

/** Translates the escape at `chars[i]` (a backslash): the RE2 text and how many more characters it used. */
function escape(chars: readonly string[], i: number, inClass: boolean, source: string): [string, number] {
  const next = chars[i + 1] ?? '';
  if (next === 's') return [inClass ? SPACE : `[${SPACE}]`, 1];
  if (next === 'S') return [inClass ? NOT_SPACE : `[^${SPACE}]`, 1];
  if (next === 'b' || next === 'B') return [inClass ? '\\x08' : `\\${next}`, 1];
  if (SIMPLE.has(next) || SYNTAX.has(next)) return [`\\${next}`, 1];
  if (next === 'c') return [hex((chars[i + 2] ?? '@').charCodeAt(0) % 32), 2];
  if (next === '0') return ['\\x00', 1];
  if (/^[1-9]$/.test(next) || next === 'k') {
    throw new PatternSyntaxError(
      source,
      'uses a backreference (\\1, \\k<name>), which RE2 syntax lacks ' +
        '(patterns run on RE2, in linear time); rewrite the pattern without it',
    );
  }
  if (next === 'x') return [`\\x{${chars.slice(i + 2, i + 4).join('')}}`, 3];
  if (next === 'u') return unicodeEscape(chars, i, source);
  if (next === 'p' || next === 'P') {
    const end = chars.indexOf('}', i);
    const name = chars
      .slice(i + 3, end)
      .join('')
      .replace(/^(?:General_Category|gc|Script|sc)=/, '');
    return [`\\${next}{${name}}`, end - i];
  }
  return [`\\${next}`, 1];
}

/** `\uXXXX` (a surrogate pair of two as one code point) or `\u{X...}`. */
function unicodeEscape(chars: readonly string[], i: number, source: string): [string, number] {
  if (chars[i + 2] === '{') {
    const end = chars.indexOf('}', i);
    return [`\\x{${chars.slice(i + 3, end).join('')}}`, end - i];
  }
  const unit = parseInt(chars.slice(i + 2, i + 6).join(''), 16);
  if (unit >= 0xd800 && unit <= 0xdbff && chars[i + 6] === '\\' && chars[i + 7] === 'u') {
    const low = parseInt(chars.slice(i + 8, i + 12).join(''), 16);
    if (low >= 0xdc00 && low <= 0xdfff) return [hex(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), 11];
  }
  if (unit >= 0xd800 && unit <= 0xdfff) {
    const escaped = `\\u${unit.toString(16)}`;
    throw new PatternSyntaxError(
      source,
      `escapes a lone surrogate (${escaped}), which no admitted string holds ` +
        '(admission refuses lone surrogates); write the character itself or its pair',
    );
  }
  return [hex(unit), 5];
}

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}
