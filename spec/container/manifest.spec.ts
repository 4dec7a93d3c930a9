import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadManifest } from '../../lib/container';
import { manifestErrors, MAX_ECHO } from '../../lib/container/messages';
import { entry, manifest } from './fixtures';

describe('loadManifest', () => {
  const valid = manifest(
    entry('create_note', 'NotesTools', 'createNote', 'CreateNoteInput', {
      type: 'object',
      properties: { title: { type: 'string' } },
    }),
  );

  it('reads a manifest file and returns a deep-frozen copy', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-manifest-'));
    const file = path.join(dir, 'tools.manifest.json');
    fs.writeFileSync(file, JSON.stringify(valid, null, 2));
    const loaded = loadManifest(file);
    expect(loaded).toEqual(valid);
    expect(Object.isFrozen(loaded.tools[0].definition.input_schema)).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });

  it('reads a file: URL as the path it names (trial 2 finding 4)', () => {
    // Regression: an ES module's `new URL('../tools.manifest.json', import.meta.url)` was read as a
    // parsed manifest (`/version: must be 1, found nothing`).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-manifest-'));
    const file = path.join(dir, 'tools.manifest.json');
    fs.writeFileSync(file, JSON.stringify(valid));
    expect(loadManifest(pathToFileURL(file))).toEqual(valid);
    expect(loadManifest(new URL('./tools.manifest.json', pathToFileURL(path.join(dir, 'main.mjs'))))).toEqual(valid);
    fs.rmSync(dir, { recursive: true });
    // A missing file is named by its URL.
    const url = pathToFileURL(file);
    expect(() => loadManifest(url)).toThrow(
      expect.objectContaining({
        message: manifestErrors.unreadable(`manifest ${url.href}`, url.href, { code: 'ENOENT' }).message,
      }),
    );
  });

  it('refuses a URL that is not a file: URL, never fetching it', () => {
    const url = new URL('https://example.com/tools.manifest.json');
    expect(() => loadManifest(url)).toThrow(
      expect.objectContaining({ message: manifestErrors.notFileUrl(url.href).message }),
    );
  });

  it('reads a file: URL given as a string, and refuses other schemes unfetched (start-up review, item 3)', () => {
    // Regression: 'file:///x/tools.manifest.json' was read as a relative path
    // (`cannot be read at /cwd/file:/x/...`).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-manifest-'));
    const file = path.join(dir, 'tools.manifest.json');
    fs.writeFileSync(file, JSON.stringify(valid));
    expect(loadManifest(pathToFileURL(file).href)).toEqual(valid);
    fs.rmSync(dir, { recursive: true });
    for (const href of ['http://example.com/m.json', 'https://example.com/m.json']) {
      expect(() => loadManifest(href)).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_TOOL', message: manifestErrors.notFileUrl(href).message }),
      );
    }
  });

  it.each([
    [42, 'a number'],
    [undefined, 'undefined'],
    [null, 'null'],
    [[], 'an array'],
    [new Map(), 'a Map'],
    [Buffer.from('{}'), 'a Buffer'],
    [() => 1, 'a function'],
  ])('refuses %p, which is neither a path, a URL nor a plain object, naming what it is', (value, what) => {
    expect(() => loadManifest(value as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_TOOL', message: manifestErrors.notAManifest(what).message }),
    );
  });

  it('accepts an object, keeping warnings and a null input', () => {
    const m = manifest(entry('count', 'NotesTools', 'count', null));
    expect(loadManifest(m).tools[0].source.input).toBeNull();
  });

  it('keeps mergedBounds where given, and adds none where absent', () => {
    const m = manifest({ ...entry('count', 'NotesTools', 'count', null), mergedBounds: ['In.n.minimum'] });
    expect(loadManifest(m).tools[0].mergedBounds).toEqual(['In.n.minimum']);
    expect(Object.hasOwn(loadManifest(valid).tools[0], 'mergedBounds')).toBe(false);
  });

  it('names the file and the fix when it cannot be read', () => {
    const file = '/nonexistent/tools.manifest.json';
    expect(() => loadManifest(file)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_TOOL',
        message: manifestErrors.unreadable(`manifest ${file}`, file, { code: 'ENOENT' }).message,
      }),
    );
  });

  it('names the absolute path a relative one was read at', () => {
    // Regression (new-user review): `manifest: 'tools.manifest.json'` from another working
    // directory said only "cannot be read", not where it looked.
    expect(() => loadManifest('no-such-dir/tools.manifest.json')).toThrow(
      expect.objectContaining({
        message: manifestErrors.unreadable(
          'manifest no-such-dir/tools.manifest.json',
          path.resolve('no-such-dir/tools.manifest.json'),
          { code: 'ENOENT' },
        ).message,
      }),
    );
  });

  it('refuses the manifest JSON text given as a path, without echoing it', () => {
    // Regression (new-user trial, finding 1): `loadManifest(readFileSync(file, 'utf8'))` said
    // "cannot be read at <cwd>/{ ... } (ENAMETOOLONG)", the whole manifest echoed three times.
    const text = `\n  ${JSON.stringify(valid, null, 2)}`;
    let thrown: unknown;
    try {
      loadManifest(text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_TOOL', message: manifestErrors.jsonText().message });
    expect((thrown as Error).message).not.toContain('create_note');
  });

  it('echoes at most MAX_ECHO characters of a path that cannot be read', () => {
    const long = `no-such-dir/${'x'.repeat(5000)}.json`;
    let thrown: unknown;
    try {
      loadManifest(long);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_TOOL' });
    expect((thrown as Error).message).not.toContain('x'.repeat(MAX_ECHO));
    expect((thrown as Error).message.length).toBeLessThan(400);
  });

  it.each([
    [{ version: 2, tools: [] }, '/version: must be 1'],
    [{ version: 1 }, '/tools: must be an array'],
    [
      { version: 1, tools: [{ ...valid.tools[0], source: { ...valid.tools[0].source, class: 3 } }] },
      '/tools/0/source/class: must be a non-empty string',
    ],
    [
      { version: 1, tools: [{ ...valid.tools[0], definition: { ...valid.tools[0].definition, name: 'other' } }] },
      '/tools/0/definition/name: is "other" but the tool is "create_note"',
    ],
    [
      { version: 1, tools: [{ ...valid.tools[0], definition: { name: 'create_note' } }] },
      '/tools/0/definition/input_schema: must be an object',
    ],
    [{ version: 1, tools: [valid.tools[0], valid.tools[0]] }, '/tools/1/name: tool "create_note" is listed twice'],
    [
      { version: 1, tools: [{ ...valid.tools[0], mergedBounds: [3] }] },
      '/tools/0/mergedBounds: must be an array of strings',
    ],
  ])('refuses a malformed manifest with the JSON Pointer of the bad member (%#)', (value, message) => {
    expect(() => loadManifest(value)).toThrow(`manifest: ${message}`);
  });
});
