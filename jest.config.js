/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  // @swc/jest transpiles each file alone (no type check: `npm test` runs `tsc --noEmit` first), with
  // the options tsup's build uses: legacy decorators with design:* metadata (the container reads
  // design:paramtypes), class fields assigned as tsconfig.json's useDefineForClassFields: false does.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // The samples and the README example import the package by name, as a user would.
  moduleNameMapper: {
    '^scope-tool$': '<rootDir>/lib/index.ts',
    '^scope-tool/decorators$': '<rootDir>/lib/decorators/index.ts',
    '^scope-tool/nest$': '<rootDir>/lib/nest/index.ts',
    '^scope-tool/mcp$': '<rootDir>/lib/mcp/index.ts',
    '^scope-tool/runtime$': '<rootDir>/lib/runtime/index.ts',
    '^scope-tool/openai$': '<rootDir>/lib/openai.ts',
    '^scope-tool/anthropic$': '<rootDir>/lib/anthropic.ts',
    '^scope-tool/gemini$': '<rootDir>/lib/gemini.ts',
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // Both cores of the 2-core CI machine (jest's default leaves one to the parent): the slow suites
  // (packaging, PostgreSQL, the MCP inspector) run beside the rest. 154 s against 193 s here.
  maxWorkers: '100%',
};
