/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
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
};
