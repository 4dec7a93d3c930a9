import 'reflect-metadata';
import { createRegistry } from '../../lib/container';
import { notAPolicy } from '../../lib/container/messages';
import { classifyFailure } from '../../lib/protocol';
import type { Authorization, CallOptions } from '../../lib/protocol';
import { Directory, NOTES_MANIFEST, NotesStore, NotesTools, run, WritersOnly } from './di-fixtures';

/** A resolver over a hand-made set of instances, as a DI container would hold them; the policy records when it is asked. */
function resolver(asked: string[] = []): (cls: Function) => object {
  class RecordingWritersOnly extends WritersOnly {
    override authorize(authorization: Authorization, options: CallOptions): boolean {
      asked.push('class');
      return super.authorize(authorization, options);
    }
  }
  const instances = new Map<Function, object>([
    [NotesTools, new NotesTools(new NotesStore())],
    [WritersOnly, new RecordingWritersOnly(new Directory())],
  ]);
  return (cls) =>
    instances.get(cls) ??
    (() => {
      throw new Error(`no ${cls.name}`);
    })();
}

describe('createRegistry({ policies }): policies asked before every tool', () => {
  it('asks the shared policies first, then the class policies, and runs the tool only if all permit', async () => {
    const asked: string[] = [];
    const shared = (authorization: Authorization) => (asked.push(`shared ${authorization.definition().name}`), true);
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: resolver(asked),
      policies: [shared],
    });
    expect(await run(registry, '{"title":"milk"}', { user: 'alice' })).toBe('added milk for alice');
    expect(asked).toEqual(['shared add_note', 'class']);
  });

  it('refuses the call when a shared policy refuses, without asking the class policy', async () => {
    const asked: string[] = [];
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: resolver(asked),
      policies: [() => false],
    });
    expect(classifyFailure(await run(registry, '{"title":"milk"}', { user: 'alice' }))?.kind).toBe('rejected');
    expect(asked).toEqual([]);
  });

  it('resolves a shared policy class through the resolver', async () => {
    const asked: string[] = [];
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: resolver(asked),
      policies: [WritersOnly],
    });
    expect(classifyFailure(await run(registry, '{"title":"milk"}', { user: 'bob' }))?.kind).toBe('rejected');
    expect(asked).toEqual(['class']);
    expect(await run(registry, '{"title":"milk"}', { user: 'alice' })).toBe('added milk for alice');
    expect(asked).toEqual(['class', 'class', 'class']);
  });

  it('refuses a shared policy that is not a policy, naming its index', () => {
    expect(() =>
      createRegistry({
        manifest: NOTES_MANIFEST,
        toolsets: [NotesTools],
        resolve: resolver(),
        policies: [42 as never],
      }),
    ).toThrow(expect.objectContaining({ code: 'ERR_INVALID_TOOL', message: notAPolicy(0).message }));
  });
});
