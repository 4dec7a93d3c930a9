// ESLint flat config: @eslint/js and typescript-eslint `recommended`. Not the type-aware presets:
// `npm test` already runs `tsc --noEmit`, and they would build the whole program a second time.
// Formatting is Prettier's (.prettierrc.json); these presets hold no formatting rules.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'build/',
      'coverage/',
      'samples/.generated/',
      // Inputs the specs read as text (line numbers, deliberate defects), as in .prettierignore.
      'spec/**/fixtures/**',
      'spec/corpora/**',
      'samples/fixtures/**',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Decorator targets and class tokens are typed `Function`, as TypeScript's own ClassDecorator,
      // MethodDecorator and reflect-metadata's Reflect.getMetadata(target) are; a narrower constructor
      // type would not accept an abstract class or a Nest provider token.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // A leading underscore marks a parameter or binding kept on purpose (a signature to match, a
      // member dropped from a rest copy).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The store drivers (better-sqlite3, pg) are optional peers, loaded with require() only when that
    // store opens, so that `scope-tool` loads without them (docs/architecture.md section 1).
    // So is @opentelemetry/api, loaded only when a `tracing` option is given (lib/tracing/tracing.ts).
    files: ['lib/runtime/stores/*.ts', 'lib/tracing/tracing.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['spec/**/*.ts'],
    rules: {
      // Specs load modules inside a test on purpose: after jest.doMock, in jest.isolateModules, or
      // through Node's own require for a package jest cannot load.
      '@typescript-eslint/no-require-imports': 'off',
      // Specs write the double that an admitted number text becomes; the lost digits are the point.
      'no-loss-of-precision': 'off',
    },
  },
  {
    // Plain CommonJS files run by Node as they are (jest.config.js, the specs' require hook).
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
