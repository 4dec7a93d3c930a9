/**
 * Tuple members used to come out in draft-07 form (`items: [a, b]`), which the draft 2020-12
 * compiler refuses, so the manifest generated fine and then failed at start-up.
 */
import * as path from 'node:path';
import { compileSchemaValue } from '../../lib/protocol';
import type { JsonObject } from '../../lib/protocol';
import { generateManifest } from '../../lib/schema';
import { reported } from './verdicts';

describe('tuple members', () => {
  const dir = path.join(__dirname, 'fixtures', 'tuple');
  const result = generateManifest({
    files: [path.join(dir, 'tuple.tools.ts')],
    root: dir,
    compilerOptions: { types: [], lib: ['lib.es2022.d.ts'] },
  });

  it('are written with prefixItems, and the schema compiles', () => {
    expect(result.errors).toEqual([]);
    const schema = result.manifest.tools[0].definition.input_schema as JsonObject;
    const point = (schema.properties as JsonObject).point as JsonObject;
    expect(point.type).toBe('array');
    expect(point.prefixItems).toEqual([{ type: 'number' }, { type: 'number' }]);
    expect(point.items).toBeUndefined();
    const compiled = compileSchemaValue(schema);
    expect(compiled.validate({ point: [1, 2] })).toEqual([]);
    expect(compiled.validate({ point: [1, 'x'] }).length).toBeGreaterThan(0);
    expect(compiled.validate({ point: [1, 2], pair: ['a', 1] })).toEqual([]);
  });
});

describe('property initializers that break their own constraints', () => {
  const dir = path.join(__dirname, 'fixtures', 'tuple');
  const result = generateManifest({
    files: [path.join(dir, 'defaults.tools.ts')],
    root: dir,
    compilerOptions: { types: [], lib: ['lib.es2022.d.ts'] },
  });

  it('fail generation naming the member, the default and the fix; a valid default passes', () => {
    expect(result.manifest.tools).toEqual([]);
    expect(result.errors.map(reported)).toEqual(['BadDefaultInput.low: default_breaks_constraints']);
  });
});
