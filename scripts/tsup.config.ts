import { defineConfig } from 'tsup';

// `npm run fuzz` builds scripts/fuzz.ts (with the properties of spec/hardening it imports) into
// build/scripts/fuzz.js; fast-check stays an external dev dependency.
export default defineConfig({
  entry: { fuzz: 'scripts/fuzz.ts' },
  format: ['cjs'],
  target: 'node20',
  outDir: 'build/scripts',
  tsconfig: 'tsconfig.json',
  sourcemap: true,
  clean: true,
});
