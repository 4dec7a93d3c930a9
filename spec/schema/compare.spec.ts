import { compareManifests, serializeManifest, type Manifest, type ManifestTool } from '../../lib/schema';

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

describe('serializeManifest', () => {
  it('writes 2-space JSON with a final newline and tools sorted by name', () => {
    const text = serializeManifest({ version: 1, tools: [entry('b'), entry('a')] });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "version": 1,\n  "tools": [\n    {\n      "name": "a"')).toBe(true);
  });
});
