/**
 * Toolsets and policies supplied by transient or request-scoped FACTORY providers, whose value Nest
 * does not build at start-up: the same rule as for class providers (transient: one instance of the
 * registry's own; request-scoped: refused naming the class, the token and the module), never a
 * silent skip.
 */
import 'reflect-metadata';
import { Inject, Injectable, Logger, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
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
      /^ScopeToolModule: the request-scoped factory provider 'USER' \(AppModule\) threw when called once at start-up outside a request to learn whether it yields a toolset or policy \(.+\); it is left out, so if it yields one, it is not registered$/,
    );
    await app.close();
  });
});
