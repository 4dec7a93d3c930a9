/**
 * Which providers ScopeToolModule binds (lib/nest/providers.ts): a default-scoped class provider of
 * a toolset or policy is bound as the application's instance; any other form is refused with one
 * problem, `not_static_class_provider`, naming its shape, class, token and module. Nothing is built
 * or called to learn what a provider is.
 */
import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import type { Provider } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { ScopeToolModule, ScopeToolModuleError, ToolRegistry } from '../../lib/nest';
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
  startProblem,
  toolNames,
  WritersOnly,
} from './fixtures';

const NOW = manifest(entry('now', 'ClockTools', 'now', null));

/** Starts ScopeToolModule with one module of `providers`; returns the problem it fails with. */
function refusal(providers: Provider[]): Promise<ScopeToolModuleError> {
  @Module({ providers })
  class AppModule {}
  return startProblem({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), AppModule] });
}

/** Compiles with overrides and initializes; returns the start-up error. */
async function overridden(
  imports: unknown[],
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<unknown> {
  const builder = Test.createTestingModule({ imports: imports as never[] }).setLogger({
    log() {},
    error() {},
    warn() {},
  });
  const moduleRef = await override(builder).compile();
  try {
    await moduleRef.init();
    return undefined;
  } catch (e) {
    return e;
  } finally {
    await moduleRef.close().catch(() => undefined);
  }
}

describe('a toolset provider that is not a default-scoped class provider is refused', () => {
  it.each<[string, () => Provider, string, string]>([
    [
      'a value under the class token',
      () => ({ provide: ClockTools, useValue: new ClockTools() }),
      'useValue',
      'ClockTools',
    ],
    ['a value under a string token', () => ({ provide: 'CLOCK', useValue: new ClockTools() }), 'useValue', "'CLOCK'"],
    [
      'a factory under the class token',
      () => ({ provide: ClockTools, useFactory: () => new ClockTools() }),
      'useFactory',
      'ClockTools',
    ],
    [
      'a static factory under a string token',
      () => ({ provide: 'CLOCK', useFactory: () => new ClockTools() }),
      'useFactory',
      "'CLOCK'",
    ],
    [
      'an alias under the class token',
      () => ({ provide: ClockTools, useExisting: 'MOCK' }),
      'useExisting',
      'ClockTools',
    ],
    [
      'a transient class under a string token',
      () => ({ provide: 'CLOCK', useClass: ClockTools, scope: Scope.TRANSIENT }),
      'transient',
      "'CLOCK'",
    ],
    [
      'a request-scoped class',
      () => ({ provide: ClockTools, useClass: ClockTools, scope: Scope.REQUEST }),
      'request_scoped',
      'ClockTools',
    ],
    [
      'a durable request-scoped class',
      () => ({ provide: ClockTools, useClass: ClockTools, scope: Scope.REQUEST, durable: true }),
      'request_scoped',
      'ClockTools',
    ],
  ])('%s', async (_case, provider, shape, token) => {
    const error = await refusal([{ provide: 'MOCK', useValue: { now: () => 'mock' } }, provider()]);
    expect(error).toMatchObject({
      code: 'ERR_INVALID_TOOL',
      problem: {
        rule: 'not_static_class_provider',
        kind: 'toolset',
        cls: 'ClockTools',
        shape,
        site: { token, module: 'AppModule' },
      },
    });
  });

  it('refuses a toolset that is request-scoped through a dependency', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Tenant {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
    }
    @Toolset()
    @Injectable()
    class Clock {
      constructor(readonly tenant: Tenant) {}
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    const error = await refusal([Tenant, Clock]);
    expect(error.problem).toMatchObject({ rule: 'not_static_class_provider', cls: 'Clock', shape: 'request_scoped' });
  });

  it('builds and calls nothing to refuse: no transient instance, no factory call', async () => {
    let created = 0;
    let called = 0;
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class Clock {
      constructor() {
        created += 1;
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    expect((await refusal([Clock])).problem).toMatchObject({ shape: 'transient' });
    const factory = () => ((called += 1), new ClockTools());
    for (const scope of [Scope.TRANSIENT, Scope.REQUEST]) {
      expect((await refusal([{ provide: ClockTools, useFactory: factory, scope }])).problem).toMatchObject({
        shape: 'useFactory',
      });
    }
    expect([created, called]).toEqual([0, 0]);
  });

  it('refuses a transient toolset that consumers inject: each has its own instance, none is the registry’s', async () => {
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Injectable()
    class Consumer {
      constructor(readonly clock: Clock) {}
    }
    expect((await refusal([Clock, Consumer])).problem).toMatchObject({ cls: 'Clock', shape: 'transient' });
  });

  it('does not see a transient or request-scoped factory under a string token: it is never called, and no tool comes of it', async () => {
    let called = 0;
    @Module({
      providers: [
        { provide: 'CLOCK', scope: Scope.TRANSIENT, useFactory: () => ((called += 1), new ClockTools()) },
        { provide: 'CLOCK2', scope: Scope.REQUEST, useFactory: () => ((called += 1), new ClockTools()) },
      ],
    })
    class Hidden {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), Hidden] });
    expect(toolNames(app)).toEqual([]);
    expect(called).toBe(0);
    await app.close();
  });
});

describe('a policy provider that is not a default-scoped class provider is refused', () => {
  it.each<[string, () => Provider, string]>([
    [
      'a value under the class token',
      () => ({ provide: WritersOnly, useValue: { authorize: () => true } }),
      'useValue',
    ],
    ['an alias to a mock', () => ({ provide: WritersOnly, useExisting: 'MOCK' }), 'useExisting'],
    ['a transient class', () => ({ provide: WritersOnly, useClass: WritersOnly, scope: Scope.TRANSIENT }), 'transient'],
    [
      'a request-scoped class',
      () => ({ provide: WritersOnly, useClass: WritersOnly, scope: Scope.REQUEST }),
      'request_scoped',
    ],
  ])('%s', async (_case, provider, shape) => {
    const error = await refusal([
      NotesRepository,
      Directory,
      NotesTools,
      { provide: 'MOCK', useValue: { authorize: () => true } },
      provider(),
    ]);
    expect(error.problem).toMatchObject({
      rule: 'not_static_class_provider',
      kind: 'policy',
      cls: 'WritersOnly',
      shape,
      site: { token: 'WritersOnly', module: 'AppModule' },
    });
  });
});

describe('what is bound', () => {
  it('binds a default-scoped toolset that injects a transient dependency', async () => {
    @Injectable({ scope: Scope.TRANSIENT })
    class Stamp {
      readonly at = 'noon';
    }
    @Toolset()
    @Injectable()
    class Clock {
      constructor(private readonly stamp: Stamp) {}
      @Tool()
      now(): string {
        return this.stamp.at;
      }
    }
    @Module({ providers: [Stamp, Clock] })
    class AppModule {}
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }), AppModule],
    });
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    expect('output' in result && result.output.asText()).toBe('noon');
    await app.close();
  });

  it.each<[string, Provider[]]>([
    ['a class provider under another token', [{ provide: 'CLOCK', useClass: ClockTools }]],
    ['a class provider and an alias under a string token', [ClockTools, { provide: 'alias', useExisting: ClockTools }]],
    ['an alias that comes before its target', [{ provide: 'alias', useExisting: ClockTools }, ClockTools]],
    [
      'a factory that returns the bound instance under another token',
      [ClockTools, { provide: 'CLOCK', useFactory: (c: ClockTools) => c, inject: [ClockTools] }],
    ],
  ])('registers %s once', async (_case, providers) => {
    @Module({ providers })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('binds the application instance of a policy, with its own dependencies', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule] });
    app.get(Directory, { strict: false }).writers.add('bob');
    const result = await call(app.get(ToolRegistry), 'add_note', '{"title":"tea"}', { user: 'bob' });
    expect('output' in result && result.output.asText()).toBe('added tea for bob');
    await app.close();
  });
});

describe('test overrides', () => {
  it('registers a decorated subclass given with overrideProvider(...).useClass()', async () => {
    @Toolset()
    @Injectable()
    class ClockTools2 extends ClockTools {}
    const error = await overridden(
      [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'ClockTools2', 'now', null)) }), ClockModule],
      (b) => b.overrideProvider(ClockTools).useClass(ClockTools2),
    );
    expect(error).toBeUndefined();
  });

  it('refuses a mock value (useValue) for a toolset or a policy', async () => {
    const toolset = await overridden([ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule], (b) =>
      b.overrideProvider(ClockTools).useValue({ now: () => 'mock' }),
    );
    expect(toolset).toMatchObject({
      problem: { rule: 'not_static_class_provider', kind: 'toolset', shape: 'useValue' },
    });
    const policy = await overridden([ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule], (b) =>
      b.overrideProvider(WritersOnly).useValue({ authorize: () => true }),
    );
    expect(policy).toMatchObject({ problem: { rule: 'not_static_class_provider', kind: 'policy', shape: 'useValue' } });
  });

  it('refuses an undecorated subclass of a toolset (wrong_class): @Toolset() is not inherited', async () => {
    class FakeClock extends ClockTools {}
    const error = await overridden([ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule], (b) =>
      b.overrideProvider(ClockTools).useClass(FakeClock),
    );
    expect(error).toMatchObject({
      code: 'ERR_INVALID_TOOL',
      problem: { rule: 'wrong_class', kind: 'toolset', token: 'ClockTools', module: 'ClockModule', cls: 'FakeClock' },
    });
  });

  it('asks a policy subclass given with useClass, and refuses a class that is no subclass (wrong_class)', async () => {
    class PermitAll extends WritersOnly {
      override authorize(): boolean {
        return true;
      }
    }
    const imports = [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule];
    const builder = Test.createTestingModule({ imports }).setLogger({ log() {}, error() {}, warn() {} });
    const app = await builder.overrideProvider(WritersOnly).useClass(PermitAll).compile();
    await app.init();
    const result = await call(app.get(ToolRegistry), 'add_note', '{"title":"tea"}', { user: 'mallory' });
    expect('output' in result && result.output.asText()).toBe('added tea for mallory');
    await app.close();
    @Injectable()
    class Unrelated {
      authorize(): boolean {
        return true;
      }
    }
    const error = await overridden(imports, (b) => b.overrideProvider(WritersOnly).useClass(Unrelated));
    expect(error).toMatchObject({
      problem: { rule: 'wrong_class', kind: 'policy', token: 'WritersOnly', cls: 'Unrelated' },
    });
  });

  it('refuses a request-scoped policy class with its own @Authorize use', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(PerRequest)
    @Injectable()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    const error = await refusal([PerRequest, Clock]);
    expect(error.problem).toMatchObject({
      rule: 'not_static_class_provider',
      kind: 'policy',
      cls: 'PerRequest',
      shape: 'request_scoped',
    });
  });
});
