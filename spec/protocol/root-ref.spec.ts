/**
 * A schema that refers to its own root (`{"$ref":"#"}`, the generator's form for a recursive root
 * DTO) compiles: Ajv needs an `$id` to resolve `#` with `addUsedSchema: false`, so lib/protocol
 * compiles it under a synthetic one, which is never registered and so never reachable from another
 * schema. The compiled value is the schema as authored, without that `$id`.
 */
import { compileSchemaValue, ToolError } from '../../lib/protocol';

const tree = {
  type: 'object',
  properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  required: ['label'],
  additionalProperties: false,
};

describe('a schema referring to its root with "#"', () => {
  it('compiles, recurses through the root and keeps the authored value', () => {
    const compiled = compileSchemaValue(tree);
    expect(compiled.validate({ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] })).toEqual([]);
    expect(compiled.validate({ label: 'a', children: [{ children: [] }] })[0]?.path).toEqual(['children', 0]);
    expect(compiled.value).toEqual(tree);
  });

  it('keeps the synthetic $id unreachable from other schemas', () => {
    compileSchemaValue(tree);
    for (const ref of ['urn:scope-tool:root', 'urn:scope-tool:root#/properties/children']) {
      expect(() => compileSchemaValue({ type: 'object', properties: { x: { $ref: ref } } })).toThrow(ToolError);
    }
  });

  it('leaves a schema with its own $id to that $id', () => {
    const own = { $id: 'urn:example:tree', ...tree };
    expect(compileSchemaValue(own).validate({ label: 'a', children: [{ label: 'b' }] })).toEqual([]);
  });
});
