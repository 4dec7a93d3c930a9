import { MAX_DEPTH } from '../../lib/protocol/json';
import { toJsonData } from '../../lib/protocol/json-data';

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
