/**
 * Strict conversion of JavaScript values into JSON data: the one place where a value authored in
 * code (an input schema, a response schema, a function's result) becomes JSON text plus a
 * deep-frozen, detached JSON value. Iterative, so no nesting depth can raise a RangeError.
 * @internal
 */
import type { JsonObject, JsonValue } from './json';
import { MAX_DEPTH, hasLoneSurrogate, hasPlainPrototype, jsonPointer } from './json';
import { messageOf } from './errors';

/** Options of toJsonData. */
export interface JsonDataOptions {
  /** Call `toJSON()` on objects that have one (Date), as JSON.stringify does. Default false. */
  readonly callToJSON?: boolean;
  /** Accept class instances (own enumerable members); otherwise only plain objects. Default false. */
  readonly allowInstances?: boolean;
  /**
   * Write every number so that admission (admitJson) reads back the same double: -0 as `-0`, and a
   * magnitude of 2^53 or more in exponent form (`1e+16`, `9.007199254740992e+15`), which admission
   * admits. Default false: JSON.stringify's text (`0`; `10000000000000000`, an integer literal
   * admission refuses: see JsonText.admitted). For text that states a value admission let in (a
   * decoded input, lib/protocol/func.ts encodeArguments).
   */
  readonly exactNumbers?: boolean;
}

/** The outcome: the JSON text (compact, authored member order) and a deep-frozen copy, or a reason. */
export type JsonData =
  | { readonly ok: true; readonly text: string; readonly value: JsonValue }
  | { readonly ok: false; readonly reason: string };

interface Frame {
  readonly source: object;
  readonly keys: readonly string[] | undefined; // undefined for arrays
  readonly target: JsonValue[] | JsonObject;
  /** The JSON text of the members or elements converted so far, comma-separated. */
  body: string;
  readonly segment: string | number;
  index: number;
}

/**
 * Converts `input` into JSON text and a deep-frozen detached JSON value, keeping member order.
 * Refuses what JSON cannot carry exactly: NaN and +/-Infinity, BigInt, functions, symbols,
 * `undefined` (except as an object member, which is omitted as JSON.stringify does), cycles, Map and
 * Set, strings with lone surrogates, and nesting deeper than MAX_DEPTH. Objects are plain objects of
 * any realm (a JSON.parse result made in a vm context is one; see hasPlainPrototype), unless
 * `allowInstances`. Never throws.
 */
export function toJsonData(input: unknown, options: JsonDataOptions = {}): JsonData {
  const data = convert(walk(options, true), input);
  if (data.ok && typeof data.value === 'object' && data.value !== null) detached.add(data.value);
  return data;
}

/** Root containers toJsonData built: deep-frozen, and referenced by nothing but their holders. */
const detached = new WeakSet<object>();

/**
 * Reports whether `value` is a container toJsonData built: deep-frozen all the way down and
 * detached from any caller object, so it can be shared instead of copied. @internal
 */
export function isDetachedJson(value: unknown): value is JsonValue {
  return typeof value === 'object' && value !== null && detached.has(value);
}

/**
 * How a reason of toJsonData / toJsonText starts when a getter or proxy trap of the value threw;
 * the thrown message follows after `: ` (text of the calling code, never shown to a model). @internal
 */
export const READING_THREW = 'reading the value threw';

/**
 * The outcome of toJsonText: the JSON text alone, or a reason. `admitted` is true when the text
 * passes RFC 7493 admission (admitJson) apart from the size bound, which holds by construction:
 * strings and names are well-formed (lone surrogates refused) and written by JSON.stringify, member
 * names come from Object.keys (unique), numbers are finite, nesting stops at MAX_DEPTH (admission's
 * own bound); the one rule left, integer literals within +/-(2^53 - 1), is why `admitted` is false
 * whenever a number of magnitude 2^53 or more was written as JSON.stringify writes it (the caller
 * then runs the full check); under `exactNumbers` it is always true.
 */
export type JsonText =
  | { readonly ok: true; readonly text: string; readonly admitted: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * toJsonData without the detached copy: the same walk, the same refusals and reasons, the same
 * text, for callers that only need the text (a function's result). @internal
 */
export function toJsonText(input: unknown, options: JsonDataOptions = {}): JsonText {
  let fast: string | undefined;
  try {
    fast = plainValue(input, options.callToJSON === true, 0);
  } catch (e) {
    // What the full walk reports for a getter or trap that throws; not retried, so a getter that
    // throws once cannot slip through on a second read.
    return { ok: false, reason: `${READING_THREW}: ${messageOf(e)}` };
  }
  if (fast !== undefined) return { ok: true, text: fast, admitted: true };
  const w = walk(options, false);
  const data = convert(w, input);
  return data.ok ? { ok: true, text: data.text, admitted: !w.bigNumber } : data;
}

/**
 * The JSON text of plain data (see plainValue), or undefined for anything else: a value with a toJSON
 * method (own, inherited or non-enumerable; the caller's JSON.stringify calls it), or a getter or trap
 * that throws (the caller's own path reports it). The text passes admission apart from the size
 * bound. @internal (lib/mcp)
 */
export function plainJsonText(value: unknown): string | undefined {
  try {
    return plainValue(value, true, 0);
  } catch {
    return undefined;
  }
}

/** How deep plainValue goes before it leaves the value to the full walk (which finds cycles). */
const PLAIN_DEPTH = 32;

/**
 * A string as a JSON string literal, as JSON.stringify writes it, or undefined when it holds a lone
 * surrogate. A short string of printable characters below U+D800 without a quote or a backslash needs no
 * escape and cannot hold a surrogate: it is quoted as is; any other goes through JSON.stringify.
 */
function quoted(text: string): string | undefined {
  if (text.length <= 64) {
    let plain = true;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0xd800) {
        plain = false;
        break;
      }
    }
    if (plain) return `"${text}"`;
  }
  return hasLoneSurrogate(text) ? undefined : JSON.stringify(text);
}

/**
 * The common case of toJsonText, written directly: plain data (plain objects and arrays, well-formed
 * strings, safe-integer-range finite numbers, booleans, null, members that are undefined) at most
 * PLAIN_DEPTH deep, encoded exactly as the full walk would encode it. Anything else (class instances,
 * a toJSON method when `callToJSON`, Map, Set, undefined elements, functions, symbols, BigInt,
 * non-finite or large numbers, lone surrogates, deep or cyclic values) gives undefined, and the full
 * walk converts the value or says why it cannot: the members read before such a value are then read
 * a second time (a getter runs twice). What a getter or trap throws passes through to the caller.
 */
function plainValue(value: unknown, callToJSON: boolean, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      // String(n) is JSON's number text for every finite n within 2^53 but -0 ("0"; the full walk
      // writes it as its options say).
      return Number.isFinite(value) &&
        value <= Number.MAX_SAFE_INTEGER &&
        value >= -Number.MAX_SAFE_INTEGER &&
        !Object.is(value, -0)
        ? String(value)
        : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (depth >= PLAIN_DEPTH) return undefined;
  if (callToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (Array.isArray(value)) {
    let body = '';
    for (let i = 0; i < value.length; i++) {
      const text = plainValue(value[i], callToJSON, depth + 1);
      if (text === undefined) return undefined;
      body = i === 0 ? text : `${body},${text}`;
    }
    return `[${body}]`;
  }
  if (!hasPlainPrototype(value)) return undefined;
  const keys = Object.keys(value);
  let body = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const name = quoted(key);
    if (name === undefined) return undefined;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    const text = plainValue(member, callToJSON, depth + 1);
    if (text === undefined) return undefined;
    body = body === '' ? `${name}:${text}` : `${body},${name}:${text}`;
  }
  return `{${body}}`;
}

/** A finite number's text under `exactNumbers` (see JsonDataOptions). */
function exactNumberText(value: number): string {
  if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) return value.toExponential();
  return Object.is(value, -0) ? '-0' : String(value);
}

function walk(options: JsonDataOptions, build: boolean): Walk {
  return { options, build, stack: [], active: undefined, bigNumber: false, text: '', value: null };
}

/** The state of one conversion (no closures per call: the walk runs on every function result). */
interface Walk {
  readonly options: JsonDataOptions;
  readonly build: boolean;
  readonly stack: Frame[];
  /** The containers being converted (the stack's sources) as a Set, once the stack is deep. */
  active: Set<object> | undefined;
  /** Set when a number at least 2^53 in magnitude was converted (see JsonText.admitted). */
  bigNumber: boolean;
  /** Set by visit for V_SCALAR: the scalar's text and value; for V_ERROR: the reason. */
  text: string;
  value: JsonValue;
}

const V_SCALAR = 0,
  V_OPENED = 1,
  V_SKIP = 2,
  V_ERROR = 3;

/** Converts one scalar (V_SCALAR), opens a frame for a container (V_OPENED), skips, or refuses. */
function visit(w: Walk, raw: unknown, segment: string | number): number {
  let value = raw;
  if (w.options.callToJSON === true && value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, String(segment));
  }
  switch (typeof value) {
    case 'string':
      if (hasLoneSurrogate(value)) return refused(w, 'string holds a lone surrogate, which is not valid Unicode');
      return scalar(w, JSON.stringify(value), value);
    case 'number':
      if (!Number.isFinite(value)) return refused(w, `${String(value)} is not representable in JSON`);
      if (w.options.exactNumbers === true) return scalar(w, exactNumberText(value), value);
      if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) w.bigNumber = true;
      return scalar(w, JSON.stringify(value), value);
    case 'boolean':
      return scalar(w, value ? 'true' : 'false', value);
    case 'undefined':
      return typeof segment === 'string' ? V_SKIP : refused(w, 'undefined is not representable in JSON');
    case 'bigint':
      return refused(w, 'a BigInt is not representable in JSON; convert it to a string or a number');
    case 'function':
    case 'symbol':
      return refused(w, `a ${typeof value} is not representable in JSON`);
  }
  if (value === null) return scalar(w, 'null', null);
  const object = value as object;
  if (isOpen(w, object)) return refused(w, 'the value is cyclic');
  if (w.stack.length >= MAX_DEPTH) return refused(w, `nesting exceeds ${MAX_DEPTH} levels`);
  if (object instanceof Map || object instanceof Set || object instanceof WeakMap || object instanceof WeakSet) {
    return refused(w, 'a Map or Set is not representable in JSON; convert it to an object or an array');
  }
  if (Array.isArray(object)) {
    open(w, { source: object, keys: undefined, target: w.build ? [] : NO_TARGET, body: '', segment, index: 0 });
    return V_OPENED;
  }
  if (w.options.allowInstances !== true && !hasPlainPrototype(object)) {
    return refused(w, 'only plain objects are JSON values');
  }
  open(w, { source: object, keys: Object.keys(object), target: w.build ? {} : NO_TARGET, body: '', segment, index: 0 });
  return V_OPENED;
}

/** The target of frames when no copy is built. */
const NO_TARGET: JsonObject = Object.freeze({}) as JsonObject;
/** Up to this many open containers, the cycle check scans the stack instead of keeping a Set. */
const SCAN_OPEN = 16;

/** Reports whether `object` is being converted (a cycle): the stack's sources. */
function isOpen(w: Walk, object: object): boolean {
  if (w.active !== undefined) return w.active.has(object);
  const stack = w.stack;
  for (let i = 0; i < stack.length; i++) if (stack[i].source === object) return true;
  return false;
}

function open(w: Walk, frame: Frame): void {
  const stack = w.stack;
  stack.push(frame);
  if (w.active !== undefined) w.active.add(frame.source);
  else if (stack.length > SCAN_OPEN) w.active = new Set(stack.map((f) => f.source));
}

function scalar(w: Walk, text: string, value: JsonValue): number {
  w.text = text;
  w.value = value;
  return V_SCALAR;
}

function refused(w: Walk, reason: string): number {
  w.text = reason;
  return V_ERROR;
}

/** The failure at `segment` of the current frame (or at the root), its JSON Pointer first. */
function failure(w: Walk, segment: string | number | undefined, reason: string): JsonData {
  const path = w.stack.slice(1).map((f) => f.segment);
  if (w.stack.length > 0 && segment !== undefined) path.push(segment);
  const where = jsonPointer(path);
  return { ok: false, reason: where === '' ? reason : `${where}: ${reason}` };
}

function convert(w: Walk, input: unknown): JsonData {
  const { stack, build } = w;
  try {
    const first = visit(w, input, '');
    if (first === V_ERROR) return failure(w, undefined, w.text);
    if (first === V_SKIP) return failure(w, undefined, 'undefined is not representable in JSON');
    if (first === V_SCALAR) return { ok: true, text: w.text, value: w.value };
    for (;;) {
      const frame = stack[stack.length - 1];
      const length = frame.keys === undefined ? (frame.source as unknown[]).length : frame.keys.length;
      if (frame.index >= length) {
        stack.pop();
        w.active?.delete(frame.source);
        const text = frame.keys === undefined ? `[${frame.body}]` : `{${frame.body}}`;
        const done = (build ? Object.freeze(frame.target) : null) as JsonValue;
        if (stack.length === 0) return { ok: true, text, value: done };
        attach(stack[stack.length - 1], frame.segment, text, done, build);
        continue;
      }
      const segment = frame.keys === undefined ? frame.index : frame.keys[frame.index];
      frame.index++;
      if (typeof segment === 'string' && hasLoneSurrogate(segment)) {
        return failure(w, segment, 'member name holds a lone surrogate');
      }
      const child = (frame.source as Record<string | number, unknown>)[segment];
      const outcome = visit(w, child, segment);
      if (outcome === V_ERROR) return failure(w, segment, w.text);
      if (outcome === V_SCALAR) attach(frame, segment, w.text, w.value, build);
    }
  } catch (e) {
    return { ok: false, reason: `${READING_THREW}: ${messageOf(e)}` };
  }
}

function attach(frame: Frame, segment: string | number, text: string, value: JsonValue, build: boolean): void {
  if (typeof segment === 'number') {
    if (build) (frame.target as JsonValue[]).push(value);
    frame.body = frame.body === '' ? text : `${frame.body},${text}`;
    return;
  }
  if (build)
    Object.defineProperty(frame.target, segment, { value, enumerable: true, writable: false, configurable: false });
  const member = `${JSON.stringify(segment)}:${text}`;
  frame.body = frame.body === '' ? member : `${frame.body},${member}`;
}

/** Reports whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
