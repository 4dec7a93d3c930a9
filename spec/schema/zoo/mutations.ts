/**
 * Boundary and mutation arguments derived from an emitted input schema and one valid value: for
 * every constraint met on the way (lengths, bounds, item counts, enums, patterns, formats, required
 * and unknown members, nested objects), an argument just inside and one just outside it, plus JSON
 * kinds the member does not take, coercible look-alikes ("2" for 2, "true" for true), and the
 * forbidden member names inside objects and free-form values. Arguments are JSON texts (so
 * `__proto__` is an own member after parsing), each labelled with its path and what it tries.
 */
import { codePoints, resolveRef } from './arbitrary';

type Schema = { [key: string]: unknown };
type Path = (string | number)[];

/** One derived argument. */
export interface Mutant {
  readonly label: string;
  readonly json: string;
}

const MAX_DEPTH = 3;

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: unknown = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  (copy as Record<string | number, unknown>)[head as string | number] = setAt(
    (root as Record<string | number, unknown>)[head as string | number],
    rest,
    value,
  );
  return copy;
}

function deleteAt(root: unknown, path: Path): unknown {
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1] as string;
  let parent: unknown = root;
  for (const p of parentPath) parent = (parent as Record<string | number, unknown>)[p];
  const { [key]: _gone, ...rest } = parent as Record<string, unknown>;
  return setAt(root, parentPath, rest);
}

function typesOf(schema: Schema): string[] {
  const t = schema['type'];
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

function stretch(s: string, n: number): string {
  const chars = [...s];
  if (n <= chars.length) return chars.slice(0, Math.max(0, n)).join('');
  const fill = chars[chars.length - 1] ?? 'a';
  return chars.join('') + fill.repeat(n - chars.length);
}

/** Every mutant of `value` (valid for `schema`), depth-first. */
export function mutantsOf(schema: Schema, value: unknown): Mutant[] {
  const out: Mutant[] = [];
  const add = (label: string, v: unknown): void => void out.push({ label, json: JSON.stringify(v) });
  const raw = (label: string, json: string): void => void out.push({ label, json });

  const visit = (s0: Schema, v: unknown, path: Path, depth: number): void => {
    const s = resolveRef(s0, schema);
    const at = '/' + path.join('/');
    const put = (label: string, nv: unknown): void => add(`${at}: ${label}`, setAt(value, path, nv));
    // JSON kinds the member does not take, and coercible look-alikes.
    for (const [kind, sample] of [
      ['null', null],
      ['integer', 7],
      ['number', 2.5],
      ['string', 'text'],
      ['boolean', true],
      ['array', []],
      ['object', {}],
    ] as const) {
      if (!typesOf(s).includes(kind)) put(`${kind} instead`, sample);
    }
    if (typeof v === 'number') put('the number as a string', String(v));
    if (typeof v === 'boolean') put('the boolean as a string', String(v));
    if (Array.isArray(s['enum'])) {
      put('a value outside the enum', 'zz-not-a-member');
      for (const e of s['enum'] as unknown[]) put(`enum value ${JSON.stringify(e)}`, e);
      if ((s['enum'] as unknown[]).some((e) => typeof e === 'number'))
        put('an enum number as a string', String((s['enum'] as unknown[])[0]));
    }
    if ('const' in s) put('another value than the const', typeof s['const'] === 'boolean' ? !s['const'] : 'zz-other');
    if (typeof v === 'string') {
      for (const [k, d] of [
        ['minLength', -1],
        ['minLength', 0],
        ['maxLength', 0],
        ['maxLength', 1],
      ] as const) {
        if (typeof s[k] === 'number')
          put(`${k} ${s[k]}${d >= 0 ? ' + ' + d : ' - 1'}`, stretch(v, (s[k] as number) + d));
      }
      if (typeof s['maxLength'] === 'number' && (s['maxLength'] as number) > 0) {
        put('maxLength in astral code points', '😀'.repeat(s['maxLength'] as number));
        put('maxLength + 1 in astral code points', '😀'.repeat((s['maxLength'] as number) + 1));
      }
      if (s['pattern'] !== undefined || s['allOf'] !== undefined) {
        for (const t of ['', ' ', 'A', 'zz', '0', v + ' ', ' ' + v, v.toLowerCase(), v.toUpperCase(), '..', '*'])
          put(`pattern probe ${JSON.stringify(t)}`, t);
      }
      if (s['format'] === 'date-time')
        for (const t of [
          '2024-05-01',
          '2024-02-30T10:00:00Z',
          '2024-05-01 10:00:00Z',
          '2024-05-01T10:00:00',
          '2024-05-01T24:00:00Z',
          '2016-12-31T23:59:60Z',
          '2016-12-31T23:59:60.5Z',
          '2024-05-01\t10:00:00Z',
          '2024-05-01T10:00:00+0100',
          '2024-05-01T10:00:00+01',
        ])
          put(`date-time probe ${t}`, t);
      if (s['format'] === 'email')
        for (const t of ['a@b', 'a@b.co', 'no-at-sign', 'a b@c.com']) put(`email probe ${t}`, t);
      if (s['format'] === 'uri')
        for (const t of ['example.com', 'https://example.com', 'urn:isbn:123', 'http://localhost'])
          put(`uri probe ${t}`, t);
    }
    if (typeof v === 'number') {
      const step = typesOf(s).includes('integer') ? 1 : 0.5;
      if (typeof s['minimum'] === 'number')
        for (const d of [-step, 0]) put(`minimum ${d}`, (s['minimum'] as number) + d);
      if (typeof s['maximum'] === 'number')
        for (const d of [0, step]) put(`maximum + ${d}`, (s['maximum'] as number) + d);
      if (typeof s['exclusiveMinimum'] === 'number')
        for (const d of [0, step]) put(`exclusiveMinimum + ${d}`, (s['exclusiveMinimum'] as number) + d);
      if (typeof s['exclusiveMaximum'] === 'number')
        for (const d of [0, -step]) put(`exclusiveMaximum ${d}`, (s['exclusiveMaximum'] as number) + d);
      if (typeof s['multipleOf'] === 'number')
        for (const d of [0, 1]) put(`multipleOf + ${d}`, (s['multipleOf'] as number) * 3 + d);
      if (typesOf(s).includes('integer')) put('a fraction', v + 0.5);
    }
    if (Array.isArray(v)) {
      const first = v[0];
      if (typeof s['minItems'] === 'number')
        put(`minItems - 1`, v.slice(0, Math.max(0, (s['minItems'] as number) - 1)));
      if (typeof s['maxItems'] === 'number' && first !== undefined) {
        const grown = [...v];
        while (grown.length <= (s['maxItems'] as number)) grown.push(first);
        put('maxItems + 1', grown);
      }
      if (first !== undefined) put('a repeated item', [...v, first]);
      put('an array holding an array', [v]);
      if (depth < MAX_DEPTH && first !== undefined && s['items'] !== undefined)
        visit(s['items'] as Schema, first, [...path, 0], depth + 1);
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      const props = (s['properties'] ?? {}) as Record<string, Schema>;
      for (const k of Array.isArray(s['required']) ? (s['required'] as string[]) : [])
        if (k in obj) add(`${at}/${k}: required member removed`, deleteAt(value, [...path, k]));
      put('an unknown member', { ...obj, zz_unknown_member: 1 });
      for (const name of ['__proto__', 'constructor', 'prototype']) {
        const text = JSON.stringify(setAt(value, path, { ...obj, zz_marker: 0 })).replace(
          '"zz_marker":0',
          `"${name}":{"polluted":true}`,
        );
        raw(`${at}: forbidden member ${name}`, text);
        raw(
          `${at}: forbidden member ${name} holding a string`,
          text.replace(`"${name}":{"polluted":true}`, `"${name}":"x"`),
        );
      }
      if (Object.keys(obj).length > 0 && Object.keys(props).length === 0) put('an empty object', {});
      if (depth < MAX_DEPTH) {
        for (const [k, child] of Object.entries(obj)) {
          const cs =
            props[k] ??
            (typeof s['additionalProperties'] === 'object' ? (s['additionalProperties'] as Schema) : undefined);
          if (cs !== undefined) visit(cs, child, [...path, k], depth + 1);
        }
      }
    }
  };
  visit(schema, value, [], 0);
  return out;
}

export { codePoints };
