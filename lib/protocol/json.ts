/**
 * I-JSON (RFC 7493) admission: the one check every JSON text crossing the boundary passes, plus the
 * RFC 8785 canonical form used for hashing and comparison. Ports the seed's `jsontext.Value.IsValid`
 * (docs/reference-semantics.md section 2) with the decisions of docs/architecture.md section 3.
 *
 * The scanner is an explicit state machine (no recursion), so nesting is bounded by MAX_DEPTH and
 * never by the call stack. It validates without building anything; only an admitted text is handed
 * to `JSON.parse` (native, iterative, `__proto__` becomes an own data property), which is faster
 * than building the value in JavaScript.
 */
import type { AdmissionIssue } from './errors';
import { clipMiddle, goQuote, goQuoteClipped } from './errors';

/** Upper bound, in UTF-8 bytes, of tool arguments and every other admitted JSON text. Ports MaxInputBytes. */
export const MAX_INPUT_BYTES = 1_048_576;

/** Deepest nesting of arrays and objects admitted (10,000); one more level is refused (`too_deep`). */
export const MAX_DEPTH = 10_000;

/** A JSON value as admitted. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object as admitted. */
export interface JsonObject {
  [member: string]: JsonValue;
}

/** The outcome of admitting one JSON text: its value, or the first violation found. */
export type JsonAdmission =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly issue: AdmissionIssue };

/** Options of admitJson. */
export interface AdmitJsonOptions {
  /** Refuse texts longer than this many UTF-8 bytes (issue `too_large`). Default: MAX_INPUT_BYTES. */
  maxBytes?: number;
}

type Segment = string | number;

/** Objects with more members than this switch from a linear duplicate check to a Set. */
const LINEAR_KEYS = 12;

/**
 * Admits one JSON text under RFC 7493 and docs/architecture.md section 3, and returns its value.
 *
 * Rules; a refusal names the first violation in text order (an admitted text costs a light scan
 * and JSON.parse; the full scan that names the violation runs only when either doubts the text):
 * - size: at most `maxBytes` UTF-8 bytes, checked before scanning (`too_large`);
 * - exactly one RFC 8259 value, with only space, tab, LF and CR around it; a BOM is not
 *   whitespace; no raw control characters in strings (`invalid_json`);
 * - no unpaired surrogate, raw (a lone UTF-16 code unit) or escaped (`"\ud800"`, a reversed pair)
 *   (`lone_surrogate`); noncharacters such as U+FFFF are admitted;
 * - member names unique after unescaping, at every depth, compared code unit by code unit with no
 *   Unicode normalization (`duplicate_member`);
 * - numbers that a double keeps or merely rounds (`number_out_of_range` otherwise): finite
 *   (`1e400` refused), not a non-zero value that would become 0 (`1e-400` refused; `0.0`, `0e5`
 *   admitted), and integers written without an exponent (`9007199254740993`, `9007199254740993.0`)
 *   within +/-(2^53 - 1); scientific notation is a float, rounded as any decimal is (`1e300`,
 *   `6.022e23`, `9.007199254740993e15` admitted, like `0.1` and `1234567890123456789.5`);
 * - nesting of arrays and objects at most MAX_DEPTH (`too_deep`).
 *
 * The value follows `JSON.parse` semantics: a member named `__proto__` is an own data property.
 * Issues carry the JSON Pointer `path` of the enclosing value (segments), the UTF-16 code unit
 * `offset` of the offending token, and a message saying what was wrong and how to fix it.
 *
 * @param text - the JSON text (a JS string: UTF-16; UTF-8 decoding is the caller's boundary)
 * @param options - `maxBytes`: size bound in UTF-8 bytes (default MAX_INPUT_BYTES)
 * @returns `{ ok: true, value }` or `{ ok: false, issue }`; never throws
 */
export function admitJson(text: string, options?: AdmitJsonOptions): JsonAdmission {
  const tooLarge = sizeIssue(text, options);
  if (tooLarge !== undefined) return { ok: false, issue: tooLarge };
  // The common case, an admitted text, pays for a light scan and JSON.parse only: the light scan
  // checks what JSON.parse cannot (names, numbers, depth, surrogates) on a text it assumes
  // grammatical, and JSON.parse checks the grammar. Anything either of them doubts goes to the full
  // scan, which finds the first violation in text order, exactly as if it had run alone.
  if (lightScan(text)) {
    try {
      return { ok: true, value: JSON.parse(text) as JsonValue };
    } catch {
      // Not grammatical: the full scan names the first violation.
    }
  }
  const issue = scan(text);
  if (issue !== undefined) return { ok: false, issue };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    // Unreachable when the scanner is right: it is strictly narrower than JSON.parse.
    return {
      ok: false,
      issue: refuse('invalid_json', [], 0, 'JSON text could not be parsed; send one JSON value (RFC 8259)'),
    };
  }
}

/**
 * admitJson without building the value: the same rules, checked the same way, for a caller that
 * only needs to know whether `text` is admitted (and why not). @internal
 * @returns the first issue, or undefined when `text` is admitted; never throws
 */
export function checkJson(text: string, options?: AdmitJsonOptions): AdmissionIssue | undefined {
  return sizeIssue(text, options) ?? scan(text);
}

/** The `too_large` issue of a text over `options.maxBytes` UTF-8 bytes, else undefined. */
function sizeIssue(text: string, options: AdmitJsonOptions | undefined): AdmissionIssue | undefined {
  const maxBytes = options?.maxBytes ?? MAX_INPUT_BYTES;
  if (text.length <= maxBytes && (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes)) return undefined;
  const size = utf8Length(text);
  return refuse(
    'too_large',
    [],
    0,
    `JSON text is ${size} UTF-8 bytes, over the limit of ${maxBytes}; send a smaller value`,
  );
}

/** Scanner state shared by the helpers of one scan (module-private, reset per call). */
interface Frames {
  /** The text being scanned. */
  text: string;
  /** Per depth (1-based): true for an object, false for an array. */
  isObject: boolean[];
  /** Per depth: array index, or number of members seen. */
  count: number[];
  /** Per depth: UTF-16 offset of the opening quote of the current member name (objects only). */
  key: number[];
  /**
   * Per depth: content ranges [start, end) of the escape-free member names seen so far, compared in
   * place without allocating (reused between siblings: only the first `used[depth]` entries are
   * current); used while `names` is undefined.
   */
  ranges: number[][];
  /** Per depth: how many entries of `ranges[depth]` hold the current object's names. */
  used: number[];
  /** Whether this scan made a Set of names (which holds text): then its frames are not kept. */
  named: boolean;
  /** Per depth: unescaped names seen, once an object is large or has an escaped name. */
  names: (Set<string> | undefined)[];
}

/**
 * The frames of a finished shallow scan, kept for the next one (most arguments are small objects):
 * taken by scan while it runs, so no two scans share them, and kept only when they hold no member
 * names (positions only, never text) and are at most SPARE_DEPTH deep.
 */
let spare: Frames | undefined;
const SPARE_DEPTH = 8;

/** The full scan: the first violation of `text` in text order, or undefined. */
function scan(text: string): AdmissionIssue | undefined {
  const f = takeFrames(text);
  const issue = scanFrames(text, f);
  keepFrames(f);
  return issue;
}

/** Frames for one scan: the spare ones, or new ones. */
function takeFrames(text: string): Frames {
  const f = spare;
  spare = undefined;
  if (f === undefined) {
    return { text, isObject: [false], count: [0], key: [0], ranges: [[]], used: [0], names: [undefined], named: false };
  }
  f.text = text;
  return f;
}

/** Keeps the frames of a finished scan for the next one, when they hold no text and are shallow. */
function keepFrames(f: Frames): void {
  if (f.isObject.length <= SPARE_DEPTH && !f.named) {
    f.text = '';
    spare = f;
  }
}

/** The position of the next `what` in `text` at or after `from`, or the text's length. */
function nextOf(text: string, what: string, from: number): number {
  const at = text.indexOf(what, from);
  return at < 0 ? text.length : at;
}

/** Whether the quote at `pos` is escaped: an odd number of backslashes right before it. */
function isEscaped(text: string, pos: number): boolean {
  let k = pos - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (pos - 1 - k) % 2 === 1;
}

/**
 * The light scan: true when `text`, if it is grammatical JSON (JSON.parse decides that), breaks no
 * rule that JSON.parse does not check: member names unique, numbers in range, depth, no lone
 * surrogate. False when it finds a violation or anything it cannot vouch for (an unterminated
 * string, a closing bracket too many): then the full scan decides. It skips the content of a
 * string without a backslash natively (indexOf), checks a string with one as the full scan does
 * (scanString), and raw lone surrogates once for the whole text (isWellFormed).
 */
function lightScan(text: string): boolean {
  if (hasLoneSurrogate(text)) return false;
  const f = takeFrames(text);
  let clean: boolean;
  try {
    clean = lightScanFrames(text, f);
  } catch {
    // Never expected; if the light scan ever misreads a text badly enough to throw, the full scan
    // decides, as for any other doubt (admitJson never throws).
    clean = false;
    takeFailure();
  }
  keepFrames(f);
  return clean;
}

function lightScanFrames(text: string, f: Frames): boolean {
  const n = text.length;
  let depth = 0;
  // Whether the next string is a member name: after '{', and after ',' in an object.
  let name = false;
  // The next backslash and the next `\u` at or after i (n when there is none): searched again only
  // once passed, so each is found once per occurrence, not once per string.
  let slash = -1;
  let unicode = -1;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (slash < i) slash = nextOf(text, '\\', i);
      let end = text.indexOf('"', i + 1);
      if (slash < end) {
        if (name) {
          // A member name with escapes is unescaped for the duplicate check: its escapes are
          // checked first, as the full scan checks them.
          end = scanString(text, i);
        } else {
          // A value: skip escaped quotes; only a \u escape needs a check JSON.parse does not make
          // (a lone surrogate), which the full scan's string check makes.
          while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
          if (unicode < i) unicode = nextOf(text, '\\u', i);
          if (unicode < end) end = scanString(text, i);
          else if (end > 0) end++;
        }
      } else if (end > 0) {
        end++;
        lastStringEscaped = false;
      }
      if (end < 0) return false;
      if (name) {
        if (isDuplicate(text, i, end, f, depth)) return false;
        f.key[depth] = i;
        name = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === MAX_DEPTH) return false;
      depth++;
      name = c === 0x7b;
      f.isObject[depth] = name;
      // Kept as the full scan keeps them, so that a number's issue (built, then dropped) has a path.
      f.count[depth] = 0;
      f.key[depth] = i;
      if (name) {
        if (f.ranges[depth] === undefined) f.ranges[depth] = [];
        f.used[depth] = 0;
        f.names[depth] = undefined;
      }
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return false;
      depth--;
      i++;
    } else if (c === 0x2c) {
      name = f.isObject[depth];
      if (!name) f.count[depth]++;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // A number where a member name belongs is not JSON; scanning it would build an issue whose
      // path reads the name that is not there (regression: `{-\\"}` threw).
      if (name) return false;
      i = scanNumber(text, i, f, depth);
      if (i < 0) {
        takeFailure();
        return false;
      }
    } else {
      // Whitespace, ':', and the letters of true, false and null (JSON.parse checks them).
      i++;
    }
  }
  return true;
}

function scanFrames(text: string, f: Frames): AdmissionIssue | undefined {
  const n = text.length;
  let depth = 0;
  let pos = skipWs(text, 0);
  if (pos >= n) {
    return refuse('invalid_json', [], pos, 'JSON text is empty or only whitespace; send one JSON value');
  }
  for (;;) {
    // Expecting a value at pos.
    if (pos >= n) return endOfText(f, depth, pos, 'a value');
    let c = text.charCodeAt(pos);
    if (c === 0x7b || c === 0x5b) {
      if (depth === MAX_DEPTH) {
        return refuse(
          'too_deep',
          pathOf(f, depth),
          pos,
          `nesting deeper than ${MAX_DEPTH} arrays and objects ${at(pathOf(f, depth), pos)}; send a flatter value`,
        );
      }
      depth++;
      const isObject = c === 0x7b;
      f.isObject[depth] = isObject;
      f.count[depth] = 0;
      pos = skipWs(text, pos + 1);
      c = text.charCodeAt(pos);
      if (c === (isObject ? 0x7d : 0x5d)) {
        depth--;
        pos++;
      } else if (isObject) {
        if (f.ranges[depth] === undefined) f.ranges[depth] = [];
        f.used[depth] = 0;
        f.names[depth] = undefined;
        pos = memberName(text, pos, f, depth);
        if (pos < 0) return takeFailure();
        continue;
      } else {
        continue;
      }
    } else if (c === 0x22) {
      const end = scanString(text, pos);
      if (end < 0) return stringIssue(text, pos, -end, f, depth);
      pos = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      pos = scanNumber(text, pos, f, depth);
      if (pos < 0) return takeFailure();
    } else if (c === 0x74 && text.startsWith('true', pos)) pos += 4;
    else if (c === 0x66 && text.startsWith('false', pos)) pos += 5;
    else if (c === 0x6e && text.startsWith('null', pos)) pos += 4;
    else return unexpected(text, pos, f, depth, 'a value');

    // After a value: close containers or move to the next element.
    for (;;) {
      c = text.charCodeAt(pos);
      if (c <= 0x20) {
        pos = skipWs(text, pos);
        c = text.charCodeAt(pos);
      }
      if (depth === 0) {
        if (pos < n) return unexpected(text, pos, f, 0, 'the end of the text (exactly one JSON value)');
        return undefined;
      }
      if (pos >= n) return endOfText(f, depth - 1, pos, f.isObject[depth] ? "',' or '}'" : "',' or ']'");
      const inObject = f.isObject[depth];
      if (c === 0x2c) {
        pos = skipWs(text, pos + 1);
        if (inObject) {
          pos = memberName(text, pos, f, depth);
          if (pos < 0) return takeFailure();
        } else {
          f.count[depth]++;
        }
        break;
      }
      if (c === (inObject ? 0x7d : 0x5d)) {
        depth--;
        pos++;
        continue;
      }
      return unexpected(text, pos, f, depth - 1, f.isObject[depth] ? "',' or '}'" : "',' or ']'");
    }
  }
}

/** The issue of the last helper that returned -1 (module-private; taken at once by scan). */
let failure: AdmissionIssue | undefined;

/** Records `issue` for scan and returns -1, so helpers keep a monomorphic number result. */
function fail(issue: AdmissionIssue): number {
  failure = issue;
  return -1;
}

function takeFailure(): AdmissionIssue {
  const issue = failure as AdmissionIssue;
  failure = undefined;
  return issue;
}

/** Scans `"name":` at pos; checks uniqueness; returns the position of the member's value, or -1. */
function memberName(text: string, pos: number, f: Frames, depth: number): number {
  if (pos >= text.length) return fail(endOfText(f, depth - 1, pos, 'a member name'));
  if (text.charCodeAt(pos) !== 0x22) return fail(unexpected(text, pos, f, depth - 1, 'a member name in double quotes'));
  const end = scanString(text, pos);
  if (end < 0) return fail(stringIssue(text, pos, -end, f, depth - 1));
  if (isDuplicate(text, pos, end, f, depth)) {
    const path = pathOf(f, depth - 1);
    return fail(
      refuse(
        'duplicate_member',
        path,
        pos,
        `duplicate member name ${quote(unquote(text, pos, end))} ${at(path, pos)}; send each member once`,
      ),
    );
  }
  f.key[depth] = pos;
  const p = skipWs(text, end);
  if (p >= text.length) return fail(endOfText(f, depth, p, "':'"));
  if (text.charCodeAt(p) !== 0x3a) return fail(unexpected(text, p, f, depth, "':' after the member name"));
  return skipWs(text, p + 1);
}

/**
 * Records the member name token text[start, end) of the object at `depth` and reports whether it
 * repeats an earlier name. Small objects of escape-free names compare raw ranges in place (equal raw
 * text is equal unescaped text); a large object, or one with an escaped name, switches to a Set of
 * unescaped names.
 */
function isDuplicate(text: string, start: number, end: number, f: Frames, depth: number): boolean {
  let names = f.names[depth];
  const ranges = f.ranges[depth];
  const used = f.used[depth];
  if (names === undefined) {
    if (!lastStringEscaped && used < 2 * LINEAR_KEYS) {
      const s = start + 1;
      const len = end - 1 - s;
      for (let i = 0; i < used; i += 2) {
        const r = ranges[i];
        if (ranges[i + 1] - r === len && sameRange(text, r, s, len)) return true;
      }
      ranges[used] = s;
      ranges[used + 1] = end - 1;
      f.used[depth] = used + 2;
      return false;
    }
    f.names[depth] = names = new Set();
    f.named = true;
    for (let i = 0; i < used; i += 2) names.add(text.slice(ranges[i], ranges[i + 1]));
  }
  const name = unquote(text, start, end);
  if (names.has(name)) return true;
  names.add(name);
  return false;
}

function sameRange(text: string, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** The unescaped content of the valid string token text[start, end). */
function unquote(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(start, end)) as string);
}

// String scan failures, returned negated by scanString as -(offset * 4 + kind).
const S_UNTERMINATED = 0,
  S_CONTROL = 1,
  S_ESCAPE = 2,
  S_SURROGATE = 3;

/** Set by scanString: whether the last string scanned held a backslash escape. */
let lastStringEscaped = false;

/**
 * Scans the string token starting at the quote at `start`. Returns the position after the closing
 * quote, or -(offset * 4 + kind) for the first violation (kind: S_*). Sets lastStringEscaped.
 * Branches are ordered for the common case (printable ASCII and BMP text); past the end of the
 * text charCodeAt gives NaN, which fails every comparison and lands on "unterminated".
 */
function scanString(text: string, start: number): number {
  let i = start + 1;
  let escaped = false;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c > 0x5c) {
      if (c < 0xd800 || c > 0xdfff) {
        i++;
        continue;
      }
      if (c >= 0xdc00) return -(i * 4 + S_SURROGATE);
      const d = text.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -(i * 4 + S_SURROGATE);
      i += 2;
    } else if (c > 0x22) {
      if (c !== 0x5c) {
        i++;
        continue;
      }
      escaped = true;
      const e = text.charCodeAt(i + 1);
      if (e === 0x75) {
        const u = hex4(text, i + 2);
        if (u < 0) return -(i * 4 + S_ESCAPE);
        if (u >= 0xd800 && u <= 0xdfff) {
          if (u >= 0xdc00 || text.charCodeAt(i + 6) !== 0x5c || text.charCodeAt(i + 7) !== 0x75) {
            return -(i * 4 + S_SURROGATE);
          }
          const low = hex4(text, i + 8);
          if (low < 0xdc00 || low > 0xdfff) return -(i * 4 + S_SURROGATE);
          i += 12;
        } else {
          i += 6;
        }
      } else if (
        e === 0x22 ||
        e === 0x5c ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ) {
        i += 2;
      } else {
        return -(i * 4 + S_ESCAPE);
      }
    } else if (c === 0x22) {
      lastStringEscaped = escaped;
      return i + 1;
    } else if (c >= 0x20) {
      i++;
    } else if (c < 0x20) {
      return -(i * 4 + S_CONTROL);
    } else {
      return -(text.length * 4 + S_UNTERMINATED);
    }
  }
}

function hex4(text: string, i: number): number {
  let v = 0;
  for (let k = i; k < i + 4; k++) {
    const c = text.charCodeAt(k);
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

function stringIssue(text: string, start: number, code: number, f: Frames, depth: number): AdmissionIssue {
  const kind = code % 4;
  const offset = (code - kind) / 4;
  const path = pathOf(f, depth);
  switch (kind) {
    case S_UNTERMINATED:
      return refuse('invalid_json', path, start, `unterminated string ${at(path, start)}; close it with '"'`);
    case S_CONTROL:
      return refuse(
        'invalid_json',
        path,
        offset,
        `raw control character U+${hex(text.charCodeAt(offset))} in a string ` +
          `${at(path, offset)}; escape it (\\n, \\t, \\u00XX)`,
      );
    case S_ESCAPE:
      return refuse(
        'invalid_json',
        path,
        offset,
        `invalid escape ${goQuote(text.slice(offset, offset + (text.charCodeAt(offset + 1) === 0x75 ? 6 : 2)))} in a ` +
          `string ${at(path, offset)}; use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX`,
      );
    default:
      return refuse(
        'lone_surrogate',
        path,
        offset,
        `unpaired UTF-16 surrogate in a string ${at(path, offset)}; ` +
          'send valid Unicode (a high surrogate followed by a low one, or neither)',
      );
  }
}

/** Scans a number at pos (grammar and range). Returns the position after it, or -1 (see fail). */
function scanNumber(text: string, pos: number, f: Frames, depth: number): number {
  const start = pos;
  let c = text.charCodeAt(pos);
  if (c === 0x2d) c = text.charCodeAt(++pos);
  const intStart = pos;
  if (c === 0x30) {
    c = text.charCodeAt(++pos);
  } else if (c >= 0x31 && c <= 0x39) {
    do c = text.charCodeAt(++pos);
    while (c >= 0x30 && c <= 0x39);
  } else {
    return fail(badNumber(text, start, pos, f, depth));
  }
  const intDigits = pos - intStart;
  let integer = true;
  let exponent = false;
  if (c === 0x2e) {
    integer = false;
    c = text.charCodeAt(++pos);
    if (!(c >= 0x30 && c <= 0x39)) return fail(badNumber(text, start, pos, f, depth));
    do c = text.charCodeAt(++pos);
    while (c >= 0x30 && c <= 0x39);
  }
  const mantissaEnd = pos;
  if (c === 0x65 || c === 0x45) {
    integer = false;
    exponent = true;
    c = text.charCodeAt(++pos);
    if (c === 0x2b || c === 0x2d) c = text.charCodeAt(++pos);
    if (!(c >= 0x30 && c <= 0x39)) return fail(badNumber(text, start, pos, f, depth));
    do c = text.charCodeAt(++pos);
    while (c >= 0x30 && c <= 0x39);
  }
  if (c === 0x30 || (c >= 0x31 && c <= 0x39)) return fail(badNumber(text, start, pos, f, depth));
  // Integer literals of at most 15 digits, and fractions without an exponent shorter than
  // UNDERFLOW_DIGITS, are exact or merely rounded doubles: they pay nothing here.
  if (exponent || intDigits > 15 || (!integer && mantissaEnd - intStart > UNDERFLOW_DIGITS)) {
    const literal = text.slice(start, pos);
    const value = Number(literal);
    if (!Number.isFinite(value)) {
      const path = pathOf(f, depth);
      return fail(
        refuse(
          'number_out_of_range',
          path,
          start,
          `number ${clip(literal)} ${at(path, start)} is not finite ` +
            'as a double (beyond +/-1.7976931348623157e308); send a smaller number or a string',
        ),
      );
    }
    // An integral value beyond 2^53 - 1 parses to a double beyond it (rounding is monotonic and 2^53
    // is a double), so the double decides the range and the digits decide integrality.
    if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      if (integer) {
        const path = pathOf(f, depth);
        return fail(
          refuse(
            'number_out_of_range',
            path,
            start,
            `integer ${clip(literal)} ${at(path, start)} is outside ` +
              '+/-9007199254740991 (2^53 - 1) and cannot be kept exactly; send it as a string',
          ),
        );
      }
      // An integer written with a zero fraction (`9007199254740993.0`) is an integer literal in
      // disguise; scientific notation (`1e300`, `6.022e23`) is a float, rounded as any decimal is.
      if (!exponent && isZeroFraction(text, intStart, mantissaEnd)) {
        const path = pathOf(f, depth);
        return fail(
          refuse(
            'number_out_of_range',
            path,
            start,
            `number ${clip(literal)} ${at(path, start)} is an integer ` +
              'written with a zero fraction, outside +/-9007199254740991 (2^53 - 1), and cannot be kept exactly; ' +
              'send it as a string',
          ),
        );
      }
    } else if (value === 0 && !integer && !isZero(text, intStart, mantissaEnd)) {
      const path = pathOf(f, depth);
      return fail(
        refuse(
          'number_out_of_range',
          path,
          start,
          `number ${clip(literal)} ${at(path, start)} is not zero ` +
            'but too small for a double (below about 2.5e-324 in magnitude) and would become 0; send 0, a larger number ' +
            'or a string',
        ),
      );
    }
  }
  return pos;
}

/**
 * A fraction without an exponent underflows to 0 (below about 2.47e-324) only when its mantissa has
 * at least 326 characters (`0.`, 323 zeros, a digit); mantissas up to this length (a margin below
 * that) are never checked.
 */
const UNDERFLOW_DIGITS = 320;

/**
 * Whether the mantissa text[intStart, mantissaEnd) (integer digits, `.`, fraction digits) has a
 * fraction of zeros only (`9007199254740993.000`): its value is the integer before the point.
 */
function isZeroFraction(text: string, intStart: number, mantissaEnd: number): boolean {
  let i = mantissaEnd - 1;
  while (i > intStart && text.charCodeAt(i) === 0x30) i--;
  return text.charCodeAt(i) === 0x2e;
}

/** Whether every digit of the mantissa text[intStart, mantissaEnd) is 0 (`0.000`): the value is 0. */
function isZero(text: string, intStart: number, mantissaEnd: number): boolean {
  for (let i = intStart; i < mantissaEnd; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x30 && c !== 0x2e) return false;
  }
  return true;
}

function badNumber(text: string, start: number, pos: number, f: Frames, depth: number): AdmissionIssue {
  const path = pathOf(f, depth);
  const got = pos < text.length ? `${goQuote(text.charAt(pos))} at offset ${pos}` : 'the end of the text';
  return refuse(
    'invalid_json',
    path,
    pos,
    `malformed number ${at(path, start)}: unexpected ${got}; write ` +
      'numbers as RFC 8259 does (-?int[.frac][e[+-]exp], no leading zeros, no NaN or Infinity)',
  );
}

function skipWs(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return pos;
  }
}

function unexpected(text: string, pos: number, f: Frames, depth: number, expected: string): AdmissionIssue {
  const path = pathOf(f, depth);
  const c = text.codePointAt(pos) as number;
  const what =
    c === 0xfeff
      ? 'byte order mark U+FEFF (not JSON whitespace; remove it)'
      : `character ${goQuote(String.fromCodePoint(c))}`;
  return refuse('invalid_json', path, pos, `unexpected ${what} ${at(path, pos)}; expected ${expected}`);
}

function endOfText(f: Frames, depth: number, pos: number, expected: string): AdmissionIssue {
  const path = pathOf(f, depth);
  return refuse(
    'invalid_json',
    path,
    pos,
    `unexpected end of JSON text ${at(path, pos)}; expected ${expected} (is the text truncated?)`,
  );
}

function refuse(code: AdmissionIssue['code'], path: Segment[], offset: number, message: string): AdmissionIssue {
  return Object.freeze({ code, path: Object.freeze(path), offset, message });
}

/** The JSON Pointer segments of the value being scanned at `depth`. */
function pathOf(f: Frames, depth: number): Segment[] {
  const path: Segment[] = [];
  for (let d = 1; d <= depth; d++) {
    if (!f.isObject[d]) {
      path.push(f.count[d]);
      continue;
    }
    const k = f.key[d];
    path.push(unquote(f.text, k, scanString(f.text, k)));
  }
  return path;
}

function at(path: readonly Segment[], offset: number): string {
  return path.length === 0
    ? `at the top level (offset ${offset})`
    : `at ${clip(jsonPointer(path), 160)} (offset ${offset})`;
}

const quote = goQuoteClipped;

function clip(s: string, max = 40): string {
  return clipMiddle(s, max);
}

function hex(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Renders JSON Pointer segments as an RFC 6901 pointer (`["tags", 0]` is `/tags/0`; `~` and `/` in
 * names are escaped as `~0` and `~1`; the root is the empty string).
 */
export function jsonPointer(path: readonly (string | number)[]): string {
  let out = '';
  for (const s of path) out += `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return out;
}

/**
 * UTF-8 length of `text` in bytes (a lone surrogate counts as 3, as U+FFFD would). The unit of
 * MAX_INPUT_BYTES and of every size bound of scope-tool.
 */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `String.prototype.isWellFormed` (Node 20+), native; undefined on older engines. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Reports whether `text` holds an unpaired UTF-16 surrogate code unit (it is not valid Unicode). */
export function hasLoneSurrogate(text: string): boolean {
  if (isWellFormed !== undefined) return !isWellFormed.call(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c >= 0xdc00) return true;
    const d = text.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return true;
    i++;
  }
  return false;
}

/**
 * Reports whether `text` is empty or only whitespace in Go's `unicode.IsSpace` sense
 * (U+0085 and U+00A0 count, U+FEFF does not). Blank arguments are normalized to `{}`.
 */
export function isBlank(text: string): boolean {
  // A loop, not a regular expression: every call's arguments pass here, and they nearly always
  // start with `{`, which ends the loop at once.
  for (let i = 0; i < text.length; i++) {
    if (!isGoSpace(text.charCodeAt(i))) return false;
  }
  return true;
}

/** Go's `unicode.IsSpace` for one UTF-16 code unit (every space is in the BMP). */
function isGoSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

interface CanonFrame {
  readonly value: Record<string, unknown> | unknown[];
  readonly keys: readonly string[] | undefined;
  index: number;
}

/**
 * RFC 8785 (JCS) canonical JSON of a JSON value, for hashing and comparison: no whitespace, object
 * members sorted by the UTF-16 code units of their names, strings in their shortest escaping
 * (JSON.stringify's, which RFC 8785 adopts), numbers in ECMAScript shortest form (`-0` is `0`).
 * Iterative: any depth is fine.
 *
 * @param value - null, a boolean, a finite number, a string, an array or a plain object (own
 *   enumerable string keys; prototype null or Object.prototype of any realm), nested without cycles
 * @returns the canonical text
 * @throws TypeError when `value` holds anything else (undefined, NaN, a Date, a cycle); the message
 *   names its JSON Pointer. A programming defect, never an admission outcome.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: CanonFrame[] = [];
  const open = new Set<unknown>();
  let next: unknown = value;
  for (;;) {
    // Emit `next`.
    if (next === null) out.push('null');
    else if (typeof next === 'boolean') out.push(next ? 'true' : 'false');
    else if (typeof next === 'string') out.push(JSON.stringify(next));
    else if (typeof next === 'number') {
      if (!Number.isFinite(next)) throw notJson(stack, `${next}, not a finite number`);
      out.push(String(next));
    } else if (Array.isArray(next) || isPlainObject(next)) {
      if (open.has(next)) throw notJson(stack, 'a cycle');
      open.add(next);
      const keys = Array.isArray(next) ? undefined : Object.keys(next).sort();
      out.push(keys === undefined ? '[' : '{');
      stack.push({ value: next as CanonFrame['value'], keys, index: 0 });
    } else {
      throw notJson(
        stack,
        typeof next === 'object' ? 'an object that is not a plain object or array' : `of type ${typeof next}`,
      );
    }
    // Find the next value to emit, closing finished containers.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out.join('');
      const size = top.keys === undefined ? (top.value as unknown[]).length : top.keys.length;
      if (top.index < size) {
        if (top.index > 0) out.push(',');
        if (top.keys === undefined) {
          next = (top.value as unknown[])[top.index];
        } else {
          const k = top.keys[top.index];
          out.push(JSON.stringify(k), ':');
          next = (top.value as Record<string, unknown>)[k];
        }
        top.index++;
        break;
      }
      out.push(top.keys === undefined ? ']' : '}');
      open.delete(top.value);
      stack.pop();
    }
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && hasPlainPrototype(v);
}

/**
 * Whether `object`'s prototype is that of a plain object of any realm: null, this realm's
 * Object.prototype, or another realm's (a vm context, a JSON.parse result made there): an object
 * whose own prototype is null and whose own `constructor` is a function named `Object`. Class
 * instances, Maps, Dates and arrays of every realm are not plain (their prototype has a prototype).
 * May throw when `object` is a Proxy whose traps throw. @internal
 */
export function hasPlainPrototype(object: object): boolean {
  const proto = Object.getPrototypeOf(object) as object | null;
  if (proto === Object.prototype || proto === null) return true;
  if (Object.getPrototypeOf(proto) !== null) return false;
  const constructor: unknown = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
  return typeof constructor === 'function' && constructor.name === 'Object';
}

function notJson(stack: readonly CanonFrame[], what: string): TypeError {
  const path = stack.map((f) => (f.keys === undefined ? f.index - 1 : f.keys[f.index - 1]));
  const where = path.length === 0 ? 'the value' : `the value at ${clip(jsonPointer(path), 160)}`;
  return new TypeError(`canonicalJson: ${where} is ${what}; only JSON values can be serialized`);
}
