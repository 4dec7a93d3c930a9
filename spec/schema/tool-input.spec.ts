/**
 * `@Tool({ input })` in the generator (lib/schema/discover.ts): the container uses the option over
 * design:paramtypes, and the manifest records the first parameter's class, so the generator reads the
 * option and fails the tool, at the option, where the two name different classes (or one says none),
 * or where the option names no class it can resolve.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { located } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'tool-input', 'tsconfig.json') });
});

const sourceOf = (name: string) => result.manifest.tools.find((t) => t.name === name)?.source;

describe('@Tool({ input }) in the generator', () => {
  it('records the parameter class the option names, also through a namespace import and an alias', () => {
    expect(sourceOf('given')).toMatchObject({ method: 'given', input: 'NoteInput' });
    expect(sourceOf('by_namespace')).toMatchObject({ method: 'byNamespace', input: 'TicketInput' });
    expect(result.manifest.tools.find((t) => t.name === 'given')?.definition.input_schema).toMatchObject({
      properties: { text: { type: 'string', minLength: 1, maxLength: 80 } },
      required: ['text'],
    });
  });

  it('records no input for input: null on a method without parameters', () => {
    expect(sourceOf('none')).toMatchObject({ method: 'none', input: null });
  });

  it('fails a tool whose option and parameter name different classes, or where one says none, at the option', () => {
    const errors = result.errors.map(located);
    expect(errors).toContainEqual({
      reported: 'InputTools.other: tool_input_mismatch @Tool',
      file: 'input.tools.ts',
      line: 35,
    });
    expect(errors).toContainEqual({
      reported: 'InputTools.extra: tool_input_mismatch @Tool',
      file: 'input.tools.ts',
      line: 40,
    });
    expect(errors).toContainEqual({
      reported: 'InputTools.nulled: tool_input_mismatch @Tool',
      file: 'input.tools.ts',
      line: 45,
    });
  });

  it('fails a tool whose option is not a class name the generator can resolve', () => {
    expect(result.errors.map(located)).toContainEqual({
      reported: 'InputTools.computed: tool_input_not_class @Tool',
      file: 'input.tools.ts',
      line: 50,
    });
  });

  it('reports exactly these four errors and leaves the failed tools out of the manifest', () => {
    expect(result.errors).toHaveLength(4);
    expect(result.manifest.tools.map((t) => t.name).sort()).toEqual(['by_namespace', 'given', 'none']);
  });
});
