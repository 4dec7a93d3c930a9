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
    expect(error.message).toContain('the toolset Clock (ClockModule) is request-scoped (it depends, directly or not, on a request-scoped provider)');
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
    expect(error.message).toContain('ScopeToolModule: the policy PerRequest (ClockModule) is request-scoped (Scope.REQUEST);');
    expect(error.message).toContain('make the policy default-scoped (singleton) and read per-request data from CallOptions.context');
  });
});

describe('transient toolsets and policies get one instance of their own', () => {
  it('binds a transient toolset to one instance created for the registry, distinct from other consumers', async () => {
    let created = 0;
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class Clock {
      readonly serial = ++created;
      @Tool()
      now(): string {
        return `instance ${this.serial}`;
      }
    }
    @Injectable()
    class Consumer {
      constructor(readonly clock: Clock) {}
    }
    @Module({ providers: [Clock, Consumer] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    const consumer = app.get(Consumer, { strict: false });
    const registry = app.get(ToolRegistry);
    const first = await call(registry, 'now', '{}');
    const second = await call(registry, 'now', '{}');
    const text = 'output' in first ? first.output.asText() : undefined;
    expect(text).toMatch(/^instance \d+$/);
    expect(text).not.toBe(`instance ${consumer.clock.serial}`);
    expect('output' in second && second.output.asText()).toBe(text);
    await app.close();
  });

  it('resolves a transient policy class once for the registry', async () => {
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
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    const before = created;
    await call(app.get(ToolRegistry), 'now', '{}');
    await call(app.get(ToolRegistry), 'now', '{}');
    expect(created).toBe(before);
    expect(before).toBeGreaterThanOrEqual(1);
    await app.close();
  });
});
