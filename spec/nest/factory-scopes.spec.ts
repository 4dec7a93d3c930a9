/**
 * Toolsets and policies supplied by transient or request-scoped FACTORY providers, whose value Nest
 * does not build at start-up: the same rule as for class providers (transient and request-scoped
 * alike are refused, naming the class, the token and the module), never a silent skip.
 */
import 'reflect-metadata';
import { Inject, Injectable, Logger, Module, Scope } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { INQUIRER, REQUEST } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { FACTORY_CALL_LIMIT } from '../../lib/nest/providers';
import { entry, manifest } from '../container/fixtures';
import { start, startFailure } from './fixtures';

const NOW = manifest(entry('now', 'ClockTools', 'now', null));

@Toolset()
class ClockTools {
  constructor(readonly zone = 'UTC') {}

  @Tool()
  now(): string {
    return `noon ${this.zone}`;
  }
}

describe('a toolset or policy from a transient factory provider is refused at start-up', () => {
  it('refuses a transient factory under a string token nobody injects, learnt by one call (discover: all), naming class, token, module, why and the fix', async () => {
    let calls = 0;
    const factory = () => {
      calls += 1;
      return new ClockTools();
    };
    @Module({ providers: [{ provide: 'CLOCK', useFactory: factory, scope: Scope.TRANSIENT }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is transient (Scope.TRANSIENT); its tools are bound once, to one instance, for the registry's life, and a transient provider gives every consumer an instance of its own, so there is no one instance for the registry to call; make the provider 'CLOCK' default-scoped (singleton: no scope option) and read per-call data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call",
    );
    expect(calls).toBe(1);
  });

  it('refuses a transient factory that a consumer injects, knowing its class from the consumer’s instance (no extra call)', async () => {
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
    @Module({
      providers: [Zone, { provide: 'CLOCK', useFactory: factory, inject: [Zone], scope: Scope.TRANSIENT }, Consumer],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is transient (Scope.TRANSIENT)",
    );
    expect(calls).toBe(1); // the consumer's instance only
  });

  it('probes a transient factory in its own module when another module reuses the token', async () => {
    @Module({ providers: [{ provide: 'CLOCK', useFactory: () => new ClockTools('UTC'), scope: Scope.TRANSIENT }] })
    class ClockModule {}
    @Module({ providers: [{ provide: 'CLOCK', useFactory: () => ({ notATool: true }), scope: Scope.TRANSIENT }] })
    class OtherModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: NOW }), OtherModule, ClockModule],
    });
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is transient",
    );
  });

  it('refuses a policy from a transient factory provider under the policy class token, without calling it', async () => {
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
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      'ScopeToolModule: the policy Counted (factory provider Counted of ClockModule) is transient (Scope.TRANSIENT);',
    );
    expect(error.message).toContain(
      'make the provider Counted default-scoped (singleton: no scope option) and read per-call data from CallOptions.context',
    );
    expect(created).toBe(0);
  });

  describe('a transient factory injected by several consumers is judged by every consumer’s instance, not the first one’s', () => {
    /** A transient INQUIRER factory under 'T' that yields `special` for consumer B only (a Date for the others), and consumers A and B, in `order`. */
    function consumers(special: () => object, order: 'AB' | 'BA'): { Module: Type } {
      @Injectable()
      class A {
        constructor(@Inject('T') readonly t: unknown) {}
      }
      @Injectable()
      class B {
        constructor(@Inject('T') readonly t: unknown) {}
      }
      const factory = (inquirer: unknown) =>
        (inquirer as { constructor?: { name?: string } } | undefined)?.constructor?.name === 'B'
          ? special()
          : new Date();
      @Module({
        providers: [
          { provide: 'T', scope: Scope.TRANSIENT, inject: [INQUIRER], useFactory: factory },
          ...(order === 'AB' ? [A, B] : [B, A]),
        ],
      })
      class ConsumersModule {}
      return { Module: ConsumersModule };
    }

    it.each(['AB', 'BA'] as const)(
      'refuses it as transient when only one consumer’s instance is a toolset (consumers in order %s), with discover all and features',
      async (order) => {
        for (const discover of ['all', 'features'] as const) {
          const { Module: ConsumersModule } = consumers(() => new ClockTools(), order);
          const features = discover === 'features' ? [ScopeToolModule.forFeature([ClockTools])] : [];
          @Module({ imports: [ConsumersModule, ...features] })
          class Root {}
          const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover }), Root] });
          expect(error.code).toBe('ERR_INVALID_TOOL');
          expect(error.message).toContain(
            "ScopeToolModule: the toolset ClockTools (factory provider 'T' of ConsumersModule) is transient (Scope.TRANSIENT);",
          );
        }
      },
    );

    it('refuses it as transient when only one consumer’s instance is a policy in use', async () => {
      class Gate {
        authorize(): boolean {
          return true;
        }
      }
      const { Module: ConsumersModule } = consumers(() => new Gate(), 'AB');
      const error = await startFailure({
        imports: [ScopeToolModule.forRoot({ manifest: NOW, policies: [Gate] }), ConsumersModule],
      });
      expect(error.code).toBe('ERR_INVALID_TOOL');
      expect(error.message).toContain(
        "ScopeToolModule: the policy Gate (factory provider 'T' of ConsumersModule) is transient (Scope.TRANSIENT);",
      );
    });
  });

  it('refuses a transient factory under a class token that is not a toolset, when a consumer injected it and its instance is a toolset', async () => {
    class Stamp {}
    @Injectable()
    class Consumer {
      constructor(@Inject(Stamp) readonly clock: ClockTools) {}
    }
    @Module({ providers: [{ provide: Stamp, scope: Scope.TRANSIENT, useFactory: () => new ClockTools() }, Consumer] })
    class AppModule {}
    for (const discover of ['all', 'features'] as const) {
      const features = discover === 'features' ? [ScopeToolModule.forFeature([ClockTools])] : [];
      @Module({ imports: [AppModule, ...features] })
      class Root {}
      const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover }), Root] });
      expect(error.message).toContain(
        'ScopeToolModule: the toolset ClockTools (factory provider Stamp of AppModule) is transient (Scope.TRANSIENT);',
      );
    }
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
    @Module({
      providers: [{ provide: CLOCK, useFactory: () => new ClockTools(), scope: Scope.REQUEST, durable: true }],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      'the toolset ClockTools (factory provider Symbol(clock) of ClockModule) is request-scoped (Scope.REQUEST, durable)',
    );
  });

  it('refuses a default-scoped factory that injects a request-scoped provider (request-scoped implicitly)', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Tenant {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
      get zone(): string {
        return 'CET';
      }
    }
    @Module({
      providers: [
        Tenant,
        { provide: 'CLOCK', useFactory: (tenant: Tenant) => new ClockTools(tenant.zone), inject: [Tenant] },
      ],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      "ScopeToolModule: the toolset ClockTools (factory provider 'CLOCK' of ClockModule) is request-scoped (its factory injects, directly or not, a request-scoped provider);",
    );
    expect(error.message).toContain(
      "make the provider 'CLOCK' default-scoped (singleton: no scope option, and no request-scoped provider injected, directly or not)",
    );
  });

  it('refuses a transient factory that injects a request-scoped provider', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Tenant {}
    @Module({
      providers: [
        Tenant,
        { provide: 'CLOCK', useFactory: () => new ClockTools(), inject: [Tenant], scope: Scope.TRANSIENT },
      ],
    })
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
    expect(error.message).toContain(
      "the toolset ClockTools (provider 'CLOCK' of ClockModule) is request-scoped (Scope.REQUEST)",
    );
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
    @Module({
      providers: [{ provide: PerRequest, useFactory: () => new PerRequest(), scope: Scope.REQUEST }, ClockTools],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      'ScopeToolModule: the policy PerRequest (factory provider PerRequest of ClockModule) is request-scoped (Scope.REQUEST);',
    );
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
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });

  it('a request-scoped factory that throws outside a request is logged, naming its token and module, and start-up goes on', async () => {
    @Module({
      providers: [
        {
          provide: 'USER',
          useFactory: (request: { user: string }) => request.user,
          inject: [REQUEST],
          scope: Scope.REQUEST,
        },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^ScopeToolModule: the request-scoped factory provider 'USER' \(AppModule\) threw \(.+\) when called once at start-up, outside a request, to learn whether it yields a toolset or policy; it is left out\. A toolset or policy must be default-scoped \(singleton\) to be registered; if this provider yields neither, give it a class as token \(\{ provide: TenantInfo, useFactory \}\), and ScopeToolModule will not call it$/,
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

  it('refuses a transient factory under a @Toolset class token without calling it (an INQUIRER factory that would throw outside a consumer never runs)', async () => {
    let calls = 0;
    const factory = (inquirer: object) => {
      calls += 1;
      return new ClockTools(inquirer.constructor.name);
    };
    @Module({ providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, inject: [INQUIRER], useFactory: factory }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is transient (Scope.TRANSIENT);',
    );
    expect(error.message).toContain('make the provider ClockTools default-scoped (singleton: no scope option)');
    expect(calls).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses a transient INQUIRER factory under a @Toolset class token that a consumer injects as transient (not a raw TypeError)', async () => {
    @Injectable()
    class Consumer {
      constructor(readonly clock: ClockTools) {}
    }
    @Module({
      providers: [
        {
          provide: ClockTools,
          scope: Scope.TRANSIENT,
          inject: [INQUIRER],
          useFactory: (inquirer: object) => new ClockTools(inquirer.constructor.name),
        },
        Consumer,
      ],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is transient (Scope.TRANSIENT);',
    );
  });

  it('refuses a transient class toolset whose constructor would throw without building it (no "no clock here")', async () => {
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
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (ClockModule) is transient (Scope.TRANSIENT);',
    );
    expect(error.message).not.toContain('no clock here');
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
    @Module({
      providers: [{ provide: PerUser, scope: Scope.REQUEST, inject: [REQUEST], useFactory: factory }, ClockTools],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      'ScopeToolModule: the policy PerUser (factory provider PerUser of ClockModule) is request-scoped (Scope.REQUEST);',
    );
    expect(error.message).not.toContain('is not a provider of any module');
    expect(calls).toBe(0);
  });

  it('refuses a class listed in forFeature() and supplied by a request-scoped factory under its token as request-scoped (not "no module provides it")', async () => {
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [
        {
          provide: ClockTools,
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { headers: Record<string, string> }) => new ClockTools(request.headers['x-zone']),
        },
      ],
    })
    class ClockModule {}
    for (const discover of ['features', 'all'] as const) {
      const error = await startFailure({
        imports: [ScopeToolModule.forRoot({ manifest: NOW, discover }), ClockModule],
      });
      expect(error.message).toContain(
        'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is request-scoped (Scope.REQUEST)',
      );
    }
  });

  it('refuses a class listed in forFeature() and supplied by a transient factory under its token as transient, with discover: features', async () => {
    @Module({
      imports: [ScopeToolModule.forFeature([ClockTools])],
      providers: [{ provide: ClockTools, scope: Scope.TRANSIENT, useFactory: () => new ClockTools('CET') }],
    })
    class ClockModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), ClockModule],
    });
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is transient (Scope.TRANSIENT);',
    );
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
        {
          provide: 'USER',
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { user: string }) => (called.push('USER'), request.user),
        },
        { provide: 'STAMP', scope: Scope.TRANSIENT, useFactory: () => (called.push('STAMP'), { at: 0 }) },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW, discover: 'features' }), AppModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
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
        {
          provide: User,
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { user: User }) => (called.push('User'), request.user),
        },
        {
          provide: Stamp,
          scope: Scope.TRANSIENT,
          inject: [INQUIRER],
          useFactory: (inquirer: object) => (called.push('Stamp'), inquirer.constructor.name),
        },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
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
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain(
      "ScopeToolModule: the request-scoped factory provider 'SLOW' (AppModule) did not settle within 50 ms when called once at start-up, outside a request,",
    );
    await app.close();
  }, 10000);

  it('refuses a transient factory under a @Toolset class token that would never settle, without waiting for it', async () => {
    const began = Date.now();
    @Module({
      providers: [
        { provide: ClockTools, scope: Scope.TRANSIENT, useFactory: () => new Promise<never>(() => undefined) },
      ],
    })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      'ScopeToolModule: the toolset ClockTools (factory provider ClockTools of ClockModule) is transient (Scope.TRANSIENT);',
    );
    expect(Date.now() - began).toBeLessThan(FACTORY_CALL_LIMIT.ms);
  });

  it('probes factories one after another: each hanging one adds the time bound, and each is warned about', async () => {
    FACTORY_CALL_LIMIT.ms = 60;
    @Module({
      providers: [
        { provide: 'SLOW1', scope: Scope.REQUEST, useFactory: () => new Promise<never>(() => undefined) },
        { provide: 'SLOW2', scope: Scope.TRANSIENT, useFactory: () => new Promise<never>(() => undefined) },
        { provide: 'CLOCK', useFactory: () => new ClockTools() },
      ],
    })
    class AppModule {}
    const began = Date.now();
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), AppModule] });
    expect(Date.now() - began).toBeGreaterThanOrEqual(2 * 60 - 5);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]?.[0]).toContain(
      "ScopeToolModule: the request-scoped factory provider 'SLOW1' (AppModule) did not settle within 60 ms when called once at start-up, outside a request,",
    );
    expect(warn.mock.calls[1]?.[0]).toContain(
      "ScopeToolModule: the transient factory provider 'SLOW2' (AppModule) did not settle within 60 ms when called once at start-up, outside any consumer,",
    );
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  }, 10000);
});
