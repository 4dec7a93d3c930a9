/**
 * Regression: `scope-tool generate` wrote a manifest with 0 warnings for a DTO property named after
 * an Object.prototype member (`valueOf`), though class-validator fails every call of such a DTO.
 * Generation now fails naming `Dto.member`, from the decoder's own list (lib/dto/forbidden.ts);
 * the fix it names (another property, `@Expose({ name: 'valueOf' })`) generates and decodes.
 */
import 'reflect-metadata';
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { dtoInput } from '../../lib/dto';
import type { JsonObject } from '../../lib/protocol';
import { ProtoRenamed } from './fixtures/proto-members/members.tools';
import { reported } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'proto-members', 'tsconfig.json') });
});

const errorsOf = (tool: string): string[] => result.errors.filter((e) => e.tool === tool).map(reported);

describe('generation refuses DTO properties named after Object.prototype members', () => {
  it('fails ProtoIn.valueOf and leaves the tool out of the manifest', () => {
    expect(errorsOf('proto_in')).toEqual([expect.stringMatching(/^ProtoIn\.valueOf: /)]);
    expect(result.manifest.tools.map((t) => t.name)).not.toContain('proto_in');
  });

  it('names each such member of ProtoMany, at its declaration line', () => {
    expect(errorsOf('proto_many')).toEqual([
      expect.stringMatching(/^ProtoMany\.hasOwnProperty: /),
      expect.stringMatching(/^ProtoMany\.toLocaleString: /),
    ]);
    expect(result.errors.filter((e) => e.tool === 'proto_many').map((e) => e.line)).toEqual([14, 16]);
  });

  it('generates the renamed form with the wire name valueOf, and the decoder takes that schema', () => {
    const tool = result.manifest.tools.find((t) => t.name === 'proto_renamed');
    expect(tool?.warnings).toEqual([]);
    const schema = tool?.definition.input_schema as JsonObject;
    expect(Object.keys(schema['properties'] as JsonObject)).toEqual(['valueOf']);
    expect(dtoInput(ProtoRenamed, { inputSchema: schema }).decode({ valueOf: 'x' }).value).toBe('x');
  });

  it('reports exactly these three errors', () => {
    expect(result.errors).toHaveLength(3);
  });
});
