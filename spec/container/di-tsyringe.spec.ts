import 'reflect-metadata';
import { container as root, inject, injectable, Lifecycle } from 'tsyringe';
import type { DependencyContainer } from 'tsyringe';
import { createRegistry } from '../../lib/container';
import { resolverReturnedOther } from '../../lib/container/messages';
import { classifyFailure } from '../../lib/protocol';
import { Directory, NOTES_MANIFEST, NotesStore, NotesTools, run, WritersOnly } from './di-fixtures';

// tsyringe reads constructor types from design:paramtypes, which @Toolset() already makes
// TypeScript emit for NotesTools; WritersOnly has no class decorator, so its dependency is named
// with inject(). @injectable() marks the classes for tsyringe.
injectable()(NotesTools);
inject(Directory)(WritersOnly, undefined, 0);
injectable()(WritersOnly);

function containerWithSingletons(): DependencyContainer {
  const c = root.createChildContainer();
  c.register(NotesStore, { useClass: NotesStore }, { lifecycle: Lifecycle.ContainerScoped });
  c.register(Directory, { useClass: Directory }, { lifecycle: Lifecycle.ContainerScoped });
  c.register(WritersOnly, { useClass: WritersOnly }, { lifecycle: Lifecycle.ContainerScoped });
  return c;
}

describe('createRegistry with a tsyringe container as its resolver', () => {
  it('builds the toolset and its policy class, with their dependencies, through container.resolve', async () => {
    const c = containerWithSingletons();
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: (cls) => c.resolve(cls as never),
    });
    expect(await run(registry, '{"title":"milk"}', { user: 'alice' })).toBe('added milk for alice');
    expect(c.resolve(NotesStore).titles).toEqual(['milk']);
  });

  it("asks the container's policy instance, so its dependencies are the container's", async () => {
    const c = containerWithSingletons();
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: (cls) => c.resolve(cls as never),
    });
    expect(classifyFailure(await run(registry, '{"title":"tea"}', { user: 'bob' }))?.kind).toBe('rejected');
    c.resolve(Directory).writers.add('bob');
    expect(await run(registry, '{"title":"tea"}', { user: 'bob' })).toBe('added tea for bob');
  });

  it('reports a resolver that returns an instance of another class, naming the class', () => {
    class Unregistered {}
    const c = root.createChildContainer();
    let error: (Error & { code?: string; cause?: unknown }) | undefined;
    try {
      createRegistry({
        manifest: NOTES_MANIFEST,
        toolsets: [NotesTools],
        resolve: (cls) => (cls === NotesTools ? c.resolve(Unregistered as never) : c.resolve(cls as never)),
      });
    } catch (e) {
      error = e as Error & { code?: string; cause?: unknown };
    }
    expect(error?.code).toBe('ERR_INVALID_TOOL');
    expect(error?.message).toBe(resolverReturnedOther('toolset NotesTools', NotesTools).message);
  });
});
