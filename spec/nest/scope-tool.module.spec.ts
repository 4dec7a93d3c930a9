/**
 * ScopeToolModule's API (lib/nest/scope-tool.module.ts): forRoot and forRootAsync options, checked
 * when called or at start-up, one root per application, and forFeature() arguments.
 */
import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { ScopeToolModule, ScopeToolModuleError, ToolRegistry } from '../../lib/nest';
import type { ScopeToolModuleOptions, ScopeToolOptionsFactory, ToolsetDiscovery } from '../../lib/nest';
import { classifyFailure, DEFAULT_TIMEOUT_MS } from '../../lib/protocol';
import { call, ClockModule, MANIFEST, start, startFailure, startProblem, toolNames } from './fixtures';

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

describe('forRoot options', () => {
  it('sets the deadline of the discovered tools with timeoutMs (default 60,000 ms)', async () => {
    const app = await start({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, timeoutMs: 1234 }), ClockModule],
    });
    expect(app.get(ToolRegistry).resolve('now')?.timeoutMs).toBe(1234);
    await app.close();
    const plain = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
    expect(plain.get(ToolRegistry).resolve('now')?.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    await plain.close();
  });

  it('fails start-up on a timeout the container refuses', async () => {
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, timeoutMs: -1 }), ClockModule],
    });
    expect(error).toMatchObject({ code: 'ERR_INVALID_TOOL', problem: { rule: 'build_failed' } });
  });

  it('asks a shared policy function before every tool', async () => {
    const policies = [(_a: unknown, o: { context?: unknown }) => (o.context as { user?: string })?.user === 'alice'];
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, policies }), ClockModule] });
    const permitted = await call(app.get(ToolRegistry), 'now', '{}', { user: 'alice' });
    expect('output' in permitted && permitted.output.asText()).toBe('noon');
    const refused = await call(app.get(ToolRegistry), 'now', '{}', { user: 'mallory' }).catch((e: unknown) => e);
    expect(classifyFailure(refused)?.kind).toBe('rejected');
    await app.close();
  });

  it.each(['feature', 'ALL', ''])("fails start-up on discover: '%s'", async (discover) => {
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST, discover: discover as ToolsetDiscovery }), ClockModule],
    });
    expect(error.problem).toEqual({ rule: 'bad_options', option: 'discover', value: `'${discover}'` });
  });

  it('fails start-up, not at the call, when forRoot gets no options', async () => {
    const error = await startProblem({ imports: [ScopeToolModule.forRoot(undefined as never), ClockModule] });
    expect(error.problem).toEqual({ rule: 'bad_options', option: 'options', value: 'undefined' });
  });
});

describe('forRootAsync builds the options at start-up', () => {
  it.each([
    [
      'useFactory',
      { imports: [ConfigModule], inject: [Config], useFactory: async (c: Config) => ({ manifest: c.manifest }) },
    ],
    ['useClass', { imports: [ConfigModule], useClass: ToolOptions }],
  ])('with %s', async (_how, options) => {
    const app = await start({ imports: [ScopeToolModule.forRootAsync(options), ClockModule] });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('with useExisting: the options factory an imported module exports', async () => {
    @Module({ imports: [ConfigModule], providers: [ToolOptions], exports: [ToolOptions] })
    class OptionsModule {}
    const app = await start({
      imports: [ScopeToolModule.forRootAsync({ imports: [OptionsModule], useExisting: ToolOptions }), ClockModule],
    });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });

  it('validates discover from forRootAsync too', async () => {
    const error = await startProblem({
      imports: [
        ScopeToolModule.forRootAsync({
          useFactory: () => ({ manifest: MANIFEST, discover: 'feature' as ToolsetDiscovery }),
        }),
        ClockModule,
      ],
    });
    expect(error.problem).toMatchObject({ rule: 'bad_options', option: 'discover' });
  });

  it('fails when the useClass class has no createScopeToolOptions(), naming it', async () => {
    @Injectable()
    class NotAFactory {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRootAsync({ useClass: NotAFactory as never }), ClockModule],
    });
    expect(error).toMatchObject({
      code: 'ERR_INVALID_TOOL',
      problem: {
        rule: 'not_an_options_factory',
        how: 'useClass',
        token: 'NotAFactory',
        value: 'an instance of NotAFactory',
      },
    });
  });

  it('fails start-up when the options are request-scoped (useFactory injecting one, or a request-scoped options class)', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Cfg {
      readonly manifest = MANIFEST;
      constructor(@Inject(REQUEST) readonly request: unknown) {}
    }
    @Module({ providers: [Cfg], exports: [Cfg] })
    class CfgModule {}
    const injected = await startProblem({
      imports: [
        ScopeToolModule.forRootAsync({
          imports: [CfgModule],
          inject: [Cfg],
          useFactory: (cfg: Cfg) => ({ manifest: cfg.manifest }),
        }),
        ClockModule,
      ],
    });
    expect(injected.problem).toEqual({ rule: 'options_request_scoped', how: 'useFactory', factory: undefined });
    @Injectable({ scope: Scope.REQUEST })
    class PerRequestOptions implements ScopeToolOptionsFactory {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
      createScopeToolOptions(): ScopeToolModuleOptions {
        return { manifest: MANIFEST };
      }
    }
    const scoped = await startProblem({
      imports: [ScopeToolModule.forRootAsync({ useClass: PerRequestOptions }), ClockModule],
    });
    expect(scoped.problem).toEqual({ rule: 'options_request_scoped', how: 'useClass', factory: 'PerRequestOptions' });
  });

  it('leaves an error thrown by useFactory to Nest, as the application’s own', async () => {
    const thrown = new Error('CONFIG_PATH is not set');
    const useFactory = () => {
      throw thrown;
    };
    const error = await startFailure({ imports: [ScopeToolModule.forRootAsync({ useFactory }), ClockModule] });
    expect(error).toBe(thrown);
  });
});

describe('forRootAsync checks its arguments when called', () => {
  it.each([
    [{}, { issue: 'not_exactly_one', given: [] }],
    [
      { useFactory: () => ({ manifest: MANIFEST }), useClass: class {} },
      { issue: 'not_exactly_one', given: ['useFactory', 'useClass'] },
    ],
    [{ useFactory: 'options' }, { issue: 'not_a_function', key: 'useFactory', value: 'a string' }],
    [{ useClass: {} }, { issue: 'not_a_function', key: 'useClass', value: 'a plain object' }],
    [{ useExisting: null }, { issue: 'null_token' }],
    [
      { useClass: class {}, inject: ['X'] },
      { issue: 'inject_without_factory', key: 'useClass' },
    ],
    [undefined, { issue: 'not_an_object', value: 'undefined' }],
  ])('refuses %p', (options, problem) => {
    let error: unknown;
    try {
      ScopeToolModule.forRootAsync(options as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScopeToolModuleError);
    expect((error as ScopeToolModuleError).problem).toEqual({ rule: 'bad_async_options', ...problem });
  });
});

describe('forFeature checks its arguments when called', () => {
  it.each([
    [['ClockTools'], 1],
    ['ClockTools', undefined],
  ])('refuses %p', (toolsets, item) => {
    expect(() => ScopeToolModule.forFeature(toolsets as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_TOOL', problem: { rule: 'bad_feature_list', item } }),
    );
  });
});

describe('one root module per application', () => {
  it('fails when forRoot is imported by the root module and by a feature module, naming both importers', async () => {
    @Module({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST })] })
    class FeatureModule {}
    @Module({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), FeatureModule, ClockModule] })
    class AppModule {}
    const error = await startProblem({ imports: [AppModule] });
    expect(error.problem).toEqual({ rule: 'root_imported_twice', importers: ['AppModule', 'FeatureModule'] });
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
    const error = await startProblem({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), LibModule.register(), ClockModule],
    });
    expect(error.problem).toEqual({ rule: 'root_imported_twice', importers: ['RootTestModule', 'LibModule'] });
  });

  it('counts one module importing two roots twice', async () => {
    const error = await startProblem({
      imports: [
        ScopeToolModule.forRoot({ manifest: MANIFEST }),
        ScopeToolModule.forRoot({ manifest: MANIFEST }),
        ClockModule,
      ],
    });
    expect(error.problem).toEqual({ rule: 'root_imported_twice', importers: ['RootTestModule', 'RootTestModule'] });
  });

  it('accepts one root module object imported in two places (Nest makes it one module)', async () => {
    const root = ScopeToolModule.forRoot({ manifest: MANIFEST });
    @Module({ imports: [root] })
    class FeatureModule {}
    const app = await start({ imports: [root, FeatureModule, ClockModule] });
    expect(toolNames(app)).toEqual(['now']);
    await app.close();
  });
});
