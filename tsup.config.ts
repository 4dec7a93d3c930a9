import { defineConfig } from 'tsup';

// Decorator metadata (design:paramtypes) needs emitDecoratorMetadata, which esbuild lacks: tsup
// switches to @swc/core for it when tsconfig.json enables it (a dev dependency).
export default defineConfig([
  {
    entry: { index: 'lib/index.ts', decorators: 'lib/decorators/index.ts' },
    format: ['cjs', 'esm'],
    dts: true,
    splitting: true,
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
    tsconfig: 'tsconfig.json',
  },
  {
    entry: { cli: 'lib/cli/index.ts' },
    format: ['cjs'],
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
    tsconfig: 'tsconfig.json',
  },
  {
    // The main sample, built against the package by name (dist/), as a user's service would be.
    entry: { main: 'samples/main.ts' },
    format: ['cjs'],
    sourcemap: true,
    target: 'node20',
    outDir: 'build/samples',
    tsconfig: 'tsconfig.json',
    external: ['scope-tool', 'scope-tool/decorators'],
  },
]);
