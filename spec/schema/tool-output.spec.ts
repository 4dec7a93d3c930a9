/**
 * Output contracts in the generator (issue 14 row 1): `@Tool({ output })`, or a DTO class named by
 * the declared return type (`X`, `Promise<X>`), gives the manifest an `output_schema` derived by the
 * input DTO rules and a `source.output`; any other return type declares no output contract.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { located } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'tool-output', 'tsconfig.json') });
});

const toolOf = (name: string) => result.manifest.tools.find((t) => t.name === name);

const noteResult = {
  type: 'object',
  properties: { id: { type: 'string' }, words: { type: 'integer', minimum: 0 } },
  required: ['id', 'words'],
  additionalProperties: false,
};

describe('output schemas in the generator', () => {
  it('derives the output schema of @Tool({ output })', () => {
    expect(toolOf('given')?.definition.output_schema).toMatchObject(noteResult);
    expect(toolOf('given')?.source).toMatchObject({ input: 'NoteInput', output: 'NoteResult' });
  });

  it('derives it from a declared return type Promise<NoteResult>', () => {
    expect(toolOf('returned')?.definition.output_schema).toMatchObject(noteResult);
    expect(toolOf('returned')?.source.output).toBe('NoteResult');
  });

  it('declares no output contract for a class without decorated members or a string', () => {
    for (const name of ['plain', 'text']) {
      expect(toolOf(name)?.definition.output_schema).toBeUndefined();
      expect(toolOf(name)?.source).not.toHaveProperty('output');
    }
  });

  it('fails a tool whose output option is not a class name it can resolve', () => {
    expect(result.errors.map(located)).toEqual([
      { reported: 'OutputTools.computed: tool_output_not_class @Tool', file: 'output.tools.ts', line: 44 },
    ]);
    expect(toolOf('computed')).toBeUndefined();
  });
});
