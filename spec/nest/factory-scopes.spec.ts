/**
 * Toolsets and policies supplied by transient or request-scoped FACTORY providers, whose value Nest
 * does not build at start-up: the same rule as for class providers (transient: one instance of the
 * registry's own; request-scoped: refused naming the class, the token and the module), never a
 * silent skip.
 */
import 'reflect-metadata';
import { Inject, Injectable, Logger, Module, Scope } from '@nestjs/common';
import { INQUIRER, REQUEST } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { FACTORY_CALL_LIMIT } from '../../lib/nest/providers';
import { entry, manifest } from '../container/fixtures';
import { call, start, startFailure } from './fixtures';

const NOW = manifest(entry('now', 'ClockTools', 'now', null));

let serial = 0;

@Toolset()
class ClockTools {
  readonly serial = ++serial;
  constructor(readonly zone = 'UTC') {}

  @Tool()
  now(): string {
    return `noon ${this.zone} #${this.serial}`;
  }
}

function textOf(result: Awaited<ReturnType<typeof call>>): string | undefined {
  return 'output' in result ? result.output.asText() : undefined;
}

describe('a toolset from a transient factory provider gets one instance of its own', () => {
  it('discovers a transient factory nobody injects, calls its factory once, and its tools are callable', async () => {
    let calls = 0;
    const factory = () => {
      calls += 1;
      return new ClockTools();
    };
    @Module({ providers: [{ provide: 'CLOCK', useFactory: factory, scope: Scope.TRANSIENT }] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    const registry = app.get(ToolRegistry);
    expect(registry.definitions().map((d) => d.name)).toEqual(['now']);
    expect(calls).toBe(1);
    const first = textOf(await call(registry, 'now', '{}'));
    const second = textOf(await call(registry, 'now', '{}'));
    expect(first).toMatch(/^noon UTC #\d+$/);
    expect(second).toBe(first);
    expect(calls).toBe(1);
    await app.close();
  });

  it('discovers a transient factory with injected dependencies that a consumer also injects, binding an instance distinct from the consumer’s', async () => {
    @Injectable()
    class Zone {
      readonly name = 'CET';
    }
    @Injectable()
    class Consumer {
      constructor(@Inject('CLOCK') readonly clock: ClockTools) {}
    }
    let calls = 0;
    const factory = (zone: Zone) => {
      calls += 1;
      return new ClockTools(zone.name);
    };
    @Module({ providers: [Zone, { provide: 'CLOCK', useFactory: factory, inject: [Zone], scope: Scope.TRANSIENT }, Consumer] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    const consumer = app.get(Consumer, { strict: false });
    const text = textOf(await call(app.get(ToolRegistry), 'now', '{}'));
    expect(text).toMatch(/^noon CET #\d+$/);
    expect(text).not.toBe(`noon CET #${consumer.clock.serial}`);
    expect(calls).toBe(2); // one for the consumer, one for the registry
    await app.close();
  });

  it('resolves a transient factory under the token of its own module when another module reuses the token', async () => {
    @Module({ providers: [{ provide: 'CLOCK', useFactory: () => new ClockTools('UTC'), scope: Scope.TRANSIENT }] })
    class ClockModule {}
    @Module({ providers: [{ provide: 'CLOCK', useFactory: () => ({ notATool: true }), scope: Scope.TRANSIENT }] })
    class OtherModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), OtherModule, ClockModule] });
    expect(textOf(await call(app.get(ToolRegistry), 'now', '{}'))).toMatch(/^noon UTC #\d+$/);
    await app.close();
  });

  it('resolves a policy class from a transient factory provider once', async () => {
    let created = 0;
    class Counted {
      constructor() {
        created += 1;
      }
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(Counted)
    class ClockTools {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [{ provide: Counted, useFactory: () => new Counted(), scope: Scope.TRANSIENT }, ClockTools] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(created).toBe(1);
    expect(textOf(await call(app.get(ToolRegistry), 'now', '{}'))).toBe('noon');
    expect(created).toBe(1);
    await app.close();
  });
});

describe('a toolset from a request-scoped factory provider is refused at start-up', () => {
  it('refuses a Scope.REQUEST factory, naming the class, the token, the module, why and the fix', async () => {
    @Module({ providers: [{ provide: 'CLOCK', useFactory: () => new ClockTools(), scope: Scope.REQUEST }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is request-scoped (Scope.REQUEST); tools are bound once at start-up, outside any request, so a request-scoped toolset has no instance to bind; make the provider 'CLOCK' default-scoped (singleton: no scope option, and no request-scoped provider injected, directly or not) and read per-request data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call",
    );
  });

  it('refuses a durable request-scoped factory', async () => {
    const CLOCK = Symbol('clock');
    @Module({ providers: [{ provide: CLOCK, useFactory: () => new ClockTools(), scope: Scope.REQUEST, durable: true }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('the toolset ClockTools (factory provider Symbol(clock) of ClockModule) is request-scoped (Scope.REQUEST, durable)');
  });

  it('refuses a default-scoped factory that injects a request-scoped provider (request-scoped implicitly)', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Tenant {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
      get zone(): string {
        return 'CET';
      }
    }
    @Module({ providers: [Tenant, { provide: 'CLOCK', useFactory: (tenant: Tenant) => new ClockTools(tenant.zone), inject: [Tenant] }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is request-scoped (its factory injects, directly or not, a request-scoped provider);",
    );
    expect(error.message).toContain("make the provider 'CLOCK' default-scoped (singleton: no scope option, and no request-scoped provider injected, directly or not)");
  });

  it('refuses a transient factory that injects a request-scoped provider', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Tenant {}
    @Module({ providers: [Tenant, { provide: 'CLOCK', useFactory: () => new ClockTools(), inject: [Tenant], scope: Scope.TRANSIENT }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      "the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is request-scoped (its factory injects, directly or not, a request-scoped provider)",
    );
  });

  it('refuses a request-scoped class provider under another token, naming the token', async () => {
    @Module({ providers: [{ provide: 'CLOCK', useClass: ClockTools, scope: Scope.REQUEST }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain("the toolset ClockTools (provider 'CLOCK' of ClockModule) is request-scoped (Scope.REQUEST)");
    expect(error.message).toContain("make the provider 'CLOCK' default-scoped");
  });

  it('refuses a policy from a request-scoped factory provider, naming it, the token and the module', async () => {
    class PerRequest {
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(PerRequest)
    class ClockTools {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [{ provide: PerRequest, useFactory: () => new PerRequest(), scope: Scope.REQUEST }, ClockTools] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain('ScopeToolModule: the policy PerRequest (factory provider PerRequest of ClockModule) is request-scoped (Scope.REQUEST);');
    expect(error.message).toContain('make the provider PerRequest default-scoped (singleton: no scope option');
  });
});

describe('request-scoped and transient factories that yield no toolset', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('leave start-up alone: values that are no toolset are not tools', async () => {
    class Settings {}
    @Module({
      providers: [
        { provide: 'TENANT', useFactory: () => 'acme', scope: Scope.REQUEST },
        { provide: 'SETTINGS', useFactory: () => new Settings(), scope: Scope.REQUEST },
        { provide: 'STAMP', useFactory: () => ({ at: 0 }), scope: Scope.TRANSIENT },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['now']);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });

  it('a request-scoped factory that throws outside a request is logged, naming its token and module, and start-up goes on', async () => {
    @Module({
      providers: [
        { provide: 'USER', useFactory: (request: { user: string }) => request.user, inject: [REQUEST], scope: Scope.REQUEST },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['now']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^ScopeToolModule: the request-scoped factory provider 'USER' \(AppModule\) threw \(.+\) when called once at start-up outside a request to learn whether it yields a toolset or policy; it is left out, so if it yields one, it is not registered\. Provide a toolset or policy under its class as token \(\{ provide: NotesTools, useFactory \}\): such a factory is never called to learn this$/,
    );
    await app.close();
  });
});

describe('a factory provider whose token is a @Toolset or policy class is judged by its token, never probed', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('refuses a request-scoped factory under a @Toolset class token without calling it (no silent skip when it would throw outside a request)', async () => {
    let calls = 0;
    @Module({
      providers: [
        {
          provide: ClockTools,
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { headers: Record<string, string> }) => {
            calls += 1;
            return new ClockTools(request.headers['x-tenant']);
          },
        },
      ],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is request-scoped (Scope.REQUEST); tools are bound once at start-up',
    );
    expect(error.message).toContain('make the provider ClockTools default-scoped');
    expect(calls).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it('fails start-up, naming class, token, module and the fix, when a transient factory under a @Toolset class token throws for the registry (INQUIRER, no consumer)', async () => {
    @Module({ providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, inject: [INQUIRER], useFactory: (inquirer: object) => new ClockTools(inquirer.constructor.name) }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toMatch(
      /^tool: invalid tool: ScopeToolModule: the transient toolset ClockTools \(factory provider ClockTools of ClockModule\) could not be built for the registry: its factory threw \(Cannot read properties of null \(reading 'constructor'\)\)\. The registry is one more consumer of a transient provider and builds its own instance at start-up, outside any consumer and any request \(INQUIRER is null there\); make its factory work without an inquirer/,
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('turns a transient INQUIRER factory that a consumer injects, and that throws for the registry, into a ScopeToolModule error (not a raw TypeError)', async () => {
    @Injectable()
    class Consumer {
      constructor(readonly clock: ClockTools) {}
    }
    @Module({
      providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, inject: [INQUIRER], useFactory: (inquirer: object) => new ClockTools(inquirer.constructor.name) }, Consumer],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain('ScopeToolModule: the transient toolset ClockTools (factory provider ClockTools of ClockModule) could not be built for the registry: its factory threw');
    expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(TypeError);
  });

  it('turns a transient class toolset whose constructor throws for the registry into a ScopeToolModule error', async () => {
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class ClockTools {
      constructor() {
        throw new Error('no clock here');
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [ClockTools] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('ScopeToolModule: the transient toolset ClockTools (ClockModule) could not be built for the registry: its constructor threw (no clock here)');
  });

  it('refuses a request-scoped policy factory under the policy class token as request-scoped (not "not a provider")', async () => {
    let calls = 0;
    class PerUser {
      constructor(readonly user: string) {}
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(PerUser)
    class ClockTools {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    const factory = (request: { user: string }) => {
      calls += 1;
      return new PerUser(request.user);
    };
    @Module({ providers: [{ provide: PerUser, scope: Scope.REQUEST, inject: [REQUEST], useFactory: factory }, ClockTools] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('ScopeToolModule: the policy PerUser (factory provider PerUser of ClockModule) is request-scoped (Scope.REQUEST);');
    expect(error.message).not.toContain('is not a provider of any module');
    expect(calls).toBe(0);
  });

  it('refuses a class listed in forFeature() and supplied by a request-scoped factory under its token as request-scoped (not "no module provides it")', async () => {
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [{ provide: ClockTools, scope: Scope.REQUEST, inject: [REQUEST], useFactory: (request: { headers: Record<string, string> }) => new ClockTools(request.headers['x-zone']) }],
    })
    class ClockModule {}
    for (const discover of ['features', 'all'] as const) {
      const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover }), ClockModule] });
      expect(error.message).toContain('ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is request-scoped (Scope.REQUEST)');
    }
  });

  it('finds a class listed in forFeature() and supplied by a transient factory under its token, with discover: features', async () => {
    @Module({ imports: [ScopeToolModule.forFeature([ClockTools])], providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, useFactory: () => new ClockTools('CET') }] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), ClockModule] });
    expect(textOf(await call(app.get(ToolRegistry), 'now', '{}'))).toMatch(/^noon CET #\d+$/);
    await app.close();
  });
});

describe('probing is limited: only factories under string or symbol tokens, only with discover: all, and bounded in time', () => {
  let warn: jest.SpyInstance;
  const limit = FACTORY_CALL_LIMIT.ms;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
    FACTORY_CALL_LIMIT.ms = limit;
  });

  it("with discover: 'features', calls no transient or request-scoped factory of the application", async () => {
    const called: string[] = [];
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
        { provide: 'USER', scope: Scope.REQUEST, inject: [REQUEST], useFactory: (request: { user: string }) => (called.push('USER'), request.user) },
        { provide: 'STAMP', scope: Scope.TRANSIENT, useFactory: () => (called.push('STAMP'), { at: 0 }) },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), AppModule] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['now']);
    expect(called).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });

  it("with discover: 'all', never calls a request-scoped or transient factory whose token is a class that is neither a toolset nor a policy, and does not warn", async () => {
    const called: string[] = [];
    class User {
      constructor(readonly name: string) {}
    }
    class Stamp {}
    @Module({
      providers: [
        { provide: User, scope: Scope.REQUEST, inject: [REQUEST], useFactory: (request: { user: User }) => (called.push('User'), request.user) },
        { provide: Stamp, scope: Scope.TRANSIENT, inject: [INQUIRER], useFactory: (inquirer: object) => (called.push('Stamp'), inquirer.constructor.name) },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['now']);
    expect(called).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });

  it('does not wait forever for a probed factory that never settles: it warns, naming token and module, and start-up goes on', async () => {
    FACTORY_CALL_LIMIT.ms = 50;
    @Module({
      providers: [
        { provide: 'SLOW', scope: Scope.REQUEST, useFactory: () => new Promise<never>(() => undefined) },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['now']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain(
      "ScopeToolModule: the request-scoped factory provider 'SLOW' (AppModule) did not settle within 50 ms when called once at start-up outside a request",
    );
    await app.close();
  }, 10000);

  it('fails start-up when the registry’s own instance of a transient toolset never settles', async () => {
    FACTORY_CALL_LIMIT.ms = 50;
    @Module({ providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, useFactory: () => new Promise<never>(() => undefined) }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('ScopeToolModule: the transient toolset ClockTools (factory provider ClockTools of ClockModule) could not be built for the registry: its factory did not settle within 50 ms');
  }, 10000);
});
