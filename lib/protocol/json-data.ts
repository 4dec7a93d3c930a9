/**
 * Strict conversion of JavaScript values into JSON data: the one place where a value authored in
 * code (an input schema, a response schema, a function's result) becomes JSON text plus a
 * deep-frozen, detached JSON value. Iterative, so no nesting depth can raise a RangeError.
 * @internal
 */
import type { JsonObject, JsonValue } from './json';
import { MAX_DEPTH, hasLoneSurrogate, jsonPointer } from './json';
import { messageOf } from './errors';

/** Options of toJsonData. */
export interface JsonDataOptions {
  /** Call `toJSON()` on objects that have one (Date), as JSON.stringify does. Default false. */
  readonly callToJSON?: boolean;
  /** Accept class instances (own enumerable members); otherwise only plain objects. Default false. */
  readonly allowInstances?: boolean;
}

/** The outcome: the JSON text (compact, authored member order) and a deep-frozen copy, or a reason. */
export type JsonData =
  | { readonly ok: true; readonly text: string; readonly value: JsonValue }
  | { readonly ok: false; readonly reason: string };

interface Frame {
  readonly source: object;
  readonly keys: readonly string[] | undefined; // undefined for arrays
  readonly target: JsonValue[] | JsonObject;
  readonly parts: string[];
  readonly segment: string | number;
  index: number;
}

/**
 * Converts `input` into JSON text and a deep-frozen detached JSON value, keeping member order.
 * Refuses what JSON cannot carry exactly: NaN and +/-Infinity, BigInt, functions, symbols,
 * `undefined` (except as an object member, which is omitted as JSON.stringify does), cycles, Map and
 * Set, strings with lone surrogates, and nesting deeper than MAX_DEPTH. Never throws.
 */
export function toJsonData(input: unknown, options: JsonDataOptions = {}): JsonData {
  const data = convert(input, options, true);
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

/** The outcome of toJsonText: the JSON text alone, or a reason. */
export type JsonText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * toJsonData without the detached copy: the same walk, the same refusals and reasons, the same
 * text, for callers that only need the text (a function's result). @internal
 */
export function toJsonText(input: unknown, options: JsonDataOptions = {}): JsonText {
  return convert(input, options, false);
}

function convert(input: unknown, options: JsonDataOptions, build: boolean): JsonData {
  const stack: Frame[] = [];
  const active = new Set<object>();
  const fail = (segment: string | number | undefined, reason: string): JsonData => {
    const path = stack.slice(1).map((f) => f.segment);
    if (stack.length > 0 && segment !== undefined) path.push(segment);
    const where = jsonPointer(path);
    return { ok: false, reason: where === '' ? reason : `${where}: ${reason}` };
  };
  // Converts one scalar, or opens a frame for a container; returns a failure reason if refused.
  const visit = (raw: unknown, segment: string | number): { scalar?: [string, JsonValue]; error?: string; skip?: true } => {
    let value = raw;
    if (options.callToJSON === true && value !== null && typeof value === 'object') {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') value = toJSON.call(value, String(segment));
    }
    switch (typeof value) {
      case 'string':
        if (hasLoneSurrogate(value)) return { error: 'string holds a lone surrogate, which is not valid Unicode' };
        return { scalar: [JSON.stringify(value), value] };
      case 'number':
        if (!Number.isFinite(value)) return { error: `${String(value)} is not representable in JSON` };
        return { scalar: [JSON.stringify(value), value] };
      case 'boolean':
        return { scalar: [value ? 'true' : 'false', value] };
      case 'undefined':
        return typeof segment === 'string' ? { skip: true } : { error: 'undefined is not representable in JSON' };
      case 'bigint':
        return { error: 'a BigInt is not representable in JSON; convert it to a string or a number' };
      case 'function':
      case 'symbol':
        return { error: `a ${typeof value} is not representable in JSON` };
    }
    if (value === null) return { scalar: ['null', null] };
    const object = value as object;
    if (active.has(object)) return { error: 'the value is cyclic' };
    if (stack.length >= MAX_DEPTH) return { error: `nesting exceeds ${MAX_DEPTH} levels` };
    if (object instanceof Map || object instanceof Set || object instanceof WeakMap || object instanceof WeakSet) {
      return { error: 'a Map or Set is not representable in JSON; convert it to an object or an array' };
    }
    if (Array.isArray(object)) {
      active.add(object);
      stack.push({ source: object, keys: undefined, target: [], parts: [], segment, index: 0 });
      return {};
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (options.allowInstances !== true && proto !== Object.prototype && proto !== null) {
      return { error: 'only plain objects are JSON values' };
    }
    active.add(object);
    stack.push({ source: object, keys: Object.keys(object), target: {}, parts: [], segment, index: 0 });
    return {};
  };

  try {
    const first = visit(input, '');
    if (first.error !== undefined) return fail(undefined, first.error);
    if (first.skip === true) return fail(undefined, 'undefined is not representable in JSON');
    if (first.scalar !== undefined) return { ok: true, text: first.scalar[0], value: first.scalar[1] };
    for (;;) {
      const frame = stack[stack.length - 1];
      const length = frame.keys === undefined ? (frame.source as unknown[]).length : frame.keys.length;
      if (frame.index >= length) {
        stack.pop();
        active.delete(frame.source);
        const text = frame.keys === undefined ? `[${frame.parts.join(',')}]` : `{${frame.parts.join(',')}}`;
        const done = (build ? Object.freeze(frame.target) : null) as JsonValue;
        if (stack.length === 0) return { ok: true, text, value: done };
        attach(stack[stack.length - 1], frame.segment, text, done, build);
        continue;
      }
      const segment = frame.keys === undefined ? frame.index : frame.keys[frame.index];
      frame.index++;
      if (typeof segment === 'string' && hasLoneSurrogate(segment)) {
        return fail(segment, 'member name holds a lone surrogate');
      }
      const child = (frame.source as Record<string | number, unknown>)[segment];
      const outcome = visit(child, segment);
      if (outcome.error !== undefined) return fail(segment, outcome.error);
      if (outcome.scalar !== undefined) attach(frame, segment, outcome.scalar[0], outcome.scalar[1], build);
    }
  } catch (e) {
    return { ok: false, reason: `reading the value threw: ${messageOf(e)}` };
  }
}

function attach(frame: Frame, segment: string | number, text: string, value: JsonValue, build: boolean): void {
  if (typeof segment === 'number') {
    if (build) (frame.target as JsonValue[]).push(value);
    frame.parts.push(text);
    return;
  }
  if (build) Object.defineProperty(frame.target, segment, { value, enumerable: true, writable: false, configurable: false });
  frame.parts.push(`${JSON.stringify(segment)}:${text}`);
}

/** Reports whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
