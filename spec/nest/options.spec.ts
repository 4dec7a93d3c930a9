/**
 * Start-up fails, instead of leaving the registry silently empty, when the module itself is
 * misconfigured: request-scoped forRootAsync options, an unknown `discover`, forRoot imported twice.
 * And a ToolRegistry read before start-up throws instead of answering as if no tool existed.
 */
import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import type { ScopeToolModuleOptions, ScopeToolOptionsFactory, ToolsetDiscovery } from '../../lib/nest';
import { ToolError } from '../../lib/protocol';
import { ClockModule, MANIFEST, start, startFailure } from './fixtures';

describe('forRootAsync options must be resolvable at start-up', () => {
  it('fails start-up when useFactory injects a request-scoped provider (the options, and the module, would be request-scoped)', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Cfg {
      readonly manifest = MANIFEST;
      constructor(@Inject(REQUEST) readonly request: unknown) {}
    }
    @Module({ providers: [Cfg], exports: [Cfg] })
    class CfgModule {}
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRootAsync({
          imports: [CfgModule],
          inject: [Cfg],
          useFactory: (cfg: Cfg) => ({ manifest: cfg.manifest }),
        }),
        ClockModule,
      ],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the options of ScopeToolModule.forRootAsync() are request-scoped, because its useFactory injects a request-scoped provider (Cfg); toolsets are registered once at start-up, outside any request, so the options must be resolvable at start-up: inject only default-scoped providers into useFactory, and read per-request data from CallOptions.context',
    );
  });
});

describe('the discover option is validated', () => {
  it.each(['feature', 'ALL', ''])("fails start-up on discover: '%s', listing the allowed values", async (discover) => {
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: discover as ToolsetDiscovery }), ClockModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      `tool: invalid tool: ScopeToolModule: options.discover is '${discover}'; use 'all' (every @Toolset() provider of the application, the default) or 'features' (only the classes listed by ScopeToolModule.forFeature())`,
    );
  });

  it('validates discover from forRootAsync too', async () => {
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRootAsync({
          useFactory: () => ({ manifest: MANIFEST, discover: 'feature' as ToolsetDiscovery }),
        }),
        ClockModule,
      ],
    });
    expect(error.message).toContain("ScopeToolModule: options.discover is 'feature'; use 'all'");
  });
});

describe('one ScopeToolModule root per application', () => {
  it('fails start-up when forRoot is imported by the root module and by a feature module, naming both importers', async () => {
    @Module({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST })] })
    class FeatureModule {}
    @Module({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), FeatureModule, ClockModule] })
    class AppModule {}
    const error = await startFailure({ imports: [AppModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: ScopeToolModule.forRoot() (or forRootAsync()) is imported more than once, by AppModule and by FeatureModule, which would make one ToolRegistry per import, each with its own tools (app.get(ToolRegistry) returns only one of them); import it once, in the root module, and list a feature module's toolsets with ScopeToolModule.forFeature() (ToolRegistry is global by default)",
    );
  });

  it('names an importer that is a dynamic module, and counts forRoot and forRootAsync alike', async () => {
    @Module({})
    class LibModule {
      static register() {
        return {
          module: LibModule,
          imports: [ScopeToolModule.forRootAsync({ useFactory: () => ({ manifest: MANIFEST }) })],
        };
      }
    }
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), LibModule.register(), ClockModule],
    });
    expect(error.message).toContain('is imported more than once, by RootTestModule and by LibModule,');
  });

  it('says how many times one module imports two roots', async () => {
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRoot({ manifest: MANIFEST }),
        ScopeToolModule.forRoot({ manifest: MANIFEST }),
        ClockModule,
      ],
    });
    expect(error.message).toContain('is imported more than once, 2 times by RootTestModule,');
  });

  it('accepts one root module object imported in two places (Nest makes it one module)', async () => {
    const root = ScopeToolModule.forRoot({ manifest: MANIFEST });
    @Module({ imports: [root] })
    class FeatureModule {}
    const app = await start({ imports: [root, FeatureModule, ClockModule] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });
});

describe('ToolRegistry before start-up', () => {
  it('throws ERR_INVALID_REGISTRY when a compiled TestingModule was not init()ed, instead of looking empty', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule],
    })
      .setLogger({ log() {}, error() {}, warn() {} })
      .compile();
    const registry = moduleRef.get(ToolRegistry);
    expect(() => registry.definitions()).toThrow(
      "tool: invalid registry: ScopeToolModule: ToolRegistry.definitions() was called before ScopeToolModule filled the registry; it is filled when the application initializes (app.init(), NestFactory.create*(), or await moduleRef.init() after Test.createTestingModule(...).compile()), in ScopeToolModule's onModuleInit, and stays unusable if that start-up failed. A constructor runs before it, and so does the onModuleInit of a provider of a @Global() module that Nest reaches before ScopeToolModule (global modules start before all others, in the order Nest finds them, depth-first through the imports): import ScopeToolModule.forRoot() (or forRootAsync()) first in the root module's imports, or read the registry in onApplicationBootstrap",
    );
    expect(() => registry.resolve('now')).toThrow(
      'ToolRegistry.resolve() was called before ScopeToolModule filled the registry',
    );
    await moduleRef.init();
    expect(registry.definitions().map((d) => d.name)).toEqual(['now']);
    await moduleRef.close();
  });

  it('throws when a provider reads it in its constructor, before start-up', async () => {
    @Injectable()
    class Eager {
      readonly names: string[];
      constructor(tools: ToolRegistry) {
        this.names = tools.definitions().map((d) => d.name);
      }
    }
    @Module({ providers: [Eager] })
    class EagerModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule, EagerModule],
    });
    expect(error.message).toContain('ToolRegistry.definitions() was called before ScopeToolModule filled the registry');
  });
});

describe('forRootAsync with an options factory class (useClass, useExisting)', () => {
  @Injectable()
  class Config {
    readonly manifest = MANIFEST;
  }
  @Module({ providers: [Config], exports: [Config] })
  class ConfigModule {}

  @Injectable()
  class ToolOptions implements ScopeToolOptionsFactory {
    constructor(private readonly config: Config) {}
    async createScopeToolOptions(): Promise<ScopeToolModuleOptions> {
      return { manifest: this.config.manifest };
    }
  }

  it('builds the options with useClass: ScopeToolModule provides the class, with its dependencies from imports', async () => {
    const app = await start({
      imports: [ScopeToolModule.forRootAsync({ imports: [ConfigModule], useClass: ToolOptions }), ClockModule],
    });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });

  it('builds the options with useExisting: the options factory an imported module exports', async () => {
    @Module({ imports: [ConfigModule], providers: [ToolOptions], exports: [ToolOptions] })
    class OptionsModule {}
    const app = await start({
      imports: [ScopeToolModule.forRootAsync({ imports: [OptionsModule], useExisting: ToolOptions }), ClockModule],
    });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['now']);
    await app.close();
  });

  it('fails, naming the class, when the useClass class has no createScopeToolOptions() (not a raw TypeError)', async () => {
    @Injectable()
    class NotAFactory {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRootAsync({ useClass: NotAFactory as never }), ClockModule],
    });
    expect(error).toBeInstanceOf(ToolError);
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the options factory NotAFactory of forRootAsync({ useClass: NotAFactory }) is an instance of NotAFactory, which has no createScopeToolOptions() method; implement ScopeToolOptionsFactory: createScopeToolOptions() returns the options ({ manifest, discover?, policies? }) or a promise of them',
    );
  });

  it('fails start-up when the options factory class is request-scoped, naming it', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequestOptions implements ScopeToolOptionsFactory {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
      createScopeToolOptions(): ScopeToolModuleOptions {
        return { manifest: MANIFEST };
      }
    }
    const error = await startFailure({
      imports: [ScopeToolModule.forRootAsync({ useClass: PerRequestOptions }), ClockModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the options of ScopeToolModule.forRootAsync() are request-scoped, because its options factory PerRequestOptions (useClass) is request-scoped, or depends, directly or not, on a request-scoped provider; toolsets are registered once at start-up, outside any request, so the options must be resolvable at start-up: make PerRequestOptions default-scoped, injecting only default-scoped providers, and read per-request data from CallOptions.context',
    );
  });
});

describe('forRootAsync checks its arguments when called', () => {
  it.each([
    [{}, 'pass exactly one of useFactory, useClass and useExisting (none was given)'],
    [
      { useFactory: () => ({ manifest: MANIFEST }), useClass: class {} },
      'pass exactly one of useFactory, useClass and useExisting (useFactory and useClass were given)',
    ],
    [{ useFactory: 'options' }, 'useFactory is a string; pass a function that returns the options'],
    [
      { useClass: {} },
      'useClass is a plain object; pass an options factory class (one with createScopeToolOptions(), see ScopeToolOptionsFactory)',
    ],
    [{ useExisting: null }, 'useExisting is null; pass the token of an options factory provider'],
    [
      { useClass: class {}, inject: ['X'] },
      'inject is for useFactory; an options factory (useClass) gets its dependencies through its own constructor',
    ],
    [
      undefined,
      'the options are undefined; pass { useFactory, inject?, imports? }, { useClass, imports? } or { useExisting, imports? }',
    ],
  ])('refuses %p with a ToolError', (options, detail) => {
    expect(() => ScopeToolModule.forRootAsync(options as never)).toThrow(
      new ToolError('ERR_INVALID_TOOL', `ScopeToolModule.forRootAsync(): ${detail}`),
    );
  });

  it('leaves an error thrown by useFactory to Nest, as the application’s own: it fails start-up as it is', async () => {
    const thrown = new Error('CONFIG_PATH is not set');
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRootAsync({
          useFactory: () => {
            throw thrown;
          },
        }),
        ClockModule,
      ],
    });
    expect(error).toBe(thrown);
  });
});

describe('forRoot options that are not an object', () => {
  it('fails start-up (not a TypeError at the call) when forRoot gets no options', async () => {
    const error = await startFailure({ imports: [ScopeToolModule.forRoot(undefined as never), ClockModule] });
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the options are undefined; pass an object: { manifest, discover?, policies? }',
    );
  });
});
