import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { call, start, startFailure } from './fixtures';

const NOW = manifest(entry('now', 'Clock', 'now', null));

describe('request-scoped toolsets and policies are refused at start-up', () => {
  it('refuses a Scope.REQUEST toolset, naming the class, its module, why and the fix', async () => {
    @Toolset()
    @Injectable({ scope: Scope.REQUEST })
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the toolset Clock (ClockModule) is request-scoped (Scope.REQUEST); tools are bound once at start-up, outside any request, so a request-scoped toolset has no instance to bind; make the toolset default-scoped (singleton) and read per-request data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call',
    );
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
    @Module({ providers: [Tenant, Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      'the toolset Clock (ClockModule) is request-scoped (it depends, directly or not, on a request-scoped provider)',
    );
  });

  it('refuses a durable request-scoped toolset', async () => {
    @Toolset()
    @Injectable({ scope: Scope.REQUEST, durable: true })
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('the toolset Clock (ClockModule) is request-scoped (Scope.REQUEST, durable)');
  });

  it('refuses a request-scoped policy class, naming it and the fix', async () => {
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
    @Module({ providers: [PerRequest, Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toContain(
      'ScopeToolModule: the policy PerRequest (ClockModule) is request-scoped (Scope.REQUEST);',
    );
    expect(error.message).toContain(
      'make the policy default-scoped (singleton) and read per-request data from CallOptions.context',
    );
  });
});

describe('transient toolsets and policies are refused at start-up', () => {
  it('refuses a Scope.TRANSIENT toolset, naming the class, its module, why and the fix, without building an instance', async () => {
    let created = 0;
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
    @Module({ providers: [Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset Clock (ClockModule) is transient (Scope.TRANSIENT); its tools are bound once, to one instance, for the registry's life, and a transient provider gives every consumer an instance of its own, so there is no one instance for the registry to call; make the toolset default-scoped (singleton: no scope option) and read per-call data (the caller, the tenant) from ToolCall.context, which CallOptions.context carries on every call",
    );
    expect(created).toBe(0);
  });

  it('refuses a transient toolset that other providers inject (each has its own instance; none is the registry’s)', async () => {
    let created = 0;
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
    @Injectable()
    class First {
      constructor(readonly clock: Clock) {}
    }
    @Injectable()
    class Second {
      constructor(readonly clock: Clock) {}
    }
    @Module({ providers: [Clock, First, Second] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('ScopeToolModule: the toolset Clock (ClockModule) is transient (Scope.TRANSIENT);');
    expect(created).toBe(2); // the consumers' instances, built by Nest; none for the registry
  });

  it('refuses a transient class provider under another token, naming the token in the fix', async () => {
    @Toolset()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [{ provide: 'CLOCK', useClass: Clock, scope: Scope.TRANSIENT }] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain(
      "ScopeToolModule: the toolset Clock (provider 'CLOCK' of ClockModule) is transient (Scope.TRANSIENT);",
    );
    expect(error.message).toContain("make the provider 'CLOCK' default-scoped (singleton: no scope option)");
  });

  it('refuses a transient policy class, naming it, why and the fix', async () => {
    let created = 0;
    @Injectable({ scope: Scope.TRANSIENT })
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
    @Injectable()
    class Clock {
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Counted, Clock] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the policy Counted (ClockModule) is transient (Scope.TRANSIENT); a policy is bound once, to one instance, for the registry's life, and a transient provider gives every consumer an instance of its own, so there is no one instance for the registry to ask; make the policy default-scoped (singleton: no scope option) and read per-call data from CallOptions.context, which every call passes to authorize()",
    );
    expect(created).toBe(0);
  });

  it('binds a default-scoped toolset that injects a transient dependency (the toolset is the one instance; the dependency is its own)', async () => {
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
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    expect('output' in result && result.output.asText()).toBe('noon');
    await app.close();
  });
});
