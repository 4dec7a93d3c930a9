import { hasErrorCode, ToolError } from '../../lib/protocol';
import {
  clip,
  inputMismatch,
  inputNotAClass,
  LISTED_STALE,
  madeAccessor,
  manifestErrors,
  manifestWhere,
  MAX_ECHO,
  missingFromManifest,
  missingText,
  needsResolver,
  noInputClass,
  notAPolicy,
  notAToolset,
  policiesNotArray,
  policyWithoutAuthorize,
  resolverReturnedOther,
  resolverReturnedPromise,
  resolverThrew,
  staleClass,
  staleEntry,
  staleInput,
  staleConstraint,
  staleMembers,
  staleIssue,
  staleManifest,
  staleMethod,
  staleText,
  toolRefusedAtBind,
} from '../../lib/container/messages';
import type { StaleTool } from '../../lib/container/messages';

// The one place the container's sentences are pinned; other specs assert codes and fields.
class NotesTools {
  constructor(readonly store: unknown) {}
}
class WritersOnly {}

describe('container messages', () => {
  it('a tool missing from the manifest names the tool, Class.method and the command', () => {
    const err = missingFromManifest('create_note', 'NotesTools.createNote');
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toBe(
      'tool: invalid tool: tool "create_note" (NotesTools.createNote) is missing from the manifest; run scope-tool generate',
    );
  });

  it('a stale entry says what differs: the input DTO, class, method or members', () => {
    const stale = (what: string) => staleEntry('create_note', 'NotesTools.createNote', what).message;
    expect(stale(staleInput('CreateNoteInput', 'NoteInput'))).toBe(
      'tool: invalid tool: tool "create_note" (NotesTools.createNote): the manifest is stale: the input DTO is CreateNoteInput in the source but NoteInput in the manifest; run scope-tool generate',
    );
    expect(staleInput(null, 'NoteInput')).toBe('the input DTO is none in the source but NoteInput in the manifest');
    expect(staleClass('OldTools', 'NotesTools')).toBe('it names class OldTools but the tool is declared by NotesTools');
    expect(staleMethod('addNote', 'createNote')).toBe('it names method addNote but the tool is method createNote');
    expect(
      staleConstraint({ member: 'limit', decorator: 'Max', keyword: 'maximum', inSource: 100, inManifest: 50 }),
    ).toBe('member limit: @Max says maximum 100 in the source but the manifest has maximum 50');
    expect(
      staleConstraint({ member: 'limit', decorator: 'Max', keyword: 'maximum', inSource: 100, inManifest: undefined }),
    ).toBe('member limit: @Max says maximum 100 in the source but the manifest has no maximum');
    expect(
      staleConstraint({
        member: 'address.code',
        decorator: 'Matches',
        keyword: 'pattern',
        inSource: '^[A-Z]+$',
        inManifest: '^[a-z]+$',
      }),
    ).toBe(
      'member address.code: @Matches says pattern "^[A-Z]+$" in the source but the manifest has pattern "^[a-z]+$"',
    );
    expect(
      staleConstraint({
        member: 'tags[]',
        decorator: 'IsIn',
        keyword: 'enum',
        inSource: ['a', 'b'],
        inManifest: ['a'],
      }),
    ).toBe('member tags[]: @IsIn says enum ["a","b"] in the source but the manifest has enum ["a"]');
    expect(
      staleConstraint({
        member: 'lines',
        decorator: 'IsString',
        keyword: 'type',
        inSource: 'string',
        inManifest: 'integer',
      }),
    ).toBe('member lines: @IsString says type "string" in the source but the manifest has type "integer"');
    expect(
      staleConstraint({ member: 'limit', decorator: null, keyword: 'default', inSource: 20, inManifest: 10 }),
    ).toBe('member limit: the initializer says default 20 in the source but the manifest has default 10');
    expect(
      staleConstraint({ member: 'limit', decorator: null, keyword: 'default', inSource: undefined, inManifest: 10 }),
    ).toBe('member limit: the source has no initializer but the manifest has default 10');
    expect(staleMembers('CreateNoteInput', ['tags'], ['body'])).toBe(
      'CreateNoteInput has tags which the manifest lacks; the manifest lists body which CreateNoteInput does not have: either it was removed from the class (regenerate) or it has no class-validator decorator, which hides it at run time (decorate it, e.g. @Allow())',
    );
    expect(staleMembers(null, [], ['body'])).toBe(
      'the manifest lists body which the method does not have: either it was removed from the class (regenerate) or it has no class-validator decorator, which hides it at run time (decorate it, e.g. @Allow())',
    );
    expect(staleMembers('WriteFileInput', ['owner.team'], [])).toBe(
      'WriteFileInput has owner.team which the manifest lacks',
    );
  });

  it('every stale tool in one error: the first in full, the others named, then the command', () => {
    const one = (tool: string, place: string): StaleTool => ({ tool, place, text: missingText(tool, place) });
    const first: StaleTool = {
      tool: 'create_note',
      place: 'NotesTools.createNote',
      text: staleText('create_note', 'NotesTools.createNote', staleInput('CreateNoteInput', 'NoteInput')),
    };
    expect(first.text).toBe(
      'tool "create_note" (NotesTools.createNote): the manifest is stale: the input DTO is CreateNoteInput in the source but NoteInput in the manifest',
    );
    expect(missingText('count', 'NotesTools.count')).toBe(
      'tool "count" (NotesTools.count) is missing from the manifest',
    );
    const issue = staleIssue('create_note', 'NotesTools.createNote', first.text, 'owner.team');
    expect(issue).toEqual({
      code: 'stale_manifest',
      path: [],
      message: first.text,
      params: { tool: 'create_note', place: 'NotesTools.createNote', member: 'owner.team' },
    });
    const err = staleManifest([first, one('count', 'NotesTools.count'), one('ping', 'Ops.ping')], [issue]);
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toBe(
      'tool: invalid tool: tool "create_note" (NotesTools.createNote): the manifest is stale: the input DTO is CreateNoteInput in the source but NoteInput in the manifest; and 2 more stale tools: "count" (NotesTools.count), "ping" (Ops.ping); run scope-tool generate',
    );
    expect(err.issues).toEqual([issue]);
    // One tool: exactly its own sentence.
    expect(staleManifest([first], []).message).toBe(
      staleEntry('create_note', 'NotesTools.createNote', staleInput('CreateNoteInput', 'NoteInput')).message,
    );
    // The manifest's tools no toolset declares are named after the stale ones, without issues.
    const withExtra = staleManifest([one('count', 'NotesTools.count')], [issue], ['old_count', 'other']);
    expect(withExtra.message).toBe(
      'tool: invalid tool: tool "count" (NotesTools.count) is missing from the manifest; the manifest also lists "old_count", "other", which no toolset given declares; run scope-tool generate',
    );
    expect(withExtra.issues).toEqual([issue]);
    const many = Array.from({ length: LISTED_STALE + 3 }, (_, i) => one(`t${i}`, `T.m${i}`));
    expect(staleManifest(many, []).message).toContain(`; and ${LISTED_STALE + 2} more stale tools: "t1" (T.m1), `);
    expect(staleManifest(many, []).message).toContain(`"t${LISTED_STALE}" (T.m${LISTED_STALE}) (and 2 more); run`);
  });

  it('createRegistry options and toolsets that cannot be used name the item and the fix', () => {
    expect(policiesNotArray().message).toBe(
      'tool: invalid tool: createRegistry: options.policies must be an array of policies',
    );
    expect(notAPolicy(1).message).toBe(
      'tool: invalid tool: createRegistry: options.policies[1] is not an Authorizer, function or class; pass an object with authorize(), a function returning a boolean, or a class with authorize()',
    );
    expect(notAToolset('NotMarked').message).toBe(
      'tool: invalid tool: NotMarked is not a toolset; decorate its class with @Toolset()',
    );
  });

  it('resolver failures name what was being built and the class', () => {
    const cause = new Error('no binding');
    const threw = resolverThrew('policy WritersOnly of NotesTools.addNote', WritersOnly, cause);
    expect(threw.message).toBe(
      'tool: invalid tool: policy WritersOnly of NotesTools.addNote: the resolver threw; make it return an instance of WritersOnly',
    );
    expect(threw.cause).toBe(cause);
    expect(needsResolver('toolset NotesTools', NotesTools).message).toBe(
      'tool: invalid tool: toolset NotesTools: the constructor takes 1 argument(s); pass an instance, or a resolve function that builds NotesTools',
    );
    expect(resolverReturnedPromise('toolset NotesTools').message).toBe(
      'tool: invalid tool: toolset NotesTools: the resolver returned a Promise; registration is synchronous, so resolve instances before createRegistry',
    );
    expect(resolverReturnedOther('toolset NotesTools', NotesTools).message).toBe(
      'tool: invalid tool: toolset NotesTools: the resolver did not return an instance of NotesTools',
    );
    expect(policyWithoutAuthorize(WritersOnly, 'NotesTools.addNote').message).toBe(
      'tool: invalid tool: policy WritersOnly of NotesTools.addNote: the resolved instance has no authorize() method; fix the resolver',
    );
  });

  it('tool methods without a usable input class name the tool, Class.method and the fix', () => {
    expect(noInputClass('create_note', 'NotesTools.createNote').message).toBe(
      'tool: invalid tool: tool "create_note" (NotesTools.createNote): the input class is unknown: the compiler emitted no design:paramtypes; name it in the decorator, @Tool({ input: YourInputClass }) (input: null for a method without input): tsx and esbuild never emit the metadata, whatever tsconfig.json says; tsc and Vitest emit it with "emitDecoratorMetadata": true, SWC with decoratorMetadata: true',
    );
    expect(inputMismatch('create_note', 'NotesTools.createNote', 'CreateNoteInput', 'NoteInput').message).toBe(
      'tool: invalid tool: tool "create_note" (NotesTools.createNote): @Tool({ input }) names CreateNoteInput but the first parameter\'s type is NoteInput; make them the same class',
    );
    expect(inputMismatch('count', 'NotesTools.count', null, 'NoteInput').message).toContain(
      'names null (no input) but',
    );
    expect(inputMismatch('count', 'NotesTools.count', 'NoteInput', null).message).toContain(
      "the first parameter's type is none (no parameter);",
    );
    expect(madeAccessor('Bound.y').message).toBe(
      'tool: invalid tool: @Tool() on Bound.y: a decorator above it made the method an accessor (autobind?), which is no tool; write @Tool() above it, or bind in the constructor',
    );
    expect(inputNotAClass('NotesTools.createNote', 'Object').message).toBe(
      'tool: invalid tool: NotesTools.createNote: the input must be a class-validator DTO class (found Object: an interface, type literal or primitive has no run-time shape); declare the input as a class',
    );
  });

  it('a DTO refused at bind keeps its code and gains the tool and Class.method', () => {
    const refusal = new ToolError('ERR_INVALID_SCHEMA', 'at /properties: must be object');
    const err = toolRefusedAtBind('create_note', 'NotesTools.createNote', refusal);
    expect(err.code).toBe('ERR_INVALID_SCHEMA');
    expect(err.message).toBe(
      'jsonschema: invalid schema: tool "create_note" (NotesTools.createNote): at /properties: must be object',
    );
    expect(hasErrorCode(err, 'ERR_INVALID_SCHEMA')).toBe(true);
    expect(toolRefusedAtBind('t', 'T.m', new ToolError('ERR_INVALID_TOOL', 'CreateNoteInput: x')).message).toBe(
      'tool: invalid tool: tool "t" (T.m): CreateNoteInput: x',
    );
  });

  it('a manifest that cannot be used names the file, the JSON Pointer and the command', () => {
    const cause = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    const unreadable = manifestErrors.unreadable('manifest tools.manifest.json', '/x/tools.manifest.json', cause);
    expect(unreadable.message).toBe(
      'tool: invalid tool: manifest tools.manifest.json: cannot be read at /x/tools.manifest.json (ENOENT); run scope-tool generate, or pass the right path (a relative path resolves against the working directory)',
    );
    expect(unreadable.cause).toBe(cause);
    expect(manifestErrors.notJson('manifest m.json', cause).message).toBe(
      'tool: invalid tool: manifest m.json: is not valid JSON; run scope-tool generate',
    );
    expect(manifestErrors.member('manifest', '/version', 'must be 1, found 2').message).toBe(
      'tool: invalid tool: manifest: /version: must be 1, found 2; run scope-tool generate',
    );
    expect(manifestErrors.notAManifest('a number').message).toBe(
      "tool: invalid tool: manifest: got a number; pass the path of the *.manifest.json file, a file: URL (new URL('./tools.manifest.json', import.meta.url)), or the parsed manifest object",
    );
    expect(manifestErrors.notFileUrl('https://example.com/tools.manifest.json').message).toBe(
      'tool: invalid tool: manifest: the URL https://example.com/tools.manifest.json is not a file: URL; pass a file: URL or a path (the manifest is read from disk, never fetched)',
    );
    expect(manifestErrors.tooDeepText('t', 10_000)).toBe(
      'tool "t": the schema nests arrays and objects deeper than 10000 levels',
    );
    expect(manifestErrors.jsonText().message).toBe(
      "tool: invalid tool: manifest: the string given looks like the manifest's JSON text, not a path; pass JSON.parse(text) (or the imported object), or the path of the *.manifest.json file",
    );
  });

  it('clips every value a stale-manifest message quotes to MAX_ECHO (start-up review, item 2)', () => {
    // Regression: a 100,000-character name or pattern, or a 50,000-value enum, was echoed in full.
    const long = 'n'.repeat(100_000);
    const enumValues = Array.from({ length: 50_000 }, (_, i) => `v${i}`);
    const texts = [
      missingText(long, `${long}.m`),
      staleText(long, 'T.m', 'x'),
      staleManifest(
        [
          { tool: long, place: 'T.m', text: 'x' },
          ...Array.from({ length: 8 }, () => ({ tool: long, place: long, text: 'x' })),
        ],
        [],
      ).message,
      staleMembers(
        long,
        [long],
        Array.from({ length: 1_000 }, () => long),
      ),
      staleConstraint({ member: long, decorator: 'Matches', keyword: 'pattern', inSource: long, inManifest: long }),
      staleConstraint({
        member: 'm',
        decorator: 'IsIn',
        keyword: 'enum',
        inSource: enumValues,
        inManifest: enumValues,
      }),
      staleClass(long, long),
      staleMethod(long, long),
      staleInput(long, long),
    ];
    for (const text of texts) expect(text.length).toBeLessThan(2_000);
    expect(clip(long)).toBe(`${'n'.repeat(MAX_ECHO / 2)}...${'n'.repeat(MAX_ECHO / 2)}`);
    expect(staleMembers('In', ['a', 'b', 'c', 'd', 'e', 'f', 'g'], [])).toBe(
      'In has a, b, c, d, e (and 2 more) which the manifest lacks',
    );
  });

  it('a long manifest path is clipped in the middle to MAX_ECHO characters', () => {
    const long = `/${'d'.repeat(200)}/tools.manifest.json`;
    expect(manifestWhere(long)).toBe(`manifest ${long.slice(0, 40)}...${long.slice(-40)}`);
    expect(manifestWhere(undefined)).toBe('manifest');
    const unreadable = manifestErrors.unreadable(manifestWhere(long), long, { code: 'ENAMETOOLONG' });
    expect(unreadable.message).not.toContain('d'.repeat(MAX_ECHO));
  });
});
