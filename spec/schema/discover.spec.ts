/**
 * Discovery of `@Tool` methods (lib/schema/discover.ts) and one name per tool (lib/schema/generate.ts):
 * options the generator cannot read, an input that is not a class, and a tool name used twice fail
 * generation at the method, and leave only the readable tool in the manifest.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { located } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'discover', 'tsconfig.json') });
});

describe('discovering @Tool methods', () => {
  it('refuses options that are not an object literal, at the argument', () => {
    expect(result.errors.map(located)).toContainEqual({
      reported: 'DiscoverTools.optionsByName: tool_options_not_literal @Tool',
      file: 'discover.tools.ts',
      line: 13,
    });
  });

  it('refuses a name that is not a string literal, at the property', () => {
    expect(result.errors.map(located)).toContainEqual({
      reported: 'DiscoverTools.nameNotLiteral: tool_option_not_string @Tool',
      file: 'discover.tools.ts',
      line: 16,
    });
  });

  it('refuses an input parameter whose type is not a class', () => {
    expect(result.errors.map(located)).toContainEqual({
      reported: 'DiscoverTools.plainObject: input_not_class',
      file: 'discover.tools.ts',
      line: 20,
    });
  });

  it('refuses a second tool of one name, for that tool, at the second method (its @Tool line)', () => {
    expect(result.errors.map(located)).toContainEqual({
      tool: 'note',
      reported: 'DiscoverTools.noteAgain: duplicate_tool_name @Tool',
      file: 'discover.tools.ts',
      line: 29,
    });
  });

  it('reports exactly these four errors and keeps the first note tool', () => {
    expect(result.errors).toHaveLength(4);
    expect(result.manifest.tools.map((t) => t.name)).toEqual(['note']);
    expect(result.manifest.tools[0]?.source.method).toBe('note');
  });
});
