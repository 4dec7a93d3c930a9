import { defineConfig } from 'tsup';

// The bench suite: one CommonJS bundle of bench/run.ts with the lib/ sources it measures (resolved
// through tsconfig paths, compiled with decorator metadata by @swc/core, as the library build is).
// Peers stay external (they load from node_modules, as a user's would); tinybench is ESM-only and
// is bundled so the CommonJS output can load it.
export default defineConfig({
  entry: { run: 'bench/run.ts', profile: 'bench/profile.ts', hot: 'bench/hot.ts', stages: 'bench/stages.ts' },
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  outDir: 'build/bench',
  tsconfig: 'tsconfig.json',
  sourcemap: true,
  clean: true,
  noExternal: ['tinybench'],
  external: [
    'ai',
    /^@ai-sdk\//,
    /^@langchain\//,
    /^@openai\//,
    /^@modelcontextprotocol\//,
    'zod',
    'secure-json-parse',
    /^ajv/,
    'class-validator',
    'class-transformer',
    'reflect-metadata',
    // the store drivers (better-sqlite3 is a native module)
    'better-sqlite3',
    'pg',
  ],
});
