/**
 * Discovery at start-up (lib/nest/explorer.ts): which providers become tools, which policy classes
 * are asked, and the problems that fail start-up instead of leaving a tool out.
 */
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, Query, Scope, UseGuards } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { APP_GUARD, DiscoveryService } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { classifyFailure, hasErrorCode } from '../../lib/protocol';
import type { Authorization, CallOptions } from '../../lib/protocol';
import { entry, manifest } from '../container/fixtures';
import {
  call,
  ClockModule,
  ClockTools,
  Directory,
  MANIFEST,
  NotesModule,
  NotesRepository,
  start,
  startProblem,
  TitleInput,
  TITLE_SCHEMA,
  toolNames,
  WritersOnly,
} from './fixtures';

@Toolset()
@Injectable()
class WebSearch {
  @Tool({ name: 'search' })
  query(): string {
    return 'web';
  }
}

@Toolset()
@Injectable()
class DocsSearch {
  @Tool({ name: 'search' })
  find(): string {
    return 'docs';
  }
}

@Module({ providers: [WebSearch] })
class WebModule {}

const SEARCH = manifest(entry('search', 'WebSearch', 'query', null));
const NOW = manifest(entry('now', 'Clock', 'now', null));

describe('toolsets are the @Toolset class providers of every module', () => {
  it('registers the tools of toolsets declared in any module, with their injected dependencies', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, ClockModule] });
    expect(toolNames(app)).toEqual(['add_note', 'now']);
    const result = await call(app.get(ToolRegistry), 'add_note', '{"title":"milk"}', { user: 'alice' });
    expect('output' in result && result.output.asText()).toBe('added milk for alice');
    expect(app.get(NotesRepository, { strict: false }).titles).toEqual(['milk']);
    await app.close();
  });

  it('makes ToolRegistry injectable in every module (global by default)', async () => {
    @Injectable()
    class Assistant {
      constructor(readonly tools: ToolRegistry) {}
    }
    @Module({ providers: [Assistant] })
    class AssistantModule {}
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule, AssistantModule],
    });
    expect(app.get(Assistant, { strict: false }).tools).toBe(app.get(ToolRegistry));
    await app.close();
  });

  it('starts with an empty registry when the application has no toolset', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST })] });
    expect(toolNames(app)).toEqual([]);
    await app.close();
  });

  it('registers a toolset once when its module is imported by several modules', async () => {
    @Module({ imports: [WebModule] })
    class A {}
    @Module({ imports: [WebModule] })
    class B {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), A, B] });
    expect(toolNames(app)).toEqual(['search']);
    await app.close();
  });

  it('registers a default-scoped global guard (APP_GUARD useClass) whose class is a toolset', async () => {
    @Toolset()
    @Injectable()
    class Clock {
      canActivate(): boolean {
        return true;
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [{ provide: APP_GUARD, useClass: Clock }] })
    class GuardModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GuardModule] });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('calls the hooks of a toolset once each (Nest’s), and lets it read ToolRegistry in its onModuleInit', async () => {
    const log: string[] = [];
    @Toolset()
    @Injectable()
    class Clock {
      constructor(private readonly tools: ToolRegistry) {}
      onModuleInit(): void {
        log.push(`init ${this.tools.definitions().length}`);
      }
      onModuleDestroy(): void {
        log.push('destroy');
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    await app.close();
    expect(log).toEqual(['init 1', 'destroy']);
  });
});

describe('start-up is atomic', () => {
  it('registers nothing when one tool cannot be bound, keeping the container’s code and cause', async () => {
    const stale = { version: 1, tools: MANIFEST.tools.filter((t) => t.name !== 'now') };
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: stale }), NotesModule, ClockModule],
    });
    expect(error).toMatchObject({ code: 'ERR_INVALID_TOOL', problem: { rule: 'build_failed' } });
    expect(hasErrorCode(error.cause, 'ERR_INVALID_TOOL')).toBe(true);
    expect(error.problem).toMatchObject({ detail: expect.stringContaining('ClockTools.now') });
  });

  it('fails on a manifest path that cannot be read', async () => {
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: '/nonexistent/tools.manifest.json' }), ClockModule],
    });
    expect(error.problem).toMatchObject({
      rule: 'build_failed',
      detail: expect.stringContaining('/nonexistent/tools.manifest.json'),
    });
  });

  it('wraps an unexpected error as start_up_failed, with the error as its cause', async () => {
    const broken = new TypeError('discovery broke');
    const scan = jest.spyOn(DiscoveryService.prototype, 'getControllers').mockImplementation(() => {
      throw broken;
    });
    try {
      const error = await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
      expect(error).toMatchObject({ code: 'ERR_INVALID_TOOL', problem: { rule: 'start_up_failed' } });
      expect(error.cause).toBe(broken);
    } finally {
      scan.mockRestore();
    }
  });
});

describe('one tool name, one toolset instance', () => {
  it('fails when toolsets of two modules declare one tool name, naming both', async () => {
    @Module({ providers: [DocsSearch] })
    class DocsModule {}
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, DocsModule],
    });
    expect(error).toMatchObject({
      code: 'ERR_DUPLICATE_TOOL',
      problem: {
        rule: 'duplicate_tool',
        tool: 'search',
        first: 'WebSearch.query (WebModule)',
        second: 'DocsSearch.find (DocsModule)',
      },
    });
  });

  it('fails when two modules provide one toolset class (two instances), naming both', async () => {
    @Module({ providers: [WebSearch] })
    class OtherWebModule {}
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, OtherWebModule],
    });
    expect(error.problem).toEqual({
      rule: 'provided_twice',
      kind: 'toolset',
      cls: 'WebSearch',
      first: { token: 'WebSearch', module: 'WebModule' },
      second: { token: 'WebSearch', module: 'OtherWebModule' },
      sameModule: false,
    });
  });

  it('fails when one module provides one toolset class under two tokens', async () => {
    @Module({ providers: [WebSearch, { provide: 'SEARCH', useClass: WebSearch }] })
    class AppModule {}
    const error = await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), AppModule] });
    expect(error.problem).toMatchObject({ rule: 'provided_twice', sameModule: true, second: { token: "'SEARCH'" } });
  });

  it('tells two modules of one class name apart', async () => {
    const searchModule = () => {
      @Module({ providers: [WebSearch] })
      class SearchModule {}
      return SearchModule;
    };
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), searchModule(), searchModule()],
    });
    expect(error.problem).toMatchObject({ rule: 'provided_twice', sameModule: false });
  });
});

describe('a @Toolset class Nest uses but no module provides', () => {
  /** A @Toolset class that is also a guard, and a controller that names it in @UseGuards(). */
  function guarded(): { Clock: Type; Guarded: Type } {
    @Toolset()
    @Injectable()
    class Clock {
      canActivate(): boolean {
        return true;
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Controller()
    @UseGuards(Clock)
    class Guarded {
      @Get()
      get(): string {
        return 'ok';
      }
    }
    return { Clock, Guarded };
  }

  it('fails for a toolset among a module’s controllers', async () => {
    @Toolset()
    @Controller()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ controllers: [Clock] })
    class ClockControllerModule {}
    const error = await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockControllerModule] });
    expect(error.problem).toEqual({
      rule: 'not_a_provider',
      cls: 'Clock',
      module: 'ClockControllerModule',
      use: 'controller',
    });
  });

  it('fails for a toolset used only as a guard, a parameter pipe or a transient global guard', async () => {
    const { Guarded } = guarded();
    @Module({ controllers: [Guarded] })
    class GuardedModule {}
    expect(
      (await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GuardedModule] })).problem,
    ).toMatchObject({
      rule: 'not_a_provider',
      module: 'GuardedModule',
      use: 'guard',
    });
    @Toolset()
    @Injectable()
    class Parser {
      transform(value: unknown): unknown {
        return value;
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Controller()
    class Piped {
      @Get()
      get(@Query('q', Parser) q: string): string {
        return q;
      }
    }
    @Module({ controllers: [Piped] })
    class PipedModule {}
    expect(
      (await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), PipedModule] })).problem,
    ).toMatchObject({
      rule: 'not_a_provider',
      cls: 'Parser',
      use: 'pipe',
    });
    const { Clock } = guarded();
    @Module({ providers: [{ provide: APP_GUARD, useClass: Clock, scope: Scope.TRANSIENT }] })
    class GlobalGuardModule {}
    expect(
      (await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GlobalGuardModule] })).problem,
    ).toMatchObject({ rule: 'not_a_provider', use: 'guard' });
  });

  it('registers the provider’s instance when a module provides the guard class too', async () => {
    const { Clock, Guarded } = guarded();
    @Module({ controllers: [Guarded], providers: [Clock] })
    class GuardedModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GuardedModule] });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it("with discover: 'features', fails only for a listed class", async () => {
    const { Clock, Guarded } = guarded();
    @Module({ controllers: [Guarded] })
    class Unlisted {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), Unlisted] });
    expect(toolNames(app)).toEqual([]);
    await app.close();
    @Module({ imports: [ScopeToolModule.forFeature([Clock])], controllers: [Guarded] })
    class Listed {}
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), Listed],
    });
    expect(error.problem).toMatchObject({ rule: 'not_a_provider', module: 'Listed', use: 'guard' });
  });
});

describe('forFeature() lists', () => {
  @Toolset()
  @Injectable()
  class OtherTools {
    @Tool({ name: 'other' })
    other(): string {
      return 'other';
    }
  }
  const BOTH = manifest(entry('now', 'ClockTools', 'now', null), entry('other', 'OtherTools', 'other', null));
  @Module({ imports: [ScopeToolModule.forFeature([ClockTools])], providers: [ClockTools] })
  class ListedClockModule {}

  it("registers only the listed toolsets with discover: 'features', and every toolset with 'all'", async () => {
    for (const [discover, names] of [
      ['features', ['now']],
      ['all', ['add_note', 'now']],
    ] as const) {
      const app = await start({
        imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover }), NotesModule, ListedClockModule],
      });
      expect(toolNames(app)).toEqual(names);
      await app.close();
    }
  });

  it('counts a provider by the class it builds, whatever its token', async () => {
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [{ provide: OtherTools, useClass: ClockTools }],
    })
    class FeatureModule {}
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), FeatureModule],
    });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('registers a decorated subclass of a listed class (a test override)', async () => {
    @Toolset()
    @Injectable()
    class ClockTools2 extends ClockTools {}
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [{ provide: ClockTools, useClass: ClockTools2 }],
    })
    class FeatureModule {}
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'ClockTools2', 'now', null)), discover: 'features' }),
        FeatureModule,
      ],
    });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('fails when a listed class is provided by no module, or its token builds an unlisted toolset', async () => {
    @Module({ imports: [ScopeToolModule.forFeature([ClockTools])] })
    class Forgetful {}
    expect(
      (await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), Forgetful] })).problem,
    ).toEqual({
      rule: 'feature_not_provided',
      cls: 'ClockTools',
    });
    @Module({
      imports: [ScopeToolModule.forFeature([OtherTools])],
      providers: [{ provide: OtherTools, useClass: ClockTools }],
    })
    class Swapped {}
    expect(
      (await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), Swapped] }))
        .problem,
    ).toEqual({ rule: 'feature_not_provided', cls: 'OtherTools' });
  });

  it('fails when a listed class is not a @Toolset', async () => {
    class Plain {}
    @Module({ imports: [ScopeToolModule.forFeature([Plain])], providers: [Plain] })
    class Mistaken {}
    const error = await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), Mistaken] });
    expect(error.problem).toEqual({ rule: 'feature_not_toolset', cls: 'Plain' });
  });

  it("with discover: 'features', does not look at unlisted toolsets (two instances of one are no problem)", async () => {
    @Module({ providers: [ClockTools] })
    class Again {}
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH, discover: 'features' }), ClockModule, Again],
    });
    expect(toolNames(app)).toEqual([]);
    await app.close();
  });
});

describe('@Authorize policy classes come from the providers of any module', () => {
  it('asks the policy, built with its own dependencies, with the caller context', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule] });
    const registry = app.get(ToolRegistry);
    const permitted = await call(registry, 'add_note', '{"title":"milk"}', { user: 'alice' });
    expect('output' in permitted && permitted.output.asText()).toBe('added milk for alice');
    const refused = await call(registry, 'add_note', '{"title":"milk"}', { user: 'bob' }).catch((e: unknown) => e);
    expect(classifyFailure(refused)?.kind).toBe('rejected');
    await app.close();
  });

  it('asks shared, class and method policies in that order', async () => {
    const asked: string[] = [];
    @Injectable()
    class SharedPolicy {
      authorize(): boolean {
        asked.push('shared');
        return true;
      }
    }
    @Injectable()
    class MethodPolicy {
      authorize(authorization: Authorization, _options: CallOptions): boolean {
        asked.push(`method ${authorization.arguments}`);
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
    @Module({ providers: [SharedPolicy, MethodPolicy, Titled] })
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

  it('asks the policy class of a method an override replaces (the override has no @Authorize)', async () => {
    const asked: string[] = [];
    @Injectable()
    class AdminsOnly {
      authorize(): boolean {
        asked.push('admins');
        return false;
      }
    }
    class BaseTitled {
      @Tool({ name: 'title' })
      @Authorize(AdminsOnly)
      title(input: TitleInput): string {
        return input.title;
      }
    }
    @Toolset()
    @Injectable()
    class AuditedTitled extends BaseTitled {
      @Tool({ name: 'title' })
      override title(input: TitleInput): string {
        return `audited ${super.title(input)}`;
      }
    }
    @Module({ providers: [AdminsOnly, AuditedTitled] })
    class AuditedModule {}
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({
          manifest: manifest(entry('title', 'AuditedTitled', 'title', 'TitleInput', TITLE_SCHEMA)),
        }),
        AuditedModule,
      ],
    });
    const refused = await call(app.get(ToolRegistry), 'title', '{"title":"x"}').catch((e: unknown) => e);
    expect([classifyFailure(refused)?.kind, asked]).toEqual(['rejected', ['admins']]);
    await app.close();
  });

  it('resolves a policy provided by a module the toolset’s module does not import', async () => {
    @Injectable()
    class Elsewhere {
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(Elsewhere)
    @Injectable()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ToolsModule {}
    @Module({ providers: [Elsewhere] })
    class PolicyModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ToolsModule, PolicyModule] });
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    expect('output' in result && result.output.asText()).toBe('noon');
    await app.close();
  });

  it('fails when no module provides a policy class, naming what uses it', async () => {
    @Module({ providers: [NotesRepository, Directory] })
    class Deps {}
    @Toolset()
    @Authorize(WritersOnly)
    @Injectable()
    class Orphan {
      @Tool({ name: 'now' })
      now(): string {
        return 'noon';
      }
    }
    @Module({ imports: [Deps], providers: [Orphan] })
    class OrphanModule {}
    const orphan = manifest(entry('now', 'Orphan', 'now', null));
    const error = await startProblem({ imports: [ScopeToolModule.forRoot({ manifest: orphan }), OrphanModule] });
    expect(error.problem).toEqual({
      rule: 'policy_not_provided',
      policy: 'WritersOnly',
      of: 'Orphan (OrphanModule)',
      shared: false,
    });
    @Injectable()
    class Shared {
      authorize(): boolean {
        return true;
      }
    }
    const shared = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, policies: [Shared] }), ClockModule],
    });
    expect(shared.problem).toMatchObject({ rule: 'policy_not_provided', policy: 'Shared', shared: true });
  });

  it('fails when two modules provide one policy class (two instances)', async () => {
    @Module({ providers: [Directory, WritersOnly], exports: [Directory] })
    class FirstPolicies {}
    @Module({ imports: [FirstPolicies], providers: [WritersOnly] })
    class SecondPolicies {}
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, FirstPolicies, SecondPolicies],
    });
    expect(error.problem).toMatchObject({ rule: 'provided_twice', kind: 'policy', cls: 'WritersOnly' });
  });
});
