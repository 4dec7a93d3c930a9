/**
 * NestJS is an optional peer: the main entry must load when @nestjs/* cannot be resolved, while
 * scope-tool/nest needs it. Each case loads the sources in a fresh module registry where requiring
 * @nestjs/common or @nestjs/core throws, as it does when the packages are not installed.
 */
function withoutNest<T>(load: () => T): T {
  let loaded: T | undefined;
  jest.isolateModules(() => {
    for (const name of ['@nestjs/common', '@nestjs/core', '@nestjs/testing']) {
      jest.doMock(name, () => {
        throw new Error(`Cannot find module '${name}'`);
      });
    }
    loaded = load();
  });
  return loaded as T;
}

afterEach(() => {
  jest.dontMock('@nestjs/common');
  jest.dontMock('@nestjs/core');
  jest.dontMock('@nestjs/testing');
});

describe('NestJS stays an optional peer', () => {
  it('loads the main entry (scope-tool) without @nestjs packages', () => {
    const entry = withoutNest(() => require('../../lib/index') as Record<string, unknown>);
    expect(typeof entry.createRegistry).toBe('function');
    expect(typeof entry.Registry).toBe('function');
  });

  it('loads the decorators entry (scope-tool/decorators) without @nestjs packages', () => {
    const decorators = withoutNest(() => require('../../lib/decorators') as Record<string, unknown>);
    expect(typeof decorators.Toolset).toBe('function');
  });

  it('needs @nestjs packages for scope-tool/nest (the missing module is reported, not hidden)', () => {
    expect(() => withoutNest(() => require('../../lib/nest'))).toThrow("Cannot find module '@nestjs/common'");
  });
});
