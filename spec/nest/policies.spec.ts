import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { classifyFailure } from '../../lib/protocol';
import type { Authorization, CallOptions } from '../../lib/protocol';
import { entry, manifest } from '../container/fixtures';
import {
  call,
  Directory,
  MANIFEST,
  NotesModule,
  start,
  startFailure,
  TitleInput,
  TITLE_SCHEMA,
  WritersOnly,
} from './fixtures';

describe('@Authorize policy classes come from the Nest container', () => {
  it('injects the policy with its own dependencies and asks it with the caller context', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule] });
    const registry = app.get(ToolRegistry);
    const permitted = await call(registry, 'add_note', '{"title":"milk"}', { user: 'alice' });
    expect('output' in permitted && permitted.output.asText()).toBe('added milk for alice');
    const refused = await call(registry, 'add_note', '{"title":"milk"}', { user: 'bob' }).catch((e: unknown) => e);
    expect(classifyFailure(refused)?.output.asText()).toBe('error: tool "add_note" is not authorized');
    await app.close();
  });

  it('uses the application instance of the policy, so its dependencies are the shared ones', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule] });
    app.get(Directory, { strict: false }).writers.add('bob');
    const result = await call(app.get(ToolRegistry), 'add_note', '{"title":"tea"}', { user: 'bob' });
    expect('output' in result && result.output.asText()).toBe('added tea for bob');
    await app.close();
  });

  it('resolves a method-level policy class and a shared policies class, asked in order: shared, class, method', async () => {
    const asked: string[] = [];
    @Injectable()
    class Log {
      readonly asked = asked;
    }
    @Injectable()
    class SharedPolicy {
      constructor(private readonly log: Log) {}
      authorize(): boolean {
        this.log.asked.push('shared');
        return true;
      }
    }
    @Injectable()
    class MethodPolicy {
      constructor(private readonly log: Log) {}
      authorize(authorization: Authorization, _options: CallOptions): boolean {
        this.log.asked.push(`method ${authorization.arguments}`);
        return true;
      }
    }
    @Toolset()
    @Authorize(() => (asked.push('class'), true))
    @Injectable()
    class Titled {
      @Tool({ name: 'title' })
      @Authorize(MethodPolicy)
      title(input: TitleInput): string {
        return input.title;
      }
    }
    @Module({ providers: [Log, SharedPolicy, MethodPolicy, Titled] })
    class TitledModule {}
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({
          manifest: manifest(entry('title', 'Titled', 'title', 'TitleInput', TITLE_SCHEMA)),
          policies: [SharedPolicy],
        }),
        TitledModule,
      ],
    });
    await call(app.get(ToolRegistry), 'title', '{"title":"x"}');
    expect(asked).toEqual(['shared', 'class', 'method {"title":"x"}']);
    await app.close();
  });

  it('fails start-up when no module provides a policy class, naming the policy, the toolset and the fix', async () => {
    @Module({ providers: [Directory] })
    class NoPolicy {}
    @Toolset()
    @Authorize(WritersOnly)
    @Injectable()
    class Orphan {
      @Tool({ name: 'now' })
      now(): string {
        return 'noon';
      }
    }
    @Module({ imports: [NoPolicy], providers: [Orphan] })
    class OrphanModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Orphan', 'now', null)) }), OrphanModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the policy WritersOnly of Orphan (OrphanModule) is not a provider of any module; add it (an @Injectable() class) to the providers of the toolset's module, or of a module it imports (a factory provider counts when its token is the class: { provide: WritersOnly, useFactory })",
    );
  });

  it('fails start-up when two modules provide one policy class (two instances), naming both modules', async () => {
    @Module({ providers: [Directory, WritersOnly], exports: [Directory] })
    class FirstPolicies {}
    @Module({ imports: [FirstPolicies], providers: [WritersOnly] })
    class SecondPolicies {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, FirstPolicies, SecondPolicies],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the policy WritersOnly is provided by both NotesModule (token WritersOnly) and FirstPolicies (token WritersOnly), as two instances, so scope-tool would not know which one to ask; provide it in one module and export that module to share it',
    );
  });
});
