/**
 * The jest environment of the specs (jest.config.js): Node's, plus the worker's one TypeScript
 * compiler as `globalThis.__workerTypescript`, which spec/support/typescript.js hands to every
 * `require('typescript')` of a spec file and of what it loads (lib/schema, typescript-json-schema).
 * Jest loads each spec file in a fresh module registry; the compiler is loaded here once per worker
 * instead, so its code is parsed and optimized once, not once per file. It holds no state between
 * programs: each generator run and each spec builds its own ts.Program.
 */
const { TestEnvironment } = require('jest-environment-node');
const typescript = require('typescript');

class SpecEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__workerTypescript = typescript;
  }
}

module.exports = SpecEnvironment;
