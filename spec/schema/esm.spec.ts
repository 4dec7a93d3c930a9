/**
 * In an ESM project (`"type": "module"`, `module: nodenext`) typescript-json-schema
 * names a class of another module `import("/abs/label",{with:{"resolution-mode":"import"}}).Label`;
 * the generator looked its decorators up by the plain name, missed, and wrote the nested schema
 * without its constraints (no maxLength, no enum), while the CommonJS twin had them. Definitions are
 * now keyed by their plain names, and a nested class whose definition is not found fails generation.
 */
import path from 'node:path';
import { JsonSchemaGenerator } from 'typescript-json-schema';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { located } from './verdicts';

const FIXTURES = path.join(__dirname, 'fixtures');
let esm: GenerationResult;
let cjs: GenerationResult;
beforeAll(() => {
  esm = generateManifest({ tsconfig: path.join(FIXTURES, 'esm', 'tsconfig.json') });
  cjs = generateManifest({ tsconfig: path.join(FIXTURES, 'esm-twin', 'tsconfig.json') });
});

const LABEL = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 8 }, tone: { type: 'string', enum: ['warm', 'cold'] } },
  additionalProperties: false,
  required: ['name', 'tone'],
};

describe('an ESM project gets the manifest of its CommonJS twin', () => {
  it('generates the same manifest (schemas, sources, fingerprints) as the CommonJS twin, without errors', () => {
    expect(esm.errors).toEqual([]);
    expect(cjs.errors).toEqual([]);
    expect(esm.warnings).toEqual(cjs.warnings);
    expect(esm.manifest).toEqual(cjs.manifest);
  });

  it("keeps a nested class's constraints (they were dropped: name had no maxLength, tone no enum)", () => {
    const schema = esm.manifest.tools.find((t) => t.name === 'tag')?.definition.input_schema as Record<string, unknown>;
    const properties = schema['properties'] as Record<string, unknown>;
    expect(properties['label']).toEqual(LABEL);
    expect(properties['more']).toEqual({ type: 'array', items: LABEL });
  });

  it('names a recursive class of another module by its plain name under $defs; no file path reaches the manifest', () => {
    const schema = esm.manifest.tools.find((t) => t.name === 'tag')?.definition.input_schema as Record<string, unknown>;
    expect((schema['properties'] as Record<string, unknown>)['category']).toEqual({ $ref: '#/$defs/Category' });
    expect(Object.keys(schema['$defs'] as object)).toEqual(['Category']);
    expect(JSON.stringify(esm.manifest)).not.toMatch(/import\(|resolution-mode|fixtures/);
  });
});

describe('a definition the generator cannot match fails generation', () => {
  it('fails naming the root, the nested class and its definition name, instead of writing Label without constraints', () => {
    // A definition name of a form the generator does not know (as the ESM one was), for the nested class Label.
    const original = JsonSchemaGenerator.prototype.getSchemaForSymbol;
    const spy = jest.spyOn(JsonSchemaGenerator.prototype, 'getSchemaForSymbol').mockImplementation(function (
      this: JsonSchemaGenerator,
      ...args
    ) {
      const schema = original.apply(this, args);
      return JSON.parse(
        JSON.stringify(schema)
          .replace(/definitions\/Label"/g, 'definitions/label.Label"')
          .replace(/"Label":/, '"label.Label":'),
      );
    });
    let result: GenerationResult;
    try {
      result = generateManifest({ tsconfig: path.join(FIXTURES, 'esm-twin', 'tsconfig.json') });
    } finally {
      spy.mockRestore();
    }
    expect(result.manifest.tools).toEqual([]);
    expect(result.errors.map(located)).toEqual([
      { tool: 'tag', reported: 'Tag: nested_definition_missing', file: 'label.ts', line: 12 },
    ]);
  });
});
