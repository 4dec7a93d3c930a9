/**
 * ScopeToolModule builds no toolset or policy instance of its own and calls no lifecycle hook:
 * the instances it binds are the application's default-scoped ones, whose hooks Nest calls; a
 * transient one is refused instead of getting an instance outside Nest's lifecycle; a value that a
 * probe of a string- or symbol-token factory obtained is looked at and dropped, without hooks.
 */
import 'reflect-metadata';
import { Global, Injectable, Logger, Module, Scope } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { start, startFailure } from './fixtures';

const HOOKS = [
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
] as const;
const NOW = manifest(entry('now', 'Clock', 'now', null));

/** Records every hook call as `<hook> #<serial>`. */
function hooked(log: string[], serial: number | string): Record<(typeof HOOKS)[number], () => void> {
  return Object.fromEntries(HOOKS.map((hook) => [hook, () => void log.push(`${hook} #${serial}`)])) as Record<
    (typeof HOOKS)[number],
    () => void
  >;
}

describe('lifecycle hooks: Nest’s alone', () => {
  it('does not call the hooks of a default-scoped toolset twice (Nest calls them, once each)', async () => {
    const log: string[] = [];
    @Toolset()
    @Injectable()
    class Clock {
      constructor() {
        Object.assign(this, hooked(log, 1));
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    await app.close();
    expect(log).toEqual(HOOKS.map((hook) => `${hook} #1`));
  });

  it('lets a default-scoped toolset read the ToolRegistry in its onModuleInit (ScopeToolModule is global and starts first)', async () => {
    const seen: string[][] = [];
    @Toolset()
    @Injectable()
    class Clock {
      constructor(private readonly tools: ToolRegistry) {}
      onModuleInit(): void {
        seen.push(this.tools.definitions().map((d) => d.name));
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(seen).toEqual([['now']]);
    await app.close();
  });

  describe('a toolset of a @Global() module that reads ToolRegistry in its onModuleInit', () => {
    /** A global module whose Clock reads the registry in onModuleInit; and a feature module that imports it. */
    function globalClock(seen: string[][]): { Shared: Type; Feature: Type } {
      @Toolset()
      @Injectable()
      class Clock {
        constructor(private readonly tools: ToolRegistry) {}
        onModuleInit(): void {
          seen.push(this.tools.definitions().map((d) => d.name));
        }
        @Tool()
        now(): string {
          return 'noon';
        }
      }
      @Global()
      @Module({ providers: [Clock], exports: [Clock] })
      class SharedModule {}
      @Module({ imports: [SharedModule] })
      class FeatureModule {}
      return { Shared: SharedModule, Feature: FeatureModule };
    }

    it('reads the filled registry when ScopeToolModule.forRoot() comes first in the root module’s imports', async () => {
      for (const pick of ['Shared', 'Feature'] as const) {
        const seen: string[][] = [];
        const modules = globalClock(seen);
        const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), modules[pick]] });
        expect(seen).toEqual([['now']]);
        await app.close();
      }
    });

    it('fails with ERR_INVALID_REGISTRY saying to import ScopeToolModule first when the global module comes before it (directly or through a module imported before it)', async () => {
      for (const pick of ['Shared', 'Feature'] as const) {
        const seen: string[][] = [];
        const modules = globalClock(seen);
        const error = await startFailure({ imports: [modules[pick], ScopeToolModule.forRoot({ manifest: NOW })] });
        expect(error.code).toBe('ERR_INVALID_REGISTRY');
        expect(error.message).toContain(
          'ToolRegistry.definitions() was called before ScopeToolModule filled the registry',
        );
        expect(error.message).toContain(
          "A constructor runs before it, and so does the onModuleInit of a provider of a @Global() module that Nest reaches before ScopeToolModule (global modules start before all others, in the order Nest finds them, depth-first through the imports): import ScopeToolModule.forRoot() (or forRootAsync()) first in the root module's imports, or read the registry in onApplicationBootstrap",
        );
        expect(seen).toEqual([]);
      }
    });
  });

  it('refuses a transient toolset with hooks: no instance is built for the registry, and only the consumer’s instance gets hooks (from Nest)', async () => {
    const log: string[] = [];
    let created = 0;
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class Clock {
      constructor() {
        created += 1;
        Object.assign(this, hooked(log, created));
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Injectable()
    class Consumer {
      constructor(readonly clock: Clock) {}
    }
    @Module({ providers: [Clock, Consumer] })
    class ClockModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
    expect(error.message).toContain('ScopeToolModule: the toolset Clock (ClockModule) is transient (Scope.TRANSIENT);');
    expect(created).toBe(1);
    expect(log.every((line) => line.endsWith('#1'))).toBe(true);
  });

  describe('values obtained by probing a string- or symbol-token factory are dropped without hooks', () => {
    let warn: jest.SpyInstance;
    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    it('calls no hook of a probed value that is no toolset, at start-up or at close', async () => {
      const log: string[] = [];
      @Toolset()
      @Injectable()
      class Clock {
        @Tool()
        now(): string {
          return 'noon';
        }
      }
      @Module({
        providers: [
          Clock,
          { provide: 'STAMP', scope: Scope.TRANSIENT, useFactory: () => ({ at: 0, ...hooked(log, 'stamp') }) },
          {
            provide: 'SETTINGS',
            scope: Scope.REQUEST,
            useFactory: () => ({ zone: 'UTC', ...hooked(log, 'settings') }),
          },
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
      await app.close();
      expect(log).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    });

    it('calls no hook of a probed toolset value either: the transient provider is refused', async () => {
      const log: string[] = [];
      @Toolset()
      class Clock {
        constructor() {
          Object.assign(this, hooked(log, 'probe'));
        }
        @Tool()
        now(): string {
          return 'noon';
        }
      }
      @Module({ providers: [{ provide: 'CLOCK', scope: Scope.TRANSIENT, useFactory: () => new Clock() }] })
      class ClockModule {}
      const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), ClockModule] });
      expect(error.message).toContain(
        "ScopeToolModule: the toolset Clock (factory provider 'CLOCK' of ClockModule) is transient (Scope.TRANSIENT);",
      );
      expect(log).toEqual([]);
    });
  });
});
