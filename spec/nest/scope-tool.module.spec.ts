import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { classifyFailure, ToolError } from '../../lib/protocol';
import {
  call,
  ClockModule,
  ClockTools,
  MANIFEST,
  NotesModule,
  NotesRepository,
  NotesTools,
  start,
  startFailure,
} from './fixtures';

/** A consumer in another module: ToolRegistry is injectable by class. */
@Injectable()
class Assistant {
  constructor(readonly tools: ToolRegistry) {}
}
@Module({ providers: [Assistant] })
class AssistantModule {}

describe('ScopeToolModule.forRoot discovers @Toolset providers', () => {
  it('registers the tools of toolsets declared in any module, with their injected dependencies', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, ClockModule] });
    const registry = app.get(ToolRegistry);
    expect(registry.definitions().map((d) => d.name)).toEqual(['add_note', 'now']);
    const result = await call(registry, 'add_note', '{"title":"milk"}', { user: 'alice' });
    expect('output' in result && result.output.asText()).toBe('added milk for alice');
    expect(app.get(NotesRepository, { strict: false }).titles).toEqual(['milk']);
    await app.close();
  });

  it('makes ToolRegistry injectable in every module (global by default), filled before other modules start', async () => {
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, ClockModule, AssistantModule],
    });
    const assistant = app.get(Assistant, { strict: false });
    expect(assistant.tools).toBe(app.get(ToolRegistry));
    expect(assistant.tools.resolve('now')).toBeDefined();
    await app.close();
  });

  it('with no toolset in the application, starts with an empty registry', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST })] });
    expect(app.get(ToolRegistry).definitions()).toEqual([]);
    await app.close();
  });

  it('registers nothing when one tool cannot be bound (one atomic batch), and says which module failed', async () => {
    const stale = { version: 1, tools: MANIFEST.tools.filter((t) => t.name !== 'now') };
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: stale }), NotesModule, ClockModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: tool "now" (ClockTools.now) is missing from the manifest; run scope-tool generate',
    );
  });

  it('turns an unexpected error during start-up into a ScopeToolModule ToolError, with the error as its cause', async () => {
    const broken = new TypeError('discovery broke');
    const scan = jest.spyOn(DiscoveryService.prototype, 'getControllers').mockImplementation(() => {
      throw broken;
    });
    try {
      const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
      expect(error).toBeInstanceOf(ToolError);
      expect(error.message).toBe('tool: invalid tool: ScopeToolModule: start-up failed: discovery broke');
      expect((error as Error & { cause?: unknown }).cause).toBe(broken);
    } finally {
      scan.mockRestore();
    }
  });

  it('fails start-up on a manifest path that cannot be read, naming the file', async () => {
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: '/nonexistent/tools.manifest.json' }), ClockModule],
    });
    expect(error.message).toContain('ScopeToolModule: manifest /nonexistent/tools.manifest.json: cannot be read');
  });
});

describe('ScopeToolModule.forRootAsync', () => {
  @Injectable()
  class Config {
    readonly manifest = MANIFEST;
  }
  @Module({ providers: [Config], exports: [Config] })
  class ConfigModule {}

  it('builds its options with an injected, asynchronous factory', async () => {
    const app = await start({
      imports: [
        ScopeToolModule.forRootAsync({
          imports: [ConfigModule],
          inject: [Config],
          useFactory: async (config: Config) => ({ manifest: config.manifest }),
        }),
        ClockModule,
      ],
    });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });
});

describe('ScopeToolModule.forFeature', () => {
  @Module({ imports: [ScopeToolModule.forFeature([ClockTools])], providers: [ClockTools] })
  class ListedClockModule {}

  it("with discover: 'features', registers only the listed toolsets", async () => {
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: 'features' }), NotesModule, ListedClockModule],
    });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });

  it("with discover: 'all' (the default), still registers every toolset", async () => {
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), NotesModule, ListedClockModule],
    });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['add_note', 'now']);
    await app.close();
  });

  it('fails start-up when a listed class is provided by no module', async () => {
    @Module({ imports: [ScopeToolModule.forFeature([ClockTools])] })
    class Forgetful {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), Forgetful] });
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: ClockTools is listed in ScopeToolModule.forFeature() but no module provides it; add it to the providers of the feature module (a factory provider counts when its token is the class: { provide: ClockTools, useFactory }, and must be default-scoped, as every toolset)',
    );
  });

  it('fails start-up when a listed class is not a @Toolset', async () => {
    class Plain {}
    @Module({ imports: [ScopeToolModule.forFeature([Plain])], providers: [Plain] })
    class Mistaken {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), Mistaken] });
    expect(error.message).toContain(
      'Plain is listed in ScopeToolModule.forFeature() but is not a toolset; decorate it with @Toolset()',
    );
  });

  describe("with discover: 'features', a provider counts by its value's class", () => {
    @Toolset()
    @Injectable()
    class OtherTools {
      @Tool({ name: 'other' })
      other(): string {
        return 'other';
      }
    }
    const BOTH = manifest(entry('now', 'ClockTools', 'now', null), entry('other', 'OtherTools', 'other', null));

    it('registers a listed class provided under the token of an unlisted @Toolset class ({ provide: Other, useClass: Listed }), not "no module provides it"', async () => {
      @Module({
        imports: [ScopeToolModule.forFeature([ClockTools])],
        providers: [{ provide: OtherTools, useClass: ClockTools }],
      })
      class FeatureModule {}
      const app = await start({
        imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), FeatureModule],
      });
      expect(
        app
          .get(ToolRegistry)
          .definitions()
          .map((d) => d.name),
      ).toEqual(['now']);
      const result = await call(app.get(ToolRegistry), 'now', '{}');
      expect('output' in result && result.output.asText()).toBe('noon');
      await app.close();
    });

    it('registers a listed class behind an alias under an unlisted @Toolset class token once', async () => {
      @Module({
        imports: [ScopeToolModule.forFeature([ClockTools])],
        providers: [ClockTools, { provide: OtherTools, useExisting: ClockTools }],
      })
      class FeatureModule {}
      const app = await start({
        imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), FeatureModule],
      });
      expect(
        app
          .get(ToolRegistry)
          .definitions()
          .map((d) => d.name),
      ).toEqual(['now']);
      await app.close();
    });

    it('fails start-up when a listed token holds an instance of an unlisted @Toolset class that is no subclass of a listed one (its tools would be registered unlisted)', async () => {
      @Module({
        imports: [ScopeToolModule.forFeature([OtherTools])],
        providers: [{ provide: OtherTools, useClass: ClockTools }],
      })
      class FeatureModule {}
      const error = await startFailure({
        imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), FeatureModule],
      });
      expect(error.code).toBe('ERR_INVALID_TOOL');
      expect(error.message).toBe(
        "tool: invalid tool: ScopeToolModule: the provider OtherTools (FeatureModule) has the toolset OtherTools, which ScopeToolModule.forFeature() lists, as its token, but its value is an instance of ClockTools, which is neither listed nor a subclass of a listed class; with discover: 'features' only the listed toolsets (or a decorated subclass of one, as an override) become tools, so list ClockTools in forFeature() too, or provide an instance of OtherTools",
      );
    });

    it('fails the same way through an alias under the listed token', async () => {
      @Module({
        imports: [ScopeToolModule.forFeature([OtherTools])],
        providers: [ClockTools, { provide: OtherTools, useExisting: ClockTools }],
      })
      class FeatureModule {}
      const error = await startFailure({
        imports: [ScopeToolModule.forRoot({ manifest: BOTH, discover: 'features' }), FeatureModule],
      });
      expect(error.message).toContain(
        'ScopeToolModule: the provider OtherTools (FeatureModule, useExisting: ClockTools) has the toolset OtherTools, which ScopeToolModule.forFeature() lists, as its token, but its value is an instance of ClockTools, which is neither listed nor a subclass of a listed class;',
      );
    });

    it("with discover: 'all', registers the value's class as before (every toolset is a tool)", async () => {
      @Module({
        imports: [ScopeToolModule.forFeature([OtherTools])],
        providers: [{ provide: OtherTools, useClass: ClockTools }],
      })
      class FeatureModule {}
      const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: BOTH }), FeatureModule] });
      expect(
        app
          .get(ToolRegistry)
          .definitions()
          .map((d) => d.name),
      ).toEqual(['now']);
      await app.close();
    });
  });

  it('refuses a list that is not made of classes, when the module is declared', () => {
    expect(() => ScopeToolModule.forFeature(['ClockTools'] as never)).toThrow(
      'ScopeToolModule.forFeature(): item 1 is not a class; pass @Toolset() classes',
    );
  });
});

describe('ScopeToolModule.forRoot({ policies })', () => {
  it('asks a shared policy function before every tool', async () => {
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({
          manifest: MANIFEST,
          policies: [(_a, o) => (o.context as { user?: string })?.user === 'alice'],
        }),
        ClockModule,
      ],
    });
    const registry = app.get(ToolRegistry);
    const permitted = await call(registry, 'now', '{}', { user: 'alice' });
    expect('output' in permitted && permitted.output.asText()).toBe('noon');
    const refused = await call(registry, 'now', '{}', { user: 'mallory' }).catch((e: unknown) => e);
    expect(classifyFailure(refused)?.kind).toBe('rejected');
    await app.close();
  });
});
