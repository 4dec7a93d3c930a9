import 'reflect-metadata';
import { inherits } from 'node:util';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import { createRegistry } from '../../lib/container';
import {
  Authorization,
  CallError,
  classifyFailure,
  Failure,
  FuncTool,
  hasErrorCode,
  InputRequest,
  MAX_DEPTH,
  Output,
  Registry,
} from '../../lib/protocol';
import type { Binding, Result } from '../../lib/protocol';
import { entry, manifest } from './fixtures';
import {
  madeAccessor,
  manifestErrors,
  missingFromManifest,
  needsResolver,
  notAToolset,
  staleClass,
  staleEntry,
  staleInput,
  staleConstraint,
  staleMembers,
  staleMethod,
} from '../../lib/container/messages';
import type { JsonObject, ToolError } from '../../lib/protocol';

/** Matches a thrown error with the code and the fields of `expected` (built by lib/container/messages.ts). */
const refusal = (expected: ToolError) => expect.objectContaining({ code: expected.code, message: expected.message });

class CreateNoteInput {
  @IsString() @Length(1, 120) title!: string;
  @IsOptional() @IsString({ each: true }) tags?: string[];
}
const NOTE_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 120 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['title'],
  additionalProperties: false,
};

class ConfirmInput {
  @IsString() path!: string;
}
const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
};

class NotesStore {
  readonly notes: string[] = [];
}

@Toolset()
class NotesTools {
  constructor(readonly store: NotesStore) {}

  @Tool({ name: 'create_note' })
  async createNote(input: CreateNoteInput, call: ToolCall): Promise<{ id: number; who: unknown }> {
    this.store.notes.push(input.title);
    return { id: this.store.notes.length, who: call.context };
  }

  @Tool({ name: 'delete_file' })
  deleteFile(input: ConfirmInput, call: ToolCall): string | InputRequest {
    if (call.continuation === undefined) {
      return InputRequest.create({
        prompt: JSON.stringify(`Delete ${input.path}?`),
        responseSchema: { type: 'boolean' },
        continuationState: JSON.stringify({ path: input.path }),
      });
    }
    return call.continuation.response === 'true' ? `deleted ${JSON.parse(call.continuation.state).path}` : 'kept';
  }

  @Tool()
  count(): Output {
    return Output.text(String(this.store.notes.length));
  }
}

const NOTES_MANIFEST = manifest(
  entry('count', 'NotesTools', 'count', null),
  entry('create_note', 'NotesTools', 'createNote', 'CreateNoteInput', NOTE_SCHEMA),
  entry('delete_file', 'NotesTools', 'deleteFile', 'ConfirmInput', CONFIRM_SCHEMA),
);

function binding(registry: Registry, name: string): Binding {
  const b = registry.resolve(name);
  if (b === undefined) throw new Error(`${name} not registered`);
  return b;
}

async function run(registry: Registry, name: string, args: unknown, context?: unknown): Promise<Result> {
  const b = binding(registry, name);
  return b.call(b.contract.prepare({ name, arguments: JSON.stringify(args) }), { context });
}

describe('createRegistry with toolset instances', () => {
  const store = new NotesStore();
  const registry = createRegistry({ manifest: NOTES_MANIFEST, toolsets: [new NotesTools(store)] });

  it('registers every @Tool method under its manifest definition', () => {
    expect(registry.definitions().map((d) => d.name)).toEqual(['count', 'create_note', 'delete_file']);
    expect(binding(registry, 'create_note').contract.definition()).toMatchObject({ description: 'create_note tool' });
  });

  it('calls the method with the decoded DTO and the caller context, encoding a JSON value as details', async () => {
    const result = await run(registry, 'create_note', { title: 'Hello' }, { user: 'ada' });
    expect('output' in result && result.output.details).toBe('{"id":1,"who":{"user":"ada"}}');
    expect(store.notes).toEqual(['Hello']);
  });

  it('passes an Output returned by the method through', async () => {
    const result = await run(registry, 'count', {});
    expect('output' in result && result.output.asText()).toBe('1');
  });

  it('refuses invalid arguments at prepare, before any call, with the DTO issues', () => {
    const b = binding(registry, 'create_note');
    expect(() => b.contract.prepare({ name: 'create_note', arguments: '{"title":"x","color":"red"}' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }),
    );
    expect(() => b.contract.prepare({ name: 'create_note', arguments: '{"title":"x","tags":null}' })).toThrow(/tags/);
    expect(() => binding(registry, 'count').contract.prepare({ name: 'count', arguments: '{"a":1}' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }),
    );
  });

  it('suspends when the method returns an InputRequest and resumes with the continuation', async () => {
    const b = binding(registry, 'delete_file');
    const request = { name: 'delete_file', arguments: '{"path":"/tmp/a"}' };
    const first = await b.call(b.contract.prepare(request));
    if (!('inputRequest' in first)) throw new Error('expected an input request');
    expect(first.inputRequest.prompt).toBe('"Delete /tmp/a?"');
    const continuation = first.inputRequest.continuation('true');
    const second = await b.call(b.contract.prepare(request, continuation));
    expect('output' in second && second.output.asText()).toBe('deleted /tmp/a');
  });

  it('does not call the method when the signal is already aborted', async () => {
    const before = store.notes.length;
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const b = binding(registry, 'create_note');
    await expect(
      b.call(b.contract.prepare({ name: 'create_note', arguments: '{"title":"x"}' }), { signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(store.notes.length).toBe(before);
  });
});

describe('errors thrown by a tool method', () => {
  const failure = new Failure({ kind: 'failed', output: Output.text('disk full'), cause: new Error('ENOSPC') });
  const callError = new CallError({ cause: new Error('timeout') });

  @Toolset()
  class Failing {
    @Tool() fail(): never {
      throw failure;
    }
    @Tool() partial(): never {
      throw callError;
    }
    @Tool() nan(): number {
      return NaN;
    }
  }
  const registry = createRegistry({
    manifest: manifest(
      entry('fail', 'Failing', 'fail', null),
      entry('partial', 'Failing', 'partial', null),
      entry('nan', 'Failing', 'nan', null),
    ),
    toolsets: [Failing],
  });

  it('passes a Failure and a CallError through unchanged', async () => {
    await expect(run(registry, 'fail', {})).rejects.toBe(failure);
    await expect(run(registry, 'partial', {})).rejects.toBe(callError);
  });

  it('refuses a return value JSON cannot carry (NaN)', async () => {
    const err = await run(registry, 'nan', {}).catch((e: unknown) => e);
    expect(hasErrorCode(err, 'ERR_INVALID_OUTPUT')).toBe(true);
  });
});

describe('policies', () => {
  function recorder() {
    const order: string[] = [];
    const policy = (label: string, decision: boolean) => (a: Authorization) => {
      order.push(`${label}:${a.definition().name}`);
      return decision;
    };
    return { order, policy };
  }

  it('asks class policies first, then method policies, all of which must permit', async () => {
    const { order, policy } = recorder();
    let ran = 0;
    @Toolset()
    @Authorize(policy('class1', true), policy('class2', true))
    class Guarded {
      @Authorize(policy('method', true))
      @Tool()
      act(): string {
        ran++;
        return 'done';
      }
    }
    const registry = createRegistry({ manifest: manifest(entry('act', 'Guarded', 'act', null)), toolsets: [Guarded] });
    const result = await run(registry, 'act', {});
    expect('output' in result && result.output.asText()).toBe('done');
    expect(order).toEqual(['class1:act', 'class2:act', 'method:act']);
    expect(ran).toBe(1);
  });

  it('keeps the policies of a method an override replaces, base first (an override without @Authorize ran for all)', async () => {
    const { order, policy } = recorder();
    const ran: string[] = [];
    class RecordTools {
      @Authorize(policy('admins', false))
      @Tool({ name: 'delete_record' })
      deleteRecord(): string {
        ran.push('base');
        return 'deleted';
      }
    }
    @Toolset()
    class Audited extends RecordTools {
      @Tool({ name: 'delete_record' })
      override deleteRecord(): string {
        ran.push('override');
        return `audited, ${super.deleteRecord()}`;
      }
    }
    @Toolset()
    class Logged extends Audited {
      @Authorize(policy('logged', true))
      @Tool({ name: 'delete_record' })
      override deleteRecord(): string {
        return super.deleteRecord();
      }
    }
    for (const [cls, asked] of [
      [Audited, ['admins:delete_record']],
      [Logged, ['admins:delete_record']],
    ] as const) {
      order.length = 0;
      const registry = createRegistry({
        manifest: manifest(entry('delete_record', cls.name, 'deleteRecord', null)),
        toolsets: [cls],
      });
      const err = await run(registry, 'delete_record', {}).catch((e: unknown) => e);
      expect([cls.name, classifyFailure(err)?.kind, order]).toEqual([cls.name, 'rejected', asked]);
    }
    expect(ran).toEqual([]);
  });

  it('keeps method policies under a decorator that wraps the method (logging), and for a base tool name given to another method', async () => {
    // Regressions (second review): @Tool() @Logged() @Authorize(deny) ran for every caller (the
    // policies sat on the function @Logged replaced); so did a subclass's purge() named delete_all.
    const { order, policy } = recorder();
    const ran: string[] = [];
    const Logged = (): MethodDecorator => (_target, _key, descriptor) => {
      const inner = descriptor.value as unknown as (...a: unknown[]) => unknown;
      (descriptor as PropertyDescriptor).value = function (this: unknown, ...a: unknown[]) {
        return inner.apply(this, a);
      };
    };
    @Toolset()
    class Wrapped {
      @Tool({ name: 'wipe' })
      @Logged()
      @Authorize(policy('deny', false))
      wipe(): string {
        ran.push('wipe');
        return 'wiped';
      }
    }
    // The other order: the wrapper replaced the function @Tool() marked, and the tool vanished.
    @Toolset()
    class WrappedAbove {
      @Authorize(policy('deny', false))
      @Logged()
      @Tool({ name: 'wipe' })
      wipe(): string {
        ran.push('wipe above');
        return 'wiped';
      }
    }
    class Base {
      @Tool({ name: 'delete_all' })
      @Authorize(policy('admins', false))
      deleteAll(): string {
        ran.push('base');
        return 'deleted';
      }
    }
    @Toolset()
    class Renamed extends Base {
      override deleteAll(): string {
        return 'not a tool here';
      }
      @Tool({ name: 'delete_all' })
      purge(): string {
        ran.push('purge');
        return 'purged';
      }
    }
    for (const [cls, tool, method, asked] of [
      [Wrapped, 'wipe', 'wipe', ['deny:wipe']],
      [WrappedAbove, 'wipe', 'wipe', ['deny:wipe']],
      [Renamed, 'delete_all', 'purge', ['admins:delete_all']],
    ] as const) {
      order.length = 0;
      const registry = createRegistry({ manifest: manifest(entry(tool, cls.name, method, null)), toolsets: [cls] });
      const err = await run(registry, tool, {}).catch((e: unknown) => e);
      expect([tool, classifyFailure(err)?.kind, order]).toEqual([tool, 'rejected', asked]);
    }
    expect(ran).toEqual([]);
  });

  it('asks a class policy of a prototype the instances inherit without the constructor chain (util.inherits)', async () => {
    // Regression (third review): the tools came from the prototype chain, the class policies from
    // the constructor chain; after util.inherits the inherited tool ran with no policy.
    const { order, policy } = recorder();
    const ran: string[] = [];
    @Toolset()
    @Authorize(policy('admins', false))
    class Admin {
      @Tool({ name: 'wipe' })
      wipe(): string {
        ran.push('wipe');
        return 'wiped';
      }
    }
    @Toolset()
    class Public {}
    inherits(Public, Admin);
    const registry = createRegistry({ manifest: manifest(entry('wipe', 'Public', 'wipe', null)), toolsets: [Public] });
    const err = await run(registry, 'wipe', {}).catch((e: unknown) => e);
    expect([classifyFailure(err)?.kind, order, ran]).toEqual(['rejected', ['admins:wipe'], []]);
  });

  it('refuses a tool method a decorator above @Tool() made an accessor, and a symbol-named one', () => {
    // Regressions (third review): the tool vanished without a word; a symbol key threw a TypeError.
    const autobind: MethodDecorator = (_target, _key, descriptor) => {
      const fn = descriptor.value as unknown as () => unknown;
      return {
        configurable: true,
        get(this: object) {
          return fn.bind(this);
        },
      } as never;
    };
    @Toolset()
    class Bound {
      @autobind
      @Tool({ name: 'y' })
      y(): string {
        return 'y';
      }
    }
    const err = thrownBy(() =>
      createRegistry({ manifest: manifest(entry('y', 'Bound', 'y', null)), toolsets: [Bound] }),
    );
    expect([err.code, err.message]).toEqual(['ERR_INVALID_TOOL', madeAccessor('Bound.y').message]);
    const key = Symbol('sym');
    const symbolic = thrownBy(() => {
      class Symbolic {
        @Tool({ name: 'sym' })
        [key](): string {
          return 'sym';
        }
      }
      return Symbolic;
    });
    expect([symbolic.code, symbolic.message]).toEqual([
      'ERR_INVALID_TOOL',
      expect.stringContaining('a tool method must have a string name, not a symbol'),
    ]);
  });

  it('refuses when any policy refuses (AND), and asks none after the refusal', async () => {
    const { order, policy } = recorder();
    let ran = 0;
    @Toolset()
    @Authorize(policy('class', true))
    class Guarded {
      @Authorize(policy('deny', false), policy('after', true))
      @Tool()
      act(): string {
        ran++;
        return 'done';
      }
    }
    const registry = createRegistry({ manifest: manifest(entry('act', 'Guarded', 'act', null)), toolsets: [Guarded] });
    const err = await run(registry, 'act', {}).catch((e: unknown) => e);
    expect(classifyFailure(err)?.kind).toBe('rejected');
    expect(order).toEqual(['class:act', 'deny:act']);
    expect(ran).toBe(0);
  });

  it('resolves a class policy with the resolver, once per container', async () => {
    const decisions: string[] = [];
    class RequireScope {
      constructor(readonly scope: string) {}
      authorize(_a: Authorization, options: { context?: unknown }): boolean {
        decisions.push(this.scope);
        return (options.context as { scopes: string[] }).scopes.includes(this.scope);
      }
    }
    @Toolset()
    @Authorize(RequireScope)
    class Scoped {
      @Tool() a(): string {
        return 'a';
      }
      @Tool() b(): string {
        return 'b';
      }
    }
    const built: Function[] = [];
    const resolve = (cls: Function) => {
      built.push(cls);
      return cls === RequireScope ? new RequireScope('notes:write') : new Scoped();
    };
    const registry = createRegistry({
      manifest: manifest(entry('a', 'Scoped', 'a', null), entry('b', 'Scoped', 'b', null)),
      toolsets: [Scoped],
      resolve,
    });
    expect(built).toEqual([Scoped, RequireScope]);
    await expect(run(registry, 'a', {}, { scopes: ['notes:write'] })).resolves.toMatchObject({});
    const refused = await run(registry, 'b', {}, { scopes: [] }).catch((e: unknown) => e);
    expect(classifyFailure(refused)?.kind).toBe('rejected');
    expect(decisions).toEqual(['notes:write', 'notes:write']);
  });
});

describe('toolset resolution', () => {
  it('builds a class with a zero-argument constructor without a resolver', () => {
    @Toolset()
    class Simple {
      @Tool() ping(): string {
        return 'pong';
      }
    }
    expect(
      createRegistry({ manifest: manifest(entry('ping', 'Simple', 'ping', null)), toolsets: [Simple] }).resolve('ping'),
    ).toBeDefined();
  });

  it('refuses a class whose constructor takes arguments when no resolver is given', () => {
    expect(() => createRegistry({ manifest: NOTES_MANIFEST, toolsets: [NotesTools] })).toThrow(
      refusal(needsResolver('toolset NotesTools', NotesTools)),
    );
  });

  it('builds a class through the resolver', () => {
    const registry = createRegistry({
      manifest: NOTES_MANIFEST,
      toolsets: [NotesTools],
      resolve: () => new NotesTools(new NotesStore()),
    });
    expect(registry.resolve('create_note')).toBeDefined();
  });

  it('refuses a class without @Toolset', () => {
    class NotMarked {
      @Tool() ping(): string {
        return 'pong';
      }
    }
    expect(() =>
      createRegistry({ manifest: manifest(entry('ping', 'NotMarked', 'ping', null)), toolsets: [new NotMarked()] }),
    ).toThrow(refusal(notAToolset('NotMarked')));
  });
});

describe('manifest checks', () => {
  const tools = new NotesTools(new NotesStore());

  it('refuses the manifest JSON text given as `manifest`, pointing at JSON.parse', () => {
    // Regression (new-user trial, finding 1): the text was read as a path (ENAMETOOLONG).
    expect(() => createRegistry({ manifest: JSON.stringify(NOTES_MANIFEST), toolsets: [tools] })).toThrow(
      refusal(manifestErrors.jsonText()),
    );
  });

  it('refuses a @Tool method missing from the manifest, naming the tool, Class.method and the command', () => {
    const partial = manifest(NOTES_MANIFEST.tools[0], NOTES_MANIFEST.tools[2]);
    expect(() => createRegistry({ manifest: partial, toolsets: [tools] })).toThrow(
      refusal(missingFromManifest('create_note', 'NotesTools.createNote')),
    );
  });

  it('refuses a stale entry: another input DTO name', () => {
    const stale = manifest(
      NOTES_MANIFEST.tools[0],
      entry('create_note', 'NotesTools', 'createNote', 'NoteInput', NOTE_SCHEMA),
      NOTES_MANIFEST.tools[2],
    );
    expect(() => createRegistry({ manifest: stale, toolsets: [tools] })).toThrow(
      refusal(staleEntry('create_note', 'NotesTools.createNote', staleInput('CreateNoteInput', 'NoteInput'))),
    );
  });

  it('refuses a stale entry: property names that differ, naming them', () => {
    const schema = { ...NOTE_SCHEMA, properties: { title: { type: 'string' }, body: { type: 'string' } } };
    const stale = manifest(
      NOTES_MANIFEST.tools[0],
      entry('create_note', 'NotesTools', 'createNote', 'CreateNoteInput', schema),
      NOTES_MANIFEST.tools[2],
    );
    expect(() => createRegistry({ manifest: stale, toolsets: [tools] })).toThrow(
      refusal(staleEntry('create_note', 'NotesTools.createNote', staleMembers('CreateNoteInput', ['tags'], ['body']))),
    );
  });

  describe('refuses a stale bound: a decorator changed without regenerating (issue 15 item 4)', () => {
    class ListInput {
      @IsInt() @Min(1) @Max(100) limit!: number;
      @IsOptional() @IsString() @IsNotEmpty() @MinLength(0) query?: string;
    }
    @Toolset()
    class ListTools {
      @Tool({ name: 'list_notes', description: 'List notes.', input: ListInput })
      list(input: ListInput): string {
        return String(input.limit);
      }
    }
    const schemaWith = (limit: Record<string, unknown>) => ({
      type: 'object',
      properties: { limit: { type: 'integer', ...limit }, query: { type: 'string', minLength: 1 } },
      required: ['limit'],
      additionalProperties: false,
    });
    const registryOf = (limit: Record<string, unknown>) =>
      createRegistry({
        manifest: manifest(entry('list_notes', 'ListTools', 'list', 'ListInput', schemaWith(limit))),
        toolsets: [new ListTools()],
      });

    it('names the tool, member, decorator and both values: @Max(50) became @Max(100)', () => {
      // The manifest was generated from @Max(50): it kept refusing 80 with no warning.
      const what = staleConstraint({
        member: 'limit',
        decorator: 'Max',
        keyword: 'maximum',
        inSource: 100,
        inManifest: 50,
      });
      expect(() => registryOf({ minimum: 1, maximum: 50 })).toThrow(
        refusal(staleEntry('list_notes', 'ListTools.list', what)),
      );
    });

    it('names a bound the manifest does not state', () => {
      const what = staleConstraint({
        member: 'limit',
        decorator: 'Max',
        keyword: 'maximum',
        inSource: 100,
        inManifest: undefined,
      });
      expect(() => registryOf({ minimum: 1 })).toThrow(refusal(staleEntry('list_notes', 'ListTools.list', what)));
    });

    it('accepts bounds that match, and leaves a keyword two decorators merge alone', () => {
      // query: @MinLength(0) beside @IsNotEmpty() is minLength 1 in the schema, which is not drift.
      expect(
        registryOf({ minimum: 1, maximum: 100 })
          .definitions()
          .map((d) => d.name),
      ).toEqual(['list_notes']);
    });
  });

  it('refuses a stale entry: another class or method', () => {
    const renamed = manifest(
      NOTES_MANIFEST.tools[0],
      entry('create_note', 'NotesTools', 'addNote', 'CreateNoteInput', NOTE_SCHEMA),
      NOTES_MANIFEST.tools[2],
    );
    expect(() => createRegistry({ manifest: renamed, toolsets: [tools] })).toThrow(
      refusal(staleEntry('create_note', 'NotesTools.createNote', staleMethod('addNote', 'createNote'))),
    );
    const moved = manifest(
      NOTES_MANIFEST.tools[0],
      entry('create_note', 'OldTools', 'createNote', 'CreateNoteInput', NOTE_SCHEMA),
      NOTES_MANIFEST.tools[2],
    );
    expect(() => createRegistry({ manifest: moved, toolsets: [tools] })).toThrow(
      refusal(staleEntry('create_note', 'NotesTools.createNote', staleClass('OldTools', 'NotesTools'))),
    );
  });

  it('reports every stale tool in one error, one issue per tool or member (trial 2 finding 8)', () => {
    // Regression: start-up stopped at the first stale tool and `issues` was always [].
    const schema = { ...NOTE_SCHEMA, properties: { title: { type: 'string' }, body: { type: 'string' } } };
    const stale = manifest(
      entry('create_note', 'NotesTools', 'createNote', 'CreateNoteInput', schema),
      entry('delete_file', 'NotesTools', 'removeFile', 'ConfirmInput', CONFIRM_SCHEMA),
    );
    const err = thrownBy(() => createRegistry({ manifest: stale, toolsets: [tools] }));
    expect(err).toMatchObject({ code: 'ERR_INVALID_TOOL' });
    // The first in full; the others named, in the order of the toolset's methods.
    const first = staleEntry(
      'create_note',
      'NotesTools.createNote',
      staleMembers('CreateNoteInput', ['tags'], ['body']),
    );
    expect(err.message.startsWith(first.message.replace(/; run scope-tool generate$/, ''))).toBe(true);
    expect(err.message).toContain('"delete_file" (NotesTools.deleteFile)');
    expect(err.message).toContain('"count" (NotesTools.count)');
    expect(err.issues.map((i) => [i.code, i.params])).toEqual([
      ['stale_manifest', { tool: 'create_note', place: 'NotesTools.createNote', member: 'tags' }],
      ['stale_manifest', { tool: 'create_note', place: 'NotesTools.createNote', member: 'body' }],
      ['stale_manifest', { tool: 'delete_file', place: 'NotesTools.deleteFile' }],
      ['stale_manifest', { tool: 'count', place: 'NotesTools.count' }],
    ]);
    expect(err.issues.every((i) => i.path.length === 0 && i.message.startsWith('tool "'))).toBe(true);
    // Nothing was registered.
    const registry = new Registry();
    expect(() => createRegistry({ manifest: stale, toolsets: [tools], registry })).toThrow();
    expect(registry.definitions()).toEqual([]);
  });

  it('one stale tool: its own sentence, with its issue', () => {
    const partial = manifest(NOTES_MANIFEST.tools[0], NOTES_MANIFEST.tools[2]);
    const err = thrownBy(() => createRegistry({ manifest: partial, toolsets: [tools] }));
    expect(err.message).toBe(missingFromManifest('create_note', 'NotesTools.createNote').message);
    expect(err.issues).toEqual([
      expect.objectContaining({
        code: 'stale_manifest',
        params: { tool: 'create_note', place: 'NotesTools.createNote' },
      }),
    ]);
  });

  it('accepts tools no toolset declares, and names them when start-up fails anyway (review item 4)', () => {
    // One project's manifest serves several registries (samples/quick-start.ts and
    // samples/serve-mcp.ts share samples/tools.manifest.json), so extra tools alone are no error.
    const other = entry('send_email', 'EmailTools', 'send', null);
    const shared = manifest(...NOTES_MANIFEST.tools, other);
    expect(createRegistry({ manifest: shared, toolsets: [tools] }).resolve('send_email')).toBeUndefined();
    // Regression: with a tool missing (here renamed), the message did not name the manifest's extras.
    const renamed = manifest(
      NOTES_MANIFEST.tools[0],
      entry('add_note', 'NotesTools', 'createNote', 'CreateNoteInput', NOTE_SCHEMA),
      NOTES_MANIFEST.tools[2],
      other,
    );
    const err = thrownBy(() => createRegistry({ manifest: renamed, toolsets: [tools] }));
    expect(err).toMatchObject({ code: 'ERR_INVALID_TOOL' });
    expect(err.message).toContain('the manifest also lists "add_note", "send_email", which no toolset given declares');
    expect(err.issues.map((i) => [i.code, i.params])).toEqual([
      ['stale_manifest', { tool: 'create_note', place: 'NotesTools.createNote' }],
    ]);
  });

  describe('a nested DTO member removed or added without regenerating (trial 2 finding 7a)', () => {
    class Owner {
      @IsString() name!: string;
    }
    class WriteFileInput {
      @IsString() path!: string;
      @ValidateNested() @Type(() => Owner) owner!: Owner;
    }
    @Toolset()
    class FileTools {
      @Tool({ name: 'write_file', input: WriteFileInput })
      writeFile(input: WriteFileInput): string {
        return input.path;
      }
    }
    const ownerSchema = (properties: JsonObject): JsonObject => ({
      type: 'object',
      properties: { path: { type: 'string' }, owner: { $ref: '#/$defs/Owner' } },
      required: ['path', 'owner'],
      additionalProperties: false,
      $defs: {
        Owner: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
      },
    });
    const start = (properties: JsonObject) => () =>
      createRegistry({
        manifest: manifest(entry('write_file', 'FileTools', 'writeFile', 'WriteFileInput', ownerSchema(properties))),
        toolsets: [new FileTools()],
      });

    it('refuses a manifest that still lists owner.team (the member was removed), naming the member path', () => {
      // Regression: start-up accepted it, and every call then failed (`/owner: must have required member "team"`).
      const err = thrownBy(start({ name: { type: 'string' }, team: { type: 'string' } }));
      expect(err).toMatchObject({
        code: 'ERR_INVALID_TOOL',
        message: staleEntry('write_file', 'FileTools.writeFile', staleMembers('WriteFileInput', [], ['owner.team']))
          .message,
      });
      expect(err.issues.map((i) => i.params)).toEqual([
        { tool: 'write_file', place: 'FileTools.writeFile', member: 'owner.team' },
      ]);
    });

    it('refuses a manifest that lacks a nested member the class has', () => {
      const err = thrownBy(start({}));
      expect(err.message).toBe(
        staleEntry('write_file', 'FileTools.writeFile', staleMembers('WriteFileInput', ['owner.name'], [])).message,
      );
    });

    it('accepts the up-to-date manifest', () => {
      expect(start({ name: { type: 'string' } })().resolve('write_file')).toBeDefined();
    });
  });
});

describe('a manifest schema nested thousands of levels deep (start-up review, item 1)', () => {
  // Regression: a member wrapped in allOf 3,000 deep made createRegistry throw
  // `RangeError: Maximum call stack size exceeded` (no code) while copying the manifest.
  const deepManifest = (levels: number) => {
    let inner: JsonObject = { type: 'string' };
    for (let i = 0; i < levels; i++) inner = { allOf: [inner] };
    const schema = {
      ...NOTE_SCHEMA,
      properties: { ...NOTE_SCHEMA.properties, title: { ...NOTE_SCHEMA.properties.title, allOf: [inner] } },
    };
    return manifest(entry('create_note', 'OneTool', 'createNote', 'CreateNoteInput', schema));
  };
  @Toolset()
  class OneTool {
    @Tool({ name: 'create_note', input: CreateNoteInput })
    createNote(input: CreateNoteInput): string {
      return input.title;
    }
  }

  it('refuses nesting deeper than MAX_DEPTH with ERR_INVALID_TOOL, naming the tool, the schema and the bound', () => {
    const err = thrownBy(() => createRegistry({ manifest: deepManifest(6_000), toolsets: [new OneTool()] }));
    expect(err).toMatchObject({
      code: 'ERR_INVALID_TOOL',
      message: manifestErrors.member(
        'manifest',
        '/tools/0/definition/input_schema',
        manifestErrors.tooDeepText('create_note', MAX_DEPTH),
      ).message,
    });
  });

  it('refuses 3,000 levels, within the bound but too deep to compile, with a code and the tool', () => {
    const err = thrownBy(() => createRegistry({ manifest: deepManifest(3_000), toolsets: [new OneTool()] }));
    expect(err).toMatchObject({ code: 'ERR_INVALID_SCHEMA' });
    expect(err.message).toContain('tool "create_note" (OneTool.createNote)');
  });
});

function thrownBy(f: () => unknown): ToolError {
  try {
    f();
  } catch (e) {
    return e as ToolError;
  }
  throw new Error('nothing was thrown');
}

describe('atomic registration', () => {
  @Toolset()
  class Second {
    @Tool() ping(): string {
      return 'pong';
    }
  }

  it('registers nothing when one tool of the batch clashes with a registered name', () => {
    const existing = FuncTool.create(
      { name: 'ping', inputSchema: { type: 'object' }, decode: () => ({}) },
      () => 'existing',
    );
    const registry = new Registry(existing);
    const both = manifest(...NOTES_MANIFEST.tools, entry('ping', 'Second', 'ping', null));
    expect(() =>
      createRegistry({ manifest: both, toolsets: [new NotesTools(new NotesStore()), new Second()], registry }),
    ).toThrow(expect.objectContaining({ code: 'ERR_DUPLICATE_TOOL' }));
    expect(registry.definitions().map((d) => d.name)).toEqual(['ping']);
  });

  it('registers nothing when a later toolset is missing from the manifest', () => {
    const registry = new Registry();
    expect(() =>
      createRegistry({
        manifest: NOTES_MANIFEST,
        toolsets: [new NotesTools(new NotesStore()), new Second()],
        registry,
      }),
    ).toThrow(refusal(missingFromManifest('ping', 'Second.ping')));
    expect(registry.definitions()).toEqual([]);
  });
});

describe('DTO defects at registration', () => {
  it('names the tool and Class.method when the input DTO is refused', () => {
    class AsyncInput {
      @IsBoolean() flag!: boolean;
    }
    @Toolset()
    class Bad {
      @Tool() act(_input: AsyncInput): string {
        return 'x';
      }
    }
    // The manifest's input schema does not compile: the error names the tool and the method. (It
    // still states @IsBoolean's type, or the drift check, lib/dto/drift.ts, would refuse it first.)
    const broken = manifest(
      entry('act', 'Bad', 'act', 'AsyncInput', {
        type: 'object',
        properties: { flag: { type: ['boolean', 'nope'] } },
      }),
    );
    expect(() => createRegistry({ manifest: broken, toolsets: [Bad] })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_SCHEMA',
        message: expect.stringContaining('tool "act" (Bad.act): '),
      }),
    );
  });
});
