/**
 * Messages of the decorator layer built in more than one file. The sentences are tested once, in
 * spec/decorators/messages.spec.ts; other tests assert codes.
 * @internal
 */
import { ToolError } from '../protocol';

/**
 * A decorator was applied as a standard (TC39) decorator, which is what TypeScript and esbuild
 * compile when tsconfig.json lacks `experimentalDecorators`: scope-tool's decorators are the
 * experimental kind (docs/install.md).
 * @param decorator `@Tool()`, `@Toolset()`, `@Authorize()`
 * @param name the decorated class or method, as the decorator context names it
 * @internal
 */
export function standardDecorator(decorator: string, name: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${decorator} on ${name}: it ran as a standard (TC39) decorator because the compiler was not told to ` +
      'compile experimental decorators; set "experimentalDecorators": true and "emitDecoratorMetadata": true ' +
      'in the compilerOptions of tsconfig.json (see docs/install.md)',
  );
}
