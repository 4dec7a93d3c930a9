/**
 * One project for the specs, and one for the spec of the generator's package resolution. In the
 * first, every spec file of a worker shares one TypeScript compiler (spec/support/environment.js):
 * jest gives each file a fresh module registry, and a fresh `typescript` costs each file that builds a
 * program a few CPU seconds of parsing and compiling TypeScript itself before its first program.
 * spec/cli/generator.spec.ts resolves `typescript` as the CLI does (from typescript-json-schema's
 * folder), which that mapping would answer: it runs in the second project, without it.
 * @type {import('jest').Config}
 */
const common = {
  roots: ['<rootDir>/spec'],
  // @swc/jest with the options of spec/support/swc-options.js (those of tsup's build; no type check).
  transform: { '^.+\\.ts$': ['@swc/jest', require('./spec/support/swc-options')] },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

// The samples and the README example import the package by name, as a user would.
const packageByName = {
  '^scope-tool$': '<rootDir>/lib/index.ts',
  '^scope-tool/decorators$': '<rootDir>/lib/decorators/index.ts',
  '^scope-tool/nest$': '<rootDir>/lib/nest/index.ts',
  '^scope-tool/mcp$': '<rootDir>/lib/mcp/index.ts',
  '^scope-tool/runtime$': '<rootDir>/lib/runtime/index.ts',
  '^scope-tool/openai$': '<rootDir>/lib/openai.ts',
  '^scope-tool/anthropic$': '<rootDir>/lib/anthropic.ts',
  '^scope-tool/gemini$': '<rootDir>/lib/gemini.ts',
};

const OWN_RESOLUTION = '<rootDir>/spec/cli/generator.spec.ts';

module.exports = {
  testTimeout: 30000,
  // Both cores of the 2-core CI machine (jest's default leaves one to the parent): the slow suites
  // (packaging, PostgreSQL, the MCP inspector) run beside the rest.
  maxWorkers: '100%',
  projects: [
    {
      ...common,
      testEnvironment: '<rootDir>/spec/support/environment.js',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', OWN_RESOLUTION],
      moduleNameMapper: { '^typescript$': '<rootDir>/spec/support/typescript.js', ...packageByName },
    },
    {
      ...common,
      testEnvironment: 'node',
      testMatch: [OWN_RESOLUTION],
      moduleNameMapper: packageByName,
    },
  ],
};
