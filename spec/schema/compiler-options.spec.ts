/**
 * generateManifest checks the compiler options the decorators need (lib/schema/generate.ts
 * decoratorSettings). Regression (new-user trial, finding 7): generate succeeded on a project without
 * experimentalDecorators / emitDecoratorMetadata, and the program then failed at start-up.
 */
import path from 'node:path';
import { generateManifest } from '../../lib/schema';
import { reported } from './verdicts';

const FIXTURE = path.join(__dirname, 'fixtures', 'compiler-options');

describe('generateManifest and the decorator compiler options', () => {
  it('fails a project without experimentalDecorators, naming its tsconfig', () => {
    const result = generateManifest({ tsconfig: path.join(FIXTURE, 'tsconfig.no-experimental.json') });
    expect(result.errors.map(reported)).toEqual(['tsconfig.no-experimental.json: experimental_decorators_off']);
    expect(result.errors[0]?.message).toContain('"emitDecoratorMetadata"');
    expect(result.warnings.map(reported)).not.toContain('tsconfig.no-experimental.json: decorator_metadata_off');
  });

  it('warns without emitDecoratorMetadata, naming the first tools that do not name their input', () => {
    const result = generateManifest({ tsconfig: path.join(FIXTURE, 'tsconfig.no-metadata.json') });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map(reported)).toEqual(['tsconfig.no-metadata.json: decorator_metadata_off']);
    const message = result.warnings[0]?.message ?? '';
    expect(['OptionTools.first', 'OptionTools.second', 'OptionTools.third'].every((m) => message.includes(m))).toBe(
      true,
    );
    expect(message).toContain('and 1 more');
    expect(message).not.toContain('OptionTools.named');
    expect(result.manifest.tools).toHaveLength(6);
  });

  it('says nothing without emitDecoratorMetadata when every @Tool names its input', () => {
    const result = generateManifest({ tsconfig: path.join(FIXTURE, 'tsconfig.named.json') });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.manifest.tools.map((t) => t.name)).toEqual(['ping', 'ticket']);
  });

  it('checks the options given with a list of files too', () => {
    const result = generateManifest({
      files: [path.join(FIXTURE, 'named.tools.ts')],
      compilerOptions: { experimentalDecorators: false, types: [], lib: ['lib.es2022.d.ts'] },
    });
    expect(result.errors.map(reported)).toEqual(['compilerOptions: experimental_decorators_off']);
  });
});
