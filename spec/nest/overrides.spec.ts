/**
 * A @Toolset class that would not become a tool fails start-up instead of being skipped: a toolset
 * in a module's controllers, and a provider whose token is a toolset (or policy) class but whose
 * value is not an instance of one, as a test override easily makes.
 */
import 'reflect-metadata';
import { Controller, Get, Inject, Injectable, Logger, Module, Query, Scope, UseGuards } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import {
  call,
  ClockModule,
  ClockTools,
  Directory,
  MANIFEST,
  NotesModule,
  NotesRepository,
  NotesTools,
  start,
  startFailure,
  WritersOnly,
} from './fixtures';

/** Compiles with overrides, initializes; returns the error of start-up (or fails the test). */
async function overriddenFailure(
  imports: unknown[],
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<Error & { code?: string }> {
  const builder = Test.createTestingModule({ imports: imports as never[] }).setLogger({
    log() {},
    error() {},
    warn() {},
  });
  const moduleRef = await override(builder).compile();
  try {
    await moduleRef.init();
  } catch (e) {
    return e as Error & { code?: string };
  } finally {
    await moduleRef.close().catch(() => undefined);
  }
  throw new Error('start-up succeeded but was expected to fail');
}

describe('a @Toolset class in a module’s controllers', () => {
  it('fails start-up, naming the class, its module and the fix', async () => {
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
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }),
        ClockControllerModule,
      ],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset Clock (ClockControllerModule) is declared in the module's controllers, and ScopeToolModule registers toolsets from providers only; move it to the providers of ClockControllerModule (a controller may inject it from there)",
    );
  });

  it("with discover: 'features', fails only for a listed class (others never become tools)", async () => {
    @Toolset()
    @Controller()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ controllers: [Clock] })
    class Unlisted {}
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: 'features' }), Unlisted],
    });
    expect(app.get(ToolRegistry).definitions()).toEqual([]);
    await app.close();
    @Module({ imports: [ScopeToolModule.forFeature([Clock])], controllers: [Clock] })
    class Listed {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: 'features' }), Listed],
    });
    expect(error.message).toContain(
      "ScopeToolModule: the toolset Clock (Listed) is declared in the module's controllers",
    );
  });
});

describe('a @Toolset class that Nest builds only as an enhancer (guard, interceptor, pipe, filter)', () => {
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
  const NOW = manifest(entry('now', 'Clock', 'now', null));

  it('fails start-up, naming the class, its module, how Nest uses it and the fix, when no module provides it', async () => {
    const { Guarded } = guarded();
    @Module({ controllers: [Guarded] })
    class GuardedModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GuardedModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset Clock (GuardedModule) is used as a guard (@UseGuards(), @UseInterceptors(), @UsePipes(), @UseFilters() or a parameter pipe) and is a provider of no module; Nest builds an enhancer of its own for it, which is not a provider, and ScopeToolModule registers toolsets from providers only; add Clock to the providers of GuardedModule (the enhancer stays a separate instance, Nest's own), or make the guard a class that is no @Toolset()",
    );
  });

  it('fails for a pipe given to a parameter decorator too', async () => {
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
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Parser', 'now', null)) }), PipedModule],
    });
    expect(error.message).toContain('ScopeToolModule: the toolset Parser (PipedModule) is used as a pipe');
  });

  it('fails for a transient global guard (APP_GUARD), which Nest keeps among enhancers, not providers', async () => {
    const { Clock } = guarded();
    @Module({ providers: [{ provide: APP_GUARD, useClass: Clock, scope: Scope.TRANSIENT }] })
    class GlobalGuardModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GlobalGuardModule] });
    expect(error.message).toContain('ScopeToolModule: the toolset Clock (GlobalGuardModule) is used as a guard');
  });

  it('fails for a request-scoped global interceptor (APP_INTERCEPTOR) too', async () => {
    @Toolset()
    @Injectable({ scope: Scope.REQUEST })
    class Timing {
      intercept(_context: unknown, next: { handle(): unknown }): unknown {
        return next.handle();
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: Timing }] })
    class GlobalInterceptorModule {}
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Timing', 'now', null)) }),
        GlobalInterceptorModule,
      ],
    });
    expect(error.message).toContain(
      'ScopeToolModule: the toolset Timing (GlobalInterceptorModule) is used as an interceptor',
    );
  });

  it('registers a default-scoped global guard (APP_GUARD useClass), a provider whose value’s class is the toolset', async () => {
    const { Clock } = guarded();
    @Module({ providers: [{ provide: APP_GUARD, useClass: Clock }] })
    class GlobalGuardModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GlobalGuardModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });

  it('registers the provider’s instance when a module provides the class too', async () => {
    const { Clock, Guarded } = guarded();
    @Module({ controllers: [Guarded], providers: [Clock] })
    class GuardedModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), GuardedModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });

  it("with discover: 'features', fails only for a listed class", async () => {
    const { Clock, Guarded } = guarded();
    @Module({ controllers: [Guarded] })
    class Unlisted {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), Unlisted] });
    expect(app.get(ToolRegistry).definitions()).toEqual([]);
    await app.close();
    @Module({ imports: [ScopeToolModule.forFeature([Clock])], controllers: [Guarded] })
    class Listed {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), Listed],
    });
    expect(error.message).toContain('ScopeToolModule: the toolset Clock (Listed) is used as a guard');
  });
});

describe('a toolset token overridden with something that is not a toolset', () => {
  it('fails start-up on overrideProvider(...).useValue(mock), naming the token, its module and why', async () => {
    const error = await overriddenFailure([ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule], (b) =>
      b.overrideProvider(ClockTools).useValue({ now: () => 'mock' }),
    );
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the provider ClockTools (ClockModule) has the toolset ClockTools as its token, but its value is a plain object, not an instance of a @Toolset() class, so it has no tools to register; provide an instance of ClockTools. In a test, replace what the toolset depends on, or spy on the methods of the real instance, rather than the toolset itself',
    );
  });

  it('fails start-up on overrideProvider(...).useClass(subclass without its own @Toolset), as createRegistry calls it not a toolset', async () => {
    class FakeClock extends ClockTools {
      override now(): string {
        return 'fake';
      }
    }
    const error = await overriddenFailure([ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule], (b) =>
      b.overrideProvider(ClockTools).useClass(FakeClock),
    );
    expect(error.message).toContain(
      'ScopeToolModule: the provider ClockTools (ClockModule) has the toolset ClockTools as its token, but its value is an instance of FakeClock, and FakeClock is not a toolset; decorate FakeClock with @Toolset() (a subclass does not inherit it), or provide an instance of ClockTools',
    );
  });

  it('fails start-up on a factory under a toolset token that returns something else', async () => {
    @Module({ providers: [{ provide: ClockTools, useFactory: () => undefined }] })
    class Broken {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), Broken] });
    expect(error.message).toContain(
      'the provider ClockTools (Broken) has the toolset ClockTools as its token, but its value is undefined',
    );
  });

  it('registers a decorated subclass given as the override', async () => {
    @Toolset()
    @Injectable()
    class ClockTools2 extends ClockTools {}
    const builder = Test.createTestingModule({
      imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'ClockTools2', 'now', null)) }), ClockModule],
    }).setLogger({
      log() {},
      error() {},
      warn() {},
    });
    const app = await builder.overrideProvider(ClockTools).useClass(ClockTools2).compile();
    await app.init();
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    expect('output' in result && result.output.asText()).toBe('noon');
    await app.close();
  });
});

describe('a policy token overridden in a test', () => {
  it('fails start-up on a mock value, saying it is not an instance of the policy (not "not a provider of any module")', async () => {
    const error = await overriddenFailure([ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule], (b) =>
      b.overrideProvider(WritersOnly).useValue({ authorize: () => true }),
    );
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the policy WritersOnly of NotesTools (NotesModule) is provided by WritersOnly (NotesModule), whose value is a plain object, not an instance of WritersOnly, and scope-tool asks instances of the policy class; provide an instance of WritersOnly or of a subclass (in a test: overrideProvider(WritersOnly).useClass(FakeWritersOnly) with class FakeWritersOnly extends WritersOnly)',
    );
  });

  it('asks a subclass given with useClass', async () => {
    class PermitAll extends WritersOnly {
      override authorize(): boolean {
        return true;
      }
    }
    const builder = Test.createTestingModule({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule],
    }).setLogger({ log() {}, error() {}, warn() {} });
    const app = await builder.overrideProvider(WritersOnly).useClass(PermitAll).compile();
    await app.init();
    const result = await call(app.get(ToolRegistry), 'add_note', '{"title":"tea"}', { user: 'mallory' });
    expect('output' in result && result.output.asText()).toBe('added tea for mallory');
    await app.close();
  });
});

describe('policy classes resolved from any module', () => {
  it('says, for a policy of forRoot({ policies }) that no module provides, that any module will do', async () => {
    @Injectable()
    class Shared {
      authorize(): boolean {
        return true;
      }
    }
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, policies: [Shared] }), ClockModule],
    });
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the policy Shared of ScopeToolModule.forRoot({ policies }) is not a provider of any module; add it (an @Injectable() class) to the providers of any module of the application: policies are resolved from every module (a factory provider counts when its token is the class: { provide: Shared, useFactory })',
    );
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
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }),
        ToolsModule,
        PolicyModule,
      ],
    });
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    expect('output' in result && result.output.asText()).toBe('noon');
    await app.close();
  });
});

describe('an alias (useExisting) whose token is a @Toolset class is checked through the provider it stands for', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('fails start-up on an alias to a mock value, with the message of useValue', async () => {
    @Module({
      providers: [
        { provide: 'MOCK', useValue: { now: () => 'x' } },
        { provide: ClockTools, useExisting: 'MOCK' },
      ],
    })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the provider ClockTools (AppModule, useExisting: 'MOCK') has the toolset ClockTools as its token, but its value is a plain object, not an instance of a @Toolset() class, so it has no tools to register; provide an instance of ClockTools. In a test, replace what the toolset depends on, or spy on the methods of the real instance, rather than the toolset itself",
    );
  });

  it('fails start-up on an alias to an undecorated subclass, with the message of useClass', async () => {
    @Injectable()
    class UndecoratedSub extends ClockTools {}
    @Module({ providers: [UndecoratedSub, { provide: ClockTools, useExisting: UndecoratedSub }] })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
    expect(error.message).toContain(
      'ScopeToolModule: the provider ClockTools (AppModule, useExisting: UndecoratedSub) has the toolset ClockTools as its token, but its value is an instance of UndecoratedSub, and UndecoratedSub is not a toolset; decorate UndecoratedSub with @Toolset()',
    );
  });

  it('follows a chain of aliases, into another module', async () => {
    @Module({ providers: [{ provide: 'MOCK', useValue: { now: () => 'x' } }], exports: ['MOCK'] })
    class MockModule {}
    @Module({
      imports: [MockModule],
      providers: [
        { provide: 'STEP', useExisting: 'MOCK' },
        { provide: ClockTools, useExisting: 'STEP' },
      ],
    })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
    expect(error.message).toContain(
      "ScopeToolModule: the provider ClockTools (AppModule, useExisting: 'MOCK' of MockModule) has the toolset ClockTools as its token, but its value is a plain object",
    );
  });

  it('refuses an alias to a request-scoped factory as request-scoped, naming the alias and the factory, and does not warn', async () => {
    @Module({
      providers: [
        {
          provide: 'REQ',
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { zone: string }) => ({ zone: request.zone }),
        },
        { provide: ClockTools, useExisting: 'REQ' },
      ],
    })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (provider ClockTools of AppModule, useExisting: factory provider 'REQ' of AppModule) is request-scoped (Scope.REQUEST); tools are bound once at start-up",
    );
    expect(error.message).toContain("make the provider 'REQ' default-scoped");
    expect(warn).not.toHaveBeenCalled();
  });

  it('with discover: \'features\' and the class listed, refuses it as request-scoped (not "no module provides it")', async () => {
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [
        { provide: 'REQ', scope: Scope.REQUEST, useFactory: () => new ClockTools() },
        { provide: ClockTools, useExisting: 'REQ' },
      ],
    })
    class AppModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: 'features' }), AppModule],
    });
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (provider ClockTools of AppModule, useExisting: factory provider 'REQ' of AppModule) is request-scoped",
    );
  });

  it('refuses an alias to a transient toolset as transient', async () => {
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class TransientClock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [TransientClock, { provide: ClockTools, useExisting: TransientClock }] })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
    expect(error.message).toContain(
      'ScopeToolModule: the toolset TransientClock (AppModule) is transient (Scope.TRANSIENT);',
    );
  });

  it('registers an alias to a decorated toolset once, and with discover: features a listed alias token counts as provided', async () => {
    @Toolset()
    @Injectable()
    class ClockTools2 extends ClockTools {}
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [ClockTools2, { provide: ClockTools, useExisting: ClockTools2 }],
    })
    class AppModule {}
    for (const discover of ['all', 'features'] as const) {
      const app = await start({
        imports: [
          ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'ClockTools2', 'now', null)), discover }),
          AppModule,
        ],
      });
      const result = await call(app.get(ToolRegistry), 'now', '{}');
      expect('output' in result && result.output.asText()).toBe('noon');
      await app.close();
    }
  });

  it('with discover: \'features\' and a listed class overridden with a decorated subclass, registers the subclass (not "no module provides it")', async () => {
    @Toolset()
    @Injectable()
    class ClockTools2 extends ClockTools {}
    @Module({ imports: [ScopeToolModule.forFeature([ClockTools])], providers: [ClockTools] })
    class ListedClock {}
    const builder = Test.createTestingModule({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'ClockTools2', 'now', null)), discover: 'features' }),
        ListedClock,
      ],
    }).setLogger({ log() {}, error() {}, warn() {} });
    const app = await builder.overrideProvider(ClockTools).useClass(ClockTools2).compile();
    await app.init();
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });
});

describe('an alias (useExisting) whose token is a policy class', () => {
  it('asks the instance the alias stands for when it is an instance of the policy (a subclass)', async () => {
    @Injectable()
    class StrictWriters extends WritersOnly {
      override authorize(...args: Parameters<WritersOnly['authorize']>): boolean {
        return super.authorize(...args) && (args[1].context as { strict?: boolean } | undefined)?.strict === true;
      }
    }
    @Module({
      providers: [
        NotesRepository,
        Directory,
        StrictWriters,
        { provide: WritersOnly, useExisting: StrictWriters },
        NotesTools,
      ],
    })
    class StrictNotes {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), StrictNotes] });
    const registry = app.get(ToolRegistry);
    const permitted = await call(registry, 'add_note', '{"title":"tea"}', { user: 'alice', strict: true });
    expect('output' in permitted && permitted.output.asText()).toBe('added tea for alice');
    await expect(call(registry, 'add_note', '{"title":"tea"}', { user: 'alice' })).rejects.toBeDefined();
    await app.close();
  });

  it('fails start-up on an alias to a mock, saying it is not an instance of the policy (not "not a provider of any module")', async () => {
    @Module({
      providers: [
        NotesRepository,
        { provide: 'MOCK', useValue: { authorize: () => true } },
        { provide: WritersOnly, useExisting: 'MOCK' },
        NotesTools,
      ],
    })
    class MockedNotes {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), MockedNotes] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the policy WritersOnly of NotesTools (MockedNotes) is provided by WritersOnly (MockedNotes, useExisting: 'MOCK'), whose value is a plain object, not an instance of WritersOnly, and scope-tool asks instances of the policy class; provide an instance of WritersOnly or of a subclass (in a test: overrideProvider(WritersOnly).useClass(FakeWritersOnly) with class FakeWritersOnly extends WritersOnly)",
    );
  });

  it('refuses an alias to a request-scoped policy as request-scoped', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class RequestWriters extends WritersOnly {
      constructor(
        directory: Directory,
        @Inject(REQUEST) readonly request: unknown,
      ) {
        super(directory);
      }
    }
    @Module({
      providers: [
        NotesRepository,
        Directory,
        RequestWriters,
        { provide: WritersOnly, useExisting: RequestWriters },
        NotesTools,
      ],
    })
    class RequestNotes {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), RequestNotes] });
    expect(error.message).toContain(
      'ScopeToolModule: the policy WritersOnly (provider WritersOnly of RequestNotes, useExisting: provider RequestWriters of RequestNotes) is request-scoped (Scope.REQUEST);',
    );
    expect(error.message).toContain('make the provider RequestWriters default-scoped');
  });
});
