/**
 * The wording of every ScopeToolModule problem, pinned once here (lib/nest/messages.ts); the other
 * NestJS specs assert codes and problem fields only.
 */
import { ToolError } from '../../lib/protocol';
import { ScopeToolModuleError } from '../../lib/nest';
import type { NestProblem } from '../../lib/nest';
import { describeValue, startUpFailed, tokenName } from '../../lib/nest/messages';

const CLOCK = { token: 'Clock', module: 'ClockModule' };

const MESSAGES: [NestProblem, string][] = [
  [
    {
      rule: 'not_static_class_provider',
      kind: 'toolset',
      cls: 'Clock',
      site: { token: "'CLOCK'", module: 'ClockModule' },
      shape: 'useFactory',
    },
    "tool: invalid tool: ScopeToolModule: the toolset Clock (provider 'CLOCK' of ClockModule) is a factory provider (useFactory); ScopeToolModule binds toolsets once, at start-up, to the application's instance of a default-scoped class provider, so provide the class itself, default-scoped (singleton: no scope option, no request-scoped dependency): providers: [Clock] or { provide: 'CLOCK', useClass: Clock } (in a test: overrideProvider(Clock).useClass(FakeClock) with class FakeClock extends Clock, decorated with @Toolset()), and read per-call data from CallOptions.context",
  ],
  [
    { rule: 'wrong_class', kind: 'toolset', token: 'Clock', module: 'ClockModule', cls: 'FakeClock' },
    'tool: invalid tool: ScopeToolModule: the provider Clock (ClockModule) has the toolset Clock as its token but builds FakeClock, which is not a @Toolset() class; decorate FakeClock with @Toolset() (a subclass does not inherit it), or provide Clock itself',
  ],
  [
    {
      rule: 'provided_twice',
      kind: 'policy',
      cls: 'Clock',
      first: CLOCK,
      second: { token: 'Clock', module: 'OtherModule' },
      sameModule: false,
    },
    'tool: invalid tool: ScopeToolModule: the policy Clock is provided by both ClockModule (token Clock) and OtherModule (token Clock), as two instances, so scope-tool would not know which one to ask; provide it in one module and export that module to share it',
  ],
  [
    { rule: 'duplicate_tool', tool: 'search', first: 'Web.query (WebModule)', second: 'Docs.find (DocsModule)' },
    'tool: duplicate tool: ScopeToolModule: tool "search" is declared by both Web.query (WebModule) and Docs.find (DocsModule); tool names are unique per application, so rename one with @Tool({ name: \'...\' }) and run scope-tool generate',
  ],
  [
    { rule: 'policy_not_provided', policy: 'Writers', of: 'Notes (NotesModule)', shared: false },
    "tool: invalid tool: ScopeToolModule: the policy Writers of Notes (NotesModule) is not a provider of any module; add it (an @Injectable() class) to the providers of the toolset's module, or of any other module: policies are resolved from every module",
  ],
  [
    { rule: 'not_a_provider', cls: 'Clock', module: 'ClockModule', use: 'guard' },
    'tool: invalid tool: ScopeToolModule: the toolset Clock (ClockModule) is used as a guard and provided by no module, and ScopeToolModule registers toolsets from providers only; add Clock to the providers of ClockModule (the enhancer stays an instance of its own, built by Nest)',
  ],
  [
    { rule: 'feature_not_toolset', cls: 'Plain' },
    'tool: invalid tool: ScopeToolModule: Plain is listed in ScopeToolModule.forFeature() but is not a toolset; decorate it with @Toolset() or remove it from the list',
  ],
  [
    { rule: 'feature_not_provided', cls: 'Clock' },
    'tool: invalid tool: ScopeToolModule: Clock is listed in ScopeToolModule.forFeature() but no module provides it; add it to the providers of the feature module',
  ],
  [
    { rule: 'bad_feature_list', item: 2 },
    'tool: invalid tool: ScopeToolModule.forFeature(): item 2 is not a class; pass @Toolset() classes',
  ],
  [
    { rule: 'bad_options', option: 'discover', value: "'ALL'" },
    "tool: invalid tool: ScopeToolModule: options.discover is 'ALL'; use 'all' (every @Toolset() provider, the default) or 'features' (only the classes listed by ScopeToolModule.forFeature())",
  ],
  [
    { rule: 'bad_async_options', issue: 'not_exactly_one', given: ['useFactory', 'useClass'] },
    'tool: invalid tool: ScopeToolModule.forRootAsync(): pass exactly one of useFactory, useClass and useExisting (useFactory and useClass were given)',
  ],
  [
    { rule: 'not_an_options_factory', how: 'useClass', token: 'Cfg', value: 'an instance of Cfg' },
    'tool: invalid tool: ScopeToolModule: the options factory Cfg of forRootAsync({ useClass: Cfg }) is an instance of Cfg, which has no createScopeToolOptions() method; implement ScopeToolOptionsFactory',
  ],
  [
    { rule: 'options_request_scoped', how: 'useFactory', factory: undefined },
    'tool: invalid tool: ScopeToolModule: the options of ScopeToolModule.forRootAsync() are request-scoped (its useFactory injects a request-scoped provider), and toolsets are registered once, at start-up, outside any request; make what useFactory injects default-scoped (singleton: no scope option, no request-scoped dependency), and read per-request data from CallOptions.context',
  ],
  [
    { rule: 'root_imported_twice', importers: ['AppModule', 'FeatureModule'] },
    "tool: invalid tool: ScopeToolModule: ScopeToolModule.forRoot() (or forRootAsync()) is imported more than once, by AppModule and by FeatureModule, which would make one ToolRegistry per import; import it once, in the root module, and list a feature module's toolsets with ScopeToolModule.forFeature()",
  ],
  [
    { rule: 'registry_not_ready', method: 'resolve' },
    "tool: invalid registry: ScopeToolModule: ToolRegistry.resolve() was called before ScopeToolModule filled the registry, in its onModuleInit (app.init(), NestFactory.create*(), or moduleRef.init() after compile()); a constructor runs before it, and so does the onModuleInit of a @Global() module that Nest reaches before ScopeToolModule: import ScopeToolModule.forRoot() first in the root module's imports, or read the registry in onApplicationBootstrap",
  ],
  [
    { rule: 'registry_sealed' },
    'tool: invalid registry: ScopeToolModule: ToolRegistry is sealed: it holds the tools of the discovered @Toolset() providers, checked against the manifest and guarded by their policies; declare the tool in a @Toolset() provider and run scope-tool generate, or keep other tools in a Registry of their own (new Registry(...))',
  ],
  [
    { rule: 'build_failed', detail: 'manifest x.json: cannot be read' },
    'tool: invalid tool: ScopeToolModule: manifest x.json: cannot be read',
  ],
  [
    { rule: 'start_up_failed', detail: 'discovery broke' },
    'tool: invalid tool: ScopeToolModule: start-up failed: discovery broke',
  ],
];

describe('ScopeToolModuleError renders each rule from its fields', () => {
  it.each(MESSAGES.map(([problem, message]) => [problem.rule, problem, message] as const))(
    '%s',
    (_rule, problem, message) => {
      const error = new ScopeToolModuleError(problem);
      expect(error.message).toBe(message);
      expect(error.problem).toEqual(problem);
    },
  );

  it('covers every rule of NestProblem once', () => {
    // A rule added to NestProblem and missing here fails to compile.
    const every: Record<NestProblem['rule'], true> = {
      not_static_class_provider: true,
      wrong_class: true,
      provided_twice: true,
      duplicate_tool: true,
      policy_not_provided: true,
      not_a_provider: true,
      feature_not_toolset: true,
      feature_not_provided: true,
      bad_feature_list: true,
      bad_options: true,
      bad_async_options: true,
      not_an_options_factory: true,
      options_request_scoped: true,
      root_imported_twice: true,
      registry_not_ready: true,
      registry_sealed: true,
      build_failed: true,
      start_up_failed: true,
    };
    expect(MESSAGES.map(([p]) => p.rule)).toEqual(Object.keys(every));
  });
});

describe('every reason a toolset or policy provider cannot be bound is named', () => {
  it.each([
    ['useValue', 'is a value provider (useValue);'],
    ['useExisting', 'is an alias (useExisting);'],
    ['transient', 'is transient (Scope.TRANSIENT): every consumer gets an instance of its own;'],
    [
      'request_scoped',
      'is request-scoped (Scope.REQUEST, or through a request-scoped dependency): there is no request at start-up;',
    ],
  ] as const)('%s', (shape, text) => {
    const error = new ScopeToolModuleError({
      rule: 'not_static_class_provider',
      kind: 'policy',
      cls: 'Clock',
      site: CLOCK,
      shape,
    });
    expect(error.message).toContain(`the policy Clock (ClockModule) ${text}`);
    expect(error.message).toContain(
      'providers: [Clock] (in a test: overrideProvider(Clock).useClass(FakeClock) with class FakeClock extends Clock)',
    );
  });
});

describe('the codes of ScopeToolModuleError', () => {
  it('is ERR_DUPLICATE_TOOL for a duplicate tool name, ERR_INVALID_REGISTRY for registry misuse, ERR_INVALID_TOOL otherwise', () => {
    expect(new ScopeToolModuleError({ rule: 'duplicate_tool', tool: 't', first: 'A', second: 'B' }).code).toBe(
      'ERR_DUPLICATE_TOOL',
    );
    expect(new ScopeToolModuleError({ rule: 'registry_sealed' }).code).toBe('ERR_INVALID_REGISTRY');
    expect(new ScopeToolModuleError({ rule: 'feature_not_provided', cls: 'A' }).code).toBe('ERR_INVALID_TOOL');
    expect(new ScopeToolModuleError({ rule: 'feature_not_provided', cls: 'A' })).toBeInstanceOf(ToolError);
  });

  it('keeps the container error’s code, detail and cause for build_failed, and wraps anything else as start_up_failed', () => {
    const container = new ToolError('ERR_INVALID_SCHEMA', 'schema of x is bad');
    const built = startUpFailed(container, true);
    expect(built).toMatchObject({
      code: 'ERR_INVALID_SCHEMA',
      problem: { rule: 'build_failed', detail: 'schema of x is bad' },
    });
    expect(built.cause).toBe(container);
    const broken = new TypeError('boom');
    expect(startUpFailed(broken, false)).toMatchObject({
      code: 'ERR_INVALID_TOOL',
      problem: { rule: 'start_up_failed', detail: 'boom' },
    });
    const own = new ScopeToolModuleError({ rule: 'registry_sealed' });
    expect(startUpFailed(own, true)).toBe(own);
  });
});

describe('how messages name tokens and values', () => {
  it('names a class, a string and a symbol token', () => {
    expect([tokenName(class Clock {}), tokenName('CLOCK'), tokenName(Symbol('clock'))]).toEqual([
      'Clock',
      "'CLOCK'",
      'Symbol(clock)',
    ]);
  });

  it('describes a value by its kind or class', () => {
    class Clock {}
    expect([describeValue(undefined), describeValue('x'), describeValue({}), describeValue(new Clock())]).toEqual([
      'undefined',
      'a string',
      'a plain object',
      'an instance of Clock',
    ]);
  });
});
