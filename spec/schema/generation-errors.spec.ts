import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { reported, located } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'broken', 'tsconfig.json') });
});

describe('generateManifest contradictions', () => {
  it('fails @IsDate() without @Type(() => Date), naming the field and the fix, at the decorator line', () => {
    expect(result.errors.map(located)).toContainEqual({
      tool: 'reserve',
      reported: 'Slot.startsAt: date_needs_type @IsDate',
      file: 'broken.tools.ts',
      line: 5,
    });
  });

  it('fails @ValidateNested() on a class member without @Type, naming the class to pass', () => {
    expect(result.errors.map(reported)).toContain('Letter.street: nested_needs_type @ValidateNested');
  });

  it('fails an @Is<Type> that contradicts the TypeScript type', () => {
    expect(result.errors.map(reported)).toContain('Counter.count: type_check_contradiction @IsString');
  });

  it('refuses @Matches flags other than none or u', () => {
    expect(result.errors.map(reported)).toContain('Counter.code: pattern_flags @Matches');
  });

  it('refuses a tool name outside ^[A-Za-z0-9_-]{1,64}$', () => {
    expect(result.errors.map(located)).toContainEqual({
      reported: 'BrokenTools.badName: tool_name_invalid @Tool',
      file: 'broken.tools.ts',
      line: 38,
    });
  });

  it('reports exactly these five errors and leaves the failing tools out of the manifest', () => {
    expect(result.errors).toHaveLength(5);
    expect(result.manifest.tools.map((t) => t.name)).toEqual(['fine']);
  });
});
