import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { start, startFailure } from './fixtures';

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
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, DocsModule] });
    expect(error.code).toBe('ERR_DUPLICATE_TOOL');
    expect(error.message).toBe(
      "tool: duplicate tool: ScopeToolModule: tool \"search\" is declared by both WebSearch.query (WebModule) and DocsSearch.find (DocsModule); tool names are unique per application, so rename one with @Tool({ name: '...' }) and run scope-tool generate",
    );
  });

  it('fails start-up when one toolset class is provided by two modules (two instances)', async () => {
    @Module({ providers: [WebSearch] })
    class OtherWebModule {}
    const error = await startFailure({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), WebModule, OtherWebModule] });
    expect(error.code).toBe('ERR_INVALID_TOOL');
    expect(error.message).toBe(
      'tool: invalid tool: ScopeToolModule: the toolset WebSearch is provided by both WebModule and OtherWebModule; provide it in one module and export that module to share it',
    );
  });

  it('registers a toolset once when its module is imported by several modules', async () => {
    @Module({ imports: [WebModule] })
    class A {}
    @Module({ imports: [WebModule] })
    class B {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), A, B] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['search']);
    await app.close();
  });

  it('registers a toolset once when an alias (useExisting) points to it', async () => {
    @Module({ providers: [WebSearch, { provide: 'search-alias', useExisting: WebSearch }] })
    class Aliased {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Aliased] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['search']);
    await app.close();
  });

  it('finds a toolset given as a value provider', async () => {
    @Module({ providers: [{ provide: 'web', useValue: new WebSearch() }] })
    class Valued {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: SEARCH }), Valued] });
    expect(app.get(ToolRegistry).definitions().map((d) => d.name)).toEqual(['search']);
    await app.close();
  });
});
