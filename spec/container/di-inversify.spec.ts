/**
 * InversifyJS 8 ships only as an ES module, which jest (CommonJS, Node 20) cannot load through its
 * own module registry; it is loaded with Node's own loader instead (require of an ES module, Node
 * 20.19+). Its decorators then record metadata in Node's realm, so the constructor dependencies
 * are declared with inject() rather than read from design:paramtypes.
 */
import 'reflect-metadata';
import { createRegistry } from '../../lib/container';
import { resolverThrew } from '../../lib/container/messages';
import { classifyFailure } from '../../lib/protocol';
import { Directory, NOTES_MANIFEST, NotesStore, NotesTools, run, WritersOnly } from './di-fixtures';

type Newable = abstract new (...args: never[]) => object;
interface Inversify {
  Container: new () => {
    bind(id: Newable): { toSelf(): { inSingletonScope(): void } };
    get<T>(id: Newable): T;
  };
  injectable(): (target: Function) => void;
  inject(id: Newable): (target: Function, key: undefined, index: number) => void;
}

/** Node's own require (jest's cannot load ES modules on Node 20). */
function nodeRequire(name: string): unknown {
  return (require('node:module') as { _load(request: string, parent: null, isMain: boolean): unknown })._load(
    require.resolve(name),
    null,
    false,
  );
}

nodeRequire('reflect-metadata');
const inversify = nodeRequire('inversify') as Inversify;
for (const cls of [NotesStore, Directory, WritersOnly, NotesTools]) inversify.injectable()(cls);
inversify.inject(NotesStore)(NotesTools, undefined, 0);
inversify.inject(Directory)(WritersOnly, undefined, 0);

function container(): InstanceType<Inversify['Container']> {
  const c = new inversify.Container();
  for (const cls of [NotesStore, Directory, WritersOnly, NotesTools]) c.bind(cls).toSelf().inSingletonScope();
  return c;
}

describe('createRegistry with an InversifyJS container as its resolver', () => {
  it('builds the toolset and its policy class, with their dependencies, through container.get', async () => {
    const c = container();
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: (cls) => c.get<object>(cls),
    });
    expect(await run(registry, '{"title":"milk"}', { user: 'alice' })).toBe('added milk for alice');
    expect(c.get<NotesStore>(NotesStore).titles).toEqual(['milk']);
    expect(c.get<NotesTools>(NotesTools).store).toBe(c.get(NotesStore));
  });

  it("asks the container's policy instance, so its dependencies are the container's", async () => {
    const c = container();
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: (cls) => c.get<object>(cls),
    });
    expect(classifyFailure(await run(registry, '{"title":"tea"}', { user: 'bob' }))?.kind).toBe('rejected');
    c.get<Directory>(Directory).writers.add('bob');
    expect(await run(registry, '{"title":"tea"}', { user: 'bob' })).toBe('added tea for bob');
  });

  it('reports a class the container has no binding for, naming it and keeping the container error as cause', () => {
    const c = new inversify.Container();
    c.bind(NotesStore).toSelf().inSingletonScope();
    c.bind(NotesTools).toSelf().inSingletonScope();
    let error: (Error & { code?: string; cause?: unknown }) | undefined;
    try {
      createRegistry({ manifest: NOTES_MANIFEST, toolsets: [NotesTools], resolve: (cls) => c.get<object>(cls) });
    } catch (e) {
      error = e as Error & { code?: string; cause?: unknown };
    }
    expect(error?.code).toBe('ERR_INVALID_TOOL');
    const site = `policy ${WritersOnly.name} of NotesTools.addNote`;
    expect(error?.message).toBe(resolverThrew(site, WritersOnly, null).message);
    expect(String((error?.cause as Error).message)).toContain('WritersOnly');
  });
});
