import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { call, start, startFailure } from './fixtures';

@Toolset()
@Injectable()
class WebSearch {
  @Tool({ name: 'search' })
  query(): string {
    return 'web';
  }
}

@Toolset()
@Injectable()
class DocsSearch {
  @Tool({ name: 'search' })
  find(): string {
    return 'docs';
  }
}

@Module({ providers: [WebSearch] })
class WebModule {}

@Module({ providers: [DocsSearch] })
class DocsModule {}

const SEARCH = manifest(entry('search', 'WebSearch', 'query', null));

describe('one tool name per application', () => {
  it('fails start-up when toolsets of two modules declare one tool name, naming both classes and modules', async () => {
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, DocsModule],
    });
    expect(error.code).toBe('ERR_DUPLICATE_TOOL');
    expect(error.message).toBe(
      'tool: duplicate tool: ScopeToolModule: tool "search" is declared by both WebSearch.query (WebModule) and DocsSearch.find (DocsModule); tool names are unique per application, so rename one with @Tool({ name: \'...\' }) and run scope-tool generate',
    );
  });

  it('fails start-up when one toolset class is provided by two modules (two instances)', async () => {
    @Module({ providers: [WebSearch] })
    class OtherWebModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, OtherWebModule],
    });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the toolset WebSearch is provided by both WebModule (token WebSearch) and OtherWebModule (token WebSearch), as two instances, so its tools would be registered twice; provide it in one module and export that module to share it',
    );
  });

  it('registers a toolset once when its module is imported by several modules', async () => {
    @Module({ imports: [WebModule] })
    class A {}
    @Module({ imports: [WebModule] })
    class B {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), A, B] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['search']);
    await app.close();
  });

  it('registers a toolset once when an alias (useExisting) points to it', async () => {
    @Module({ providers: [WebSearch, { provide: 'search-alias', useExisting: WebSearch }] })
    class Aliased {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Aliased] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['search']);
    await app.close();
  });

  it('finds a toolset given as a value provider', async () => {
    @Module({ providers: [{ provide: 'web', useValue: new WebSearch() }] })
    class Valued {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Valued] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['search']);
    await app.close();
  });

  it('fails start-up when one module provides one toolset class under two tokens (two instances), naming both tokens', async () => {
    @Module({ providers: [WebSearch, { provide: 'SEARCH', useFactory: () => new WebSearch() }] })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), AppModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      "tool: invalid tool: ScopeToolModule: the toolset WebSearch is provided twice in module AppModule (tokens WebSearch and 'SEARCH'), as two instances, so its tools would be registered twice; provide it once, and if you need both tokens, make one an alias of the other: { provide: 'SEARCH', useExisting: WebSearch }",
    );
  });

  it('names both tokens for two value providers of one class in one module', async () => {
    const A = Symbol('a');
    @Module({
      providers: [
        { provide: A, useValue: new WebSearch() },
        { provide: 'b', useValue: new WebSearch() },
      ],
    })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), AppModule] });
    expect(error.message).toContain(
      "the toolset WebSearch is provided twice in module AppModule (tokens Symbol(a) and 'b'), as two instances",
    );
  });

  it('names both tokens for a class provider and a transient factory of one class in one module', async () => {
    @Module({
      providers: [WebSearch, { provide: 'SEARCH', useFactory: () => new WebSearch(), scope: Scope.TRANSIENT }],
    })
    class AppModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), AppModule] });
    expect(error.message).toContain(
      "the toolset WebSearch is provided twice in module AppModule (tokens WebSearch and 'SEARCH'), as two instances",
    );
  });

  it('registers a toolset once when an alias (useExisting) comes before the provider it stands for', async () => {
    @Module({ providers: [{ provide: 'search-alias', useExisting: WebSearch }, WebSearch] })
    class Aliased {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Aliased] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['search']);
    expect(app.get('search-alias', { strict: false })).toBe(app.get(WebSearch, { strict: false }));
    await app.close();
  });

  it('registers a toolset once when a factory provider returns the same instance under another token', async () => {
    @Module({
      providers: [WebSearch, { provide: 'SEARCH', useFactory: (search: WebSearch) => search, inject: [WebSearch] }],
    })
    class Aliased {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Aliased] });
    expect(
      app
        .get(ToolRegistry)
        .definitions()
        .map((d) => d.name),
    ).toEqual(['search']);
    await app.close();
  });

  it('refuses a transient toolset that an alias (useExisting) points to as transient, once (not as provided twice)', async () => {
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class TransientSearch {
      @Tool({ name: 'search' })
      query(): string {
        return 'transient';
      }
    }
    @Module({ providers: [TransientSearch, { provide: 'search-alias', useExisting: TransientSearch }] })
    class Aliased {}
    const error = await startFailure({
      imports: [
        ScopeToolModule.forRoot({ manifest: manifest(entry('search', 'TransientSearch', 'query', null)) }),
        Aliased,
      ],
    });
    expect(error.message).toContain(
      'ScopeToolModule: the toolset TransientSearch (Aliased) is transient (Scope.TRANSIENT);',
    );
  });

  it("with discover: 'features', does not check an unlisted toolset provided by two modules (it never becomes a tool)", async () => {
    @Module({ providers: [WebSearch] })
    class OtherWebModule {}
    @Module({ imports: [ScopeToolModule.forFeature([DocsSearch])], providers: [DocsSearch] })
    class ListedDocs {}
    const docs = manifest(entry('search', 'DocsSearch', 'find', null));
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({ manifest: docs, discover: 'features' }),
        WebModule,
        OtherWebModule,
        ListedDocs,
      ],
    });
    const result = await call(app.get(ToolRegistry), 'search', '{}');
    expect('output' in result && result.output.asText()).toBe('docs');
    await app.close();
  });

  it('tells two modules of one class name apart', async () => {
    const searchModule = () => {
      @Module({ providers: [WebSearch] })
      class SearchModule {}
      return SearchModule;
    };
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), searchModule(), searchModule()],
    });
    expect(error.message).toContain(
      'the toolset WebSearch is provided by both SearchModule (token WebSearch) and another SearchModule (token WebSearch), as two instances',
    );
  });
});
