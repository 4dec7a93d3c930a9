import { execFileSync } from 'node:child_process';
import { defineConfig } from 'tsup';

/** The library's entry files by entry name (the first build below). */
const LIBRARY: Record<string, string> = {
  index: 'lib/index.ts',
  decorators: 'lib/decorators/index.ts',
  nest: 'lib/nest/index.ts',
  mcp: 'lib/mcp/index.ts',
  runtime: 'lib/runtime/index.ts',
  openai: 'lib/openai.ts',
  anthropic: 'lib/anthropic.ts',
  gemini: 'lib/gemini.ts',
};

/** Each entry's declarations as `npm run typecheck` writes them under build/types/ (run first: see below). */
const DECLARATIONS = Object.fromEntries(
  Object.entries(LIBRARY).map(([name, file]) => [name, `build/types/${file.replace(/\.ts$/, '.d.ts')}`]),
);

// Decorator metadata (design:paramtypes) needs emitDecoratorMetadata, which esbuild lacks: tsup
// switches to @swc/core for it when tsconfig.json enables it (a dev dependency).
export default defineConfig((cli) => {
  // The declarations are rolled up from build/types/: `npm run typecheck` brings it up to date first
  // (about 7 s when nothing changed), so `tsup` alone rolls up current declarations, and a
  // type error stops the build. `tsup --no-dts` (npm run build:js) skips both.
  if (cli.dts !== false) execFileSync('npm', ['run', 'typecheck', '--silent'], { stdio: 'inherit' });
  return [
    {
      // Library entries. Optional integrations (NestJS, MCP) are their own entries, so that
      // `scope-tool` loads without their packages installed; each provider's wire format is its own
      // entry too (lib/openai.ts, lib/anthropic.ts, lib/gemini.ts).
      entry: LIBRARY,
      format: ['cjs', 'esm'],
      // Rolled up from the declarations `npm run typecheck` writes (tsconfig.types.json): not a second
      // type check of lib/.
      dts: { entry: DECLARATIONS },
      splitting: true,
      sourcemap: true,
      target: 'node20',
      outDir: 'dist',
      tsconfig: 'tsconfig.json',
    },
    {
      // The CLI loads typescript-json-schema from the user's project and compiles with the typescript
      // it depends on (lib/cli/generator.ts), never a typescript of its own.
      entry: { cli: 'lib/cli/index.ts' },
      format: ['cjs'],
      sourcemap: true,
      target: 'node20',
      outDir: 'dist',
      tsconfig: 'tsconfig.json',
      esbuildOptions(options) {
        options.alias = { typescript: './lib/cli/typescript.ts' };
      },
    },
    {
      // The samples, built against the package by name (dist/), as a user's service would be.
      entry: {
        main: 'samples/main.ts',
        'serve-mcp': 'samples/serve-mcp.ts',
        nest: 'samples/nest/main.ts',
      },
      format: ['cjs'],
      sourcemap: true,
      target: 'node20',
      outDir: 'build/samples',
      tsconfig: 'tsconfig.json',
      external: [
        'scope-tool',
        'scope-tool/decorators',
        'scope-tool/nest',
        'scope-tool/mcp',
        'scope-tool/runtime',
        'scope-tool/openai',
        'scope-tool/anthropic',
        'scope-tool/gemini',
      ],
    },
  ];
});
