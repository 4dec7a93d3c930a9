import {
  compareManifests,
  serializeManifest,
  toolDifferences,
  type Manifest,
  type ManifestTool,
} from '../../lib/schema';

function entry(name: string, fingerprint = 'sha256:00'): ManifestTool {
  return {
    name,
    definition: { name, input_schema: { type: 'object', properties: {}, additionalProperties: false } },
    source: { file: 'a.ts', class: 'A', method: name, input: null },
    fingerprint,
    warnings: [],
  };
}

describe('compareManifests', () => {
  const generated: Manifest = { version: 1, tools: [entry('a'), entry('b'), entry('c')] };

  it('finds nothing when the file equals the generated manifest', () => {
    expect(compareManifests(generated, JSON.parse(serializeManifest(generated)))).toEqual({
      missing: [],
      extra: [],
      stale: [],
    });
  });

  it('names stale, missing and extra tools, each list sorted', () => {
    const file = { version: 1, tools: [entry('z'), entry('c', 'sha256:ff'), entry('a')] };
    expect(compareManifests(generated, JSON.parse(JSON.stringify(file)))).toEqual({
      missing: ['b'],
      extra: ['z'],
      stale: ['c'],
    });
  });

  it('treats a file that is not a manifest as missing every tool', () => {
    expect(compareManifests(generated, 'nonsense')).toEqual({ missing: ['a', 'b', 'c'], extra: [], stale: [] });
  });
});

describe('toolDifferences', () => {
  const bounded = (max: number, fingerprint = 'sha256:00'): ManifestTool => {
    const e = entry('a', fingerprint);
    const properties = { 'a/b': { type: 'integer', maximum: max }, title: { type: 'string' } };
    return { ...e, definition: { ...e.definition, input_schema: { type: 'object', properties, required: ['title'] } } };
  };
  const file = (t: ManifestTool): unknown => JSON.parse(JSON.stringify(t));

  it('finds nothing in an entry equal to the generated one', () => {
    expect(toolDifferences(bounded(50), file(bounded(50)))).toEqual([]);
  });

  it('names each differing keyword by its JSON Pointer (RFC 6901 escapes) with both values', () => {
    const stale = file(bounded(50, 'sha256:ff')) as { definition: { input_schema: Record<string, unknown> } };
    delete (stale.definition.input_schema['properties'] as Record<string, unknown>)['title'];
    stale.definition.input_schema['required'] = [];
    // The fingerprint differs too, and is left out: the keywords say more.
    expect(toolDifferences(bounded(100), stale)).toEqual([
      { pointer: '/definition/input_schema/properties/a~1b/maximum', inSources: 100, inFile: 50 },
      { pointer: '/definition/input_schema/properties/title', inSources: { type: 'string' }, inFile: undefined },
      { pointer: '/definition/input_schema/required', inSources: ['title'], inFile: [] },
    ]);
  });

  it('names the fingerprint when nothing else differs, and the whole entry when the file has no object', () => {
    expect(toolDifferences(bounded(50), file(bounded(50, 'sha256:ff')))).toEqual([
      { pointer: '/fingerprint', inSources: 'sha256:00', inFile: 'sha256:ff' },
    ]);
    expect(toolDifferences(bounded(50), 'x')).toEqual([expect.objectContaining({ pointer: '', inFile: 'x' })]);
  });
});

describe('serializeManifest', () => {
  it('writes 2-space JSON with a final newline and tools sorted by name', () => {
    const text = serializeManifest({ version: 1, tools: [entry('b'), entry('a')] });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "version": 1,\n  "tools": [\n    {\n      "name": "a"')).toBe(true);
  });
});
