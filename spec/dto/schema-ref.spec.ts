import { localRef } from '../../lib/dto/schema-ref';

describe('localRef', () => {
  const root = {
    $defs: { Address: { type: 'object' }, 'a/b': { type: 'string' }, list: [1] },
    definitions: { Old: { type: 'integer' } },
  };

  it('resolves the root, $defs and definitions pointers, with RFC 6901 escapes', () => {
    expect(localRef(root, '#')).toBe(root);
    expect(localRef(root, '#/$defs/Address')).toBe(root.$defs.Address);
    expect(localRef(root, '#/definitions/Old')).toBe(root.definitions.Old);
    expect(localRef(root, '#/$defs/a~1b')).toBe(root.$defs['a/b']);
  });

  it('answers undefined for a remote reference, a missing target, or one that is not a schema object', () => {
    expect(localRef(root, 'https://example.com/s.json')).toBeUndefined();
    expect(localRef(root, '#/$defs/Missing')).toBeUndefined();
    expect(localRef(root, '#/$defs/list')).toBeUndefined();
    expect(localRef(root, '#/$defs/toString')).toBeUndefined();
  });
});
