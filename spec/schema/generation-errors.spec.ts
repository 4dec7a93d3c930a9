import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'broken', 'tsconfig.json') });
});

describe('generateManifest contradictions', () => {
  it('fails @IsDate() without @Type(() => Date), naming the field and the fix, at the decorator line', () => {
    expect(result.errors).toContainEqual({
      tool: 'reserve',
      message:
        'Slot.startsAt: @IsDate() needs @Type(() => Date) so the decoder turns the ISO 8601 string into a Date; add @Type(() => Date)',
      file: 'broken.tools.ts',
      line: 5,
    });
  });

  it('fails @ValidateNested() on a class member without @Type, naming the class to pass', () => {
    expect(result.errors.map((e) => e.message)).toContain(
      'Letter.street: @ValidateNested() needs @Type(() => Street) so the decoder builds Street objects; add @Type(() => Street)',
    );
  });

  it('fails an @Is<Type> that contradicts the TypeScript type', () => {
    expect(result.errors.map((e) => e.message)).toContain(
      'Counter.count: @IsString() contradicts the TypeScript type number; change the type or the decorator',
    );
  });

  it('refuses @Matches flags other than none or u', () => {
    expect(result.errors.map((e) => e.message)).toContain(
      'Counter.code: @Matches flags "gi" cannot be expressed in JSON Schema (patterns always use the u flag); ' +
        'remove the flags and spell the pattern out (drop the g flag: it only makes the RegExp remember lastIndex between calls, ' +
        'so a repeated value can fail; for the i flag, write both cases, for example [Aa])',
    );
  });

  it('refuses a tool name outside ^[A-Za-z0-9_-]{1,64}$', () => {
    expect(result.errors).toContainEqual({
      message:
        'BrokenTools.badName: tool name "bad name" must match ^[A-Za-z0-9_-]{1,64}$; rename it with @Tool({ name })',
      file: 'broken.tools.ts',
      line: 38,
    });
  });

  it('reports exactly these five errors and leaves the failing tools out of the manifest', () => {
    expect(result.errors).toHaveLength(5);
    expect(result.manifest.tools.map((t) => t.name)).toEqual(['fine']);
  });
});
