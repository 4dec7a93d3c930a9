import { generatorNotInstalled } from '../../lib/cli/messages';

// The one place the CLI's own sentences are pinned; other specs assert codes.
describe('cli messages', () => {
  it('generatorNotInstalled names the command, the missing package and the install command', () => {
    const error = generatorNotInstalled('generate', 'typescript-json-schema', 'typescript-json-schema@~0.68.0');
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'ERR_GENERATOR_NOT_INSTALLED',
      message:
        'scope-tool generate needs the package typescript-json-schema, which is not installed in this project ' +
        '(scope-tool itself does not depend on it, so that services run without it); install it as a dev ' +
        'dependency: npm install --save-dev typescript-json-schema@~0.68.0',
    });
  });
});
