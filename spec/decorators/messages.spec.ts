import { standardDecorator } from '../../lib/decorators/messages';

// The one place the decorator layer's shared sentences are pinned; other specs assert codes.
describe('decorator messages', () => {
  it('standardDecorator says to set experimentalDecorators and emitDecoratorMetadata', () => {
    const error = standardDecorator('@Tool()', 'createIssue');
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'ERR_INVALID_TOOL',
      message:
        'tool: invalid tool: @Tool() on createIssue: it ran as a standard (TC39) decorator because the compiler ' +
        'was not told to compile experimental decorators; set "experimentalDecorators": true and ' +
        '"emitDecoratorMetadata": true in the compilerOptions of tsconfig.json (see docs/install.md)',
    });
  });
});
