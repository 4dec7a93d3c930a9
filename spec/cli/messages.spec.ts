import { extraTool, generatorNotInstalled, missingTool, outOfDate, staleTool } from '../../lib/cli/messages';

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

  it('the lines of scope-tool check name the tool, its Class.method and what differs', () => {
    const max = { pointer: '/definition/input_schema/properties/title/maxLength', inSources: 80, inFile: 120 };
    expect(staleTool('create_note', 'NotesTools.createNote', [max], 'tools.manifest.json')).toBe(
      'stale: create_note (NotesTools.createNote): /definition/input_schema/properties/title/maxLength is 80 in the sources but 120 in tools.manifest.json',
    );
    const absent = {
      pointer: '/definition/input_schema/properties/body',
      inSources: undefined,
      inFile: 'x'.repeat(70),
    };
    expect(staleTool('t', 'A.t', [max, absent, max, max, max], 'm.json')).toBe(
      'stale: t (A.t): /definition/input_schema/properties/title/maxLength is 80 in the sources but 120 in m.json; ' +
        `/definition/input_schema/properties/body is absent in the sources but "${'x'.repeat(58)}… in m.json; ` +
        '/definition/input_schema/properties/title/maxLength is 80 in the sources but 120 in m.json; and 2 more',
    );
    expect(
      staleTool('t', 'A.t', [{ pointer: '/fingerprint', inSources: 'sha256:0', inFile: 'sha256:1' }], 'm.json'),
    ).toBe('stale: t (A.t): the source text changed (its fingerprint differs) though its definition did not');
    expect(missingTool('list_notes', 'NotesTools.listNotes', 'm.json')).toBe(
      'missing: list_notes (NotesTools.listNotes): in the sources but not in m.json',
    );
    expect(extraTool('listNotes', 'm.json')).toBe('extra: listNotes: in m.json but no longer in the sources');
    expect(outOfDate('m.json')).toBe('scope-tool check: m.json is out of date; run scope-tool generate');
  });
});
