/**
 * The swc options of the specs, for jest (@swc/jest, jest.config.js) and for the specs' child
 * processes (spec/support/register.js): those tsup's build uses (tsup.config.ts), legacy decorators
 * with design:* metadata (the container reads design:paramtypes), class fields assigned as
 * tsconfig.json's useDefineForClassFields: false does. Each file is transpiled alone, with no type
 * check: `npm test` runs `tsc --noEmit` first.
 */
module.exports = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
