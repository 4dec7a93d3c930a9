import * as vm from 'node:vm';
import { MAX_DEPTH, canonicalJson } from '../../lib/protocol/json';
import { plainJsonText, toJsonData, toJsonText } from '../../lib/protocol/json-data';

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('toJsonData', () => {
  it('returns compact text in authored member order and a deep-frozen copy', () => {
    const data = toJsonData(JSON.parse('{"z":1,"a":[true,null,"x"],"__proto__":{"ok":1}}'));
    expect(data).toMatchObject({ ok: true, text: '{"z":1,"a":[true,null,"x"],"__proto__":{"ok":1}}' });
    if (!data.ok) return;
    expect(Object.keys(data.value as object)).toEqual(['z', 'a', '__proto__']);
    expect(Object.isFrozen((data.value as { a: unknown }).a)).toBe(true);
    expect(Object.getPrototypeOf(data.value)).toBe(Object.prototype);
  });

  it(`handles nesting of ${MAX_DEPTH} levels and refuses one more, without a RangeError`, () => {
    expect(toJsonData(nested(MAX_DEPTH)).ok).toBe(true);
    const deeper = toJsonData(nested(MAX_DEPTH + 1));
    expect(deeper.ok).toBe(false);
    expect(!deeper.ok && deeper.reason).toContain(`nesting exceeds ${MAX_DEPTH} levels`);
  });

  it('shares nothing with the source', () => {
    const source = { list: [1] };
    const data = toJsonData(source);
    source.list.push(2);
    expect(data.ok && data.text).toBe('{"list":[1]}');
    expect(data.ok && (data.value as { list: number[] }).list).toEqual([1]);
  });

  it('accepts a shared (non-cyclic) reference twice', () => {
    const shared = { a: 1 };
    expect(toJsonData({ x: shared, y: shared })).toMatchObject({ ok: true, text: '{"x":{"a":1},"y":{"a":1}}' });
  });

  it('refuses a cyclic value, naming where the cycle closes', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toJsonData(cyclic)).toEqual({ ok: false, reason: '/self: the value is cyclic' });
  });

  it('refuses class instances unless asked, and lone surrogates in names and strings', () => {
    class Point {
      x = 1;
    }
    expect(toJsonData(new Point()).ok).toBe(false);
    expect(toJsonData(new Point(), { allowInstances: true })).toMatchObject({ ok: true, text: '{"x":1}' });
    expect(toJsonData({ '\ud800': 1 }).ok).toBe(false);
    expect(toJsonData(['\udc00']).ok).toBe(false);
  });

  it('reports a throwing getter instead of throwing', () => {
    const hostile = {
      get boom(): never {
        throw new Error('getter');
      },
    };
    expect(toJsonData(hostile)).toEqual({ ok: false, reason: 'reading the value threw: getter' });
  });
});

describe('plain objects of another realm (a vm context, a JSON.parse of another realm)', () => {
  const foreign = <T>(code: string): T => vm.runInNewContext(code) as T;

  it("are JSON data as this realm's are", () => {
    const value = foreign<object>('JSON.parse(\'{"a":1,"b":[{"c":null}],"d":{}}\')');
    expect(Object.getPrototypeOf(value)).not.toBe(Object.prototype);
    const text = '{"a":1,"b":[{"c":null}],"d":{}}';
    expect(toJsonData(value)).toMatchObject({ ok: true, text });
    expect(toJsonText(value)).toMatchObject({ ok: true, text });
    expect(plainJsonText(value)).toBe(text);
    expect(canonicalJson(value)).toBe(text);
    expect(toJsonData(foreign('Object.create(null)'))).toMatchObject({ ok: true, text: '{}' });
  });

  it('class instances, Maps and Dates of another realm are still refused', () => {
    for (const code of ['new (class Point { constructor() { this.x = 1; } })()', 'new Map([[1, 2]])', 'new Date(0)']) {
      const value = foreign<object>(code);
      expect(toJsonData(value).ok).toBe(false);
      expect(toJsonText(value).ok).toBe(false);
      expect(plainJsonText(value)).toBeUndefined();
      expect(() => canonicalJson(value)).toThrow(TypeError);
    }
    // A prototype that claims to be an Object.prototype but has a prototype itself is not plain.
    const named = Object.defineProperty(function () {}, 'name', { value: 'Object' });
    const claims = Object.create(Object.create(null), { constructor: { value: named } });
    expect(toJsonData(Object.create(claims)).ok).toBe(false);
  });
});
