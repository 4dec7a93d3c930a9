/**
 * ToolRegistry (lib/nest/tool-registry.ts): sealed, so no tool skips the manifest and the policies;
 * unusable before ScopeToolModule's start-up filled it, instead of answering as if no tool existed.
 */
import 'reflect-metadata';
import { Global, Injectable, Module } from '@nestjs/common';
import type { OnApplicationBootstrap, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { FuncTool, Registry } from '../../lib/protocol';
import type { JsonValue, Tool as ProtocolTool } from '../../lib/protocol';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { call, ClockModule, MANIFEST, NotesModule, start, startFailure, toolNames } from './fixtures';

const shell = (): ProtocolTool =>
  FuncTool.create({ name: 'shell', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => 'ran');

describe('ToolRegistry is sealed', () => {
  it('refuses a tool registered after start-up, and keeps only the discovered, guarded tools', async () => {
    let refusal: unknown;
    @Injectable()
    class Plugin implements OnApplicationBootstrap {
      constructor(private readonly tools: ToolRegistry) {}
      onApplicationBootstrap(): void {
        try {
          this.tools.register(shell());
        } catch (e) {
          refusal = e;
        }
      }
    }
    @Module({ providers: [Plugin] })
    class PluginModule {}
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({ manifest: MANIFEST, policies: [() => false] }),
        ClockModule,
        NotesModule,
        PluginModule,
      ],
    });
    expect(refusal).toMatchObject({ code: 'ERR_INVALID_REGISTRY', problem: { rule: 'registry_sealed' } });
    expect(toolNames(app)).toEqual(['add_note', 'now']);
    expect(app.get(ToolRegistry).resolve('shell')).toBeUndefined();
    await expect(call(app.get(ToolRegistry), 'now', '{}')).rejects.toMatchObject({ kind: 'rejected' });
    await app.close();
  });

  it('refuses a tool registered before start-up, in a constructor', async () => {
    @Injectable()
    class EarlyPlugin {
      constructor(tools: ToolRegistry) {
        tools.register(shell());
      }
    }
    @Module({ providers: [EarlyPlugin] })
    class EarlyModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule, EarlyModule],
    });
    expect(error).toMatchObject({ code: 'ERR_INVALID_REGISTRY', problem: { rule: 'registry_sealed' } });
  });

  it('accepts an empty batch (a no-op, as in Registry); a Registry of one’s own holds other tools', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
    expect(() => app.get(ToolRegistry).register()).not.toThrow();
    expect(new Registry(shell()).resolve('shell')).toBeDefined();
    await app.close();
  });
});

describe('ToolRegistry before start-up', () => {
  it('throws registry_not_ready when a compiled TestingModule was not init()ed, and answers after init()', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule],
    })
      .setLogger({ log() {}, error() {}, warn() {} })
      .compile();
    const registry = moduleRef.get(ToolRegistry);
    for (const [method, read] of [
      ['definitions', () => registry.definitions()],
      ['resolve', () => registry.resolve('now')],
    ] as const) {
      expect(read).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_REGISTRY', problem: { rule: 'registry_not_ready', method } }),
      );
    }
    await moduleRef.init();
    expect(registry.definitions().map((d) => d.name)).toEqual(['now']);
    await moduleRef.close();
  });

  it('throws when a provider reads it in its constructor', async () => {
    @Injectable()
    class Eager {
      constructor(tools: ToolRegistry) {
        tools.definitions();
      }
    }
    @Module({ providers: [Eager] })
    class EagerModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule, EagerModule],
    });
    expect(error).toMatchObject({ problem: { rule: 'registry_not_ready', method: 'definitions' } });
  });

  describe('a toolset of a @Global() module that reads ToolRegistry in its onModuleInit', () => {
    const NOW = manifest(entry('now', 'Clock', 'now', null));

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
        const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: NOW }), globalClock(seen)[pick]] });
        expect(seen).toEqual([['now']]);
        await app.close();
      }
    });

    it('fails with registry_not_ready when the global module comes before it (directly or through a module imported before it)', async () => {
      for (const pick of ['Shared', 'Feature'] as const) {
        const seen: string[][] = [];
        const error = await startFailure({
          imports: [globalClock(seen)[pick], ScopeToolModule.forRoot({ manifest: NOW })],
        });
        expect(error).toMatchObject({ code: 'ERR_INVALID_REGISTRY', problem: { rule: 'registry_not_ready' } });
        expect(seen).toEqual([]);
      }
    });
  });
});
