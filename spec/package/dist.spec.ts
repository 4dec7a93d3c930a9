/**
 * The built package: `npm run build` writes dist/ (CommonJS and ESM, with declarations) for every
 * entry of package.json `exports`, each exporting exactly the names spec/package/entries.ts pins,
 * among them every public name of docs/architecture.md section 2 under its TypeScript name. TypeScript
 * resolves every entry's declarations under `moduleResolution` node10 (through `typesVersions`),
 * node16 and bundler. The decorators entry and the main entry share one metadata store, so a
 * toolset decorated through `scope-tool/decorators` is bound by `createRegistry` from `scope-tool`.
 *
 * A consumer project (issue 15 items 1 and 3, docs/install.md) has a copy of the built package as
 * node_modules/scope-tool, its dependencies and the peers of scope-tool/nest and scope-tool/mcp
 * linked from the repository, and neither typescript, typescript-json-schema nor a provider SDK:
 * every entry loads; a file importing every entry compiles under moduleResolution node10, node16
 * (CommonJS and ESM files), nodenext and bundler; `scope-tool` and `scope-tool/decorators` compile
 * with `skipLibCheck: false`; the CLI names the missing typescript-json-schema, and once it is linked
 * generates the manifest of spec/package/fixtures/commonjs, a plain `module: commonjs` project that
 * tsc compiles and that completes a guarded call; compiled without `experimentalDecorators` it stops
 * at start-up with the error that names the settings.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { standardDecorator } from '../../lib/decorators/messages';
import { ENTRIES } from './entries';

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

/** docs/architecture.md section 2, the seed's index as TypeScript run-time names. */
const SEED_RUNTIME_NAMES = [
  'MAX_INPUT_BYTES',
  'ToolError',
  'hasErrorCode',
  'findError',
  'validateDefinition',
  'encodeDefinition',
  'decodeDefinition',
  'DEFINITION_SCHEMA',
  'Contract',
  'Invocation',
  'Binding',
  'bind',
  'Output',
  'OUTPUT_SCHEMA',
  'InputRequest',
  'INPUT_REQUEST_SCHEMA',
  'Continuation',
  'InputValidatorError',
  'Failure',
  'classifyFailure',
  'CallError',
  'Authorization',
  'Guard',
  'AuthorizationError',
  'capability',
  'Registry',
  'FuncTool',
  'canonicalJson',
];
const LAYER_NAMES = ['dtoInput', 'createRegistry', 'loadManifest', 'prepareToolCall', 'renderOutcome'];
const DECORATOR_NAMES = ['Toolset', 'Tool', 'Authorize'];
/** Type-only names of docs/architecture.md section 2, looked up in the declarations. */
const SEED_TYPE_NAMES = [
  'CallOptions',
  'Tool',
  'Definition',
  'Request',
  'Result',
  'InputValidatingTool',
  'FailureKind',
  'Authorizer',
  'WrappingTool',
  'JsonObject',
];

const SMOKE = `
  const { Toolset, Tool, Authorize } = D;
  class Tools { ping() { return 'pong'; } }
  Reflect.defineMetadata('design:paramtypes', [], Tools.prototype, 'ping'); // what tsc emits for ping()
  Tool({ name: 'ping' })(Tools.prototype, 'ping', Object.getOwnPropertyDescriptor(Tools.prototype, 'ping'));
  Authorize((authorization) => authorization.definition().name === 'ping')(Tools);
  Toolset()(Tools);
  const manifest = { version: 1, tools: [{ name: 'ping',
    definition: { name: 'ping', input_schema: { type: 'object', properties: {}, additionalProperties: false } },
    source: { file: 'x.ts', class: 'Tools', method: 'ping', input: null }, fingerprint: 'sha256:0', warnings: [] }] };
  const registry = M.createRegistry({ manifest, toolsets: [new Tools()] });
  const binding = registry.resolve('ping');
  binding.call(binding.contract.prepare({ name: 'ping', arguments: ' ' })).then((r) => console.log(r.output.asText()));
`;

/**
 * Runs `npm run build`: on a tree `npm test` has type-checked, the incremental check finds nothing
 * changed and tsup rolls the declarations up from build/types/ (tsconfig.types.json), about 13 s.
 */
function buildDist(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
}

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

describe('the built package (dist/)', () => {
  beforeAll(buildDist, 120_000);

  it('writes CommonJS, ESM and declarations for every entry, and the CLI', () => {
    const files = ENTRIES.flatMap(({ dist }) => ['.js', '.mjs', '.d.ts', '.d.mts'].map((ext) => `${dist}${ext}`));
    expect(files.filter((file) => !fs.existsSync(path.join(DIST, file)))).toEqual([]);
    expect(fs.existsSync(path.join(DIST, 'cli.js'))).toBe(true);
  });

  it('exports exactly the pinned run-time names from every entry, in CommonJS and ESM', () => {
    const load = ENTRIES.map(({ dist }) => dist);
    const cjs = JSON.parse(
      node([
        '-e',
        `console.log(JSON.stringify(${JSON.stringify(load)}.map((d) => Object.keys(require('./dist/' + d + '.js')).sort())))`,
      ]),
    ) as string[][];
    const esm = JSON.parse(
      node([
        '--input-type=module',
        '-e',
        `const out = []; for (const d of ${JSON.stringify(load)}) out.push(Object.keys(await import('./dist/' + d + '.mjs')).sort()); console.log(JSON.stringify(out));`,
      ]),
    ) as string[][];
    ENTRIES.forEach(({ specifier, values }, i) => {
      expect({ specifier, names: cjs[i] }).toEqual({ specifier, names: values });
      expect({ specifier, names: esm[i] }).toEqual({ specifier, names: values });
    });
  });

  it('resolves every entry to its declarations under moduleResolution node10, node16 and bundler', () => {
    // A consumer outside the repository with the package installed as node_modules/scope-tool.
    const consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-consumer-'));
    try {
      fs.mkdirSync(path.join(consumer, 'node_modules'));
      fs.symlinkSync(ROOT, path.join(consumer, 'node_modules', 'scope-tool'), 'dir');
      const from = path.join(consumer, 'index.ts');
      const resolved = (specifier: string, options: ts.CompilerOptions, mode?: ts.ResolutionMode) => {
        const file = ts.resolveModuleName(specifier, from, options, ts.sys, undefined, undefined, mode).resolvedModule
          ?.resolvedFileName;
        return file === undefined ? undefined : path.relative(ROOT, fs.realpathSync(file)).split(path.sep).join('/');
      };
      const node10 = { moduleResolution: ts.ModuleResolutionKind.Node10 };
      const node16 = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };
      const bundler = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
      for (const { specifier, dist } of ENTRIES) {
        expect([specifier, resolved(specifier, node10)]).toEqual([specifier, `dist/${dist}.d.ts`]);
        expect([specifier, resolved(specifier, node16, ts.ModuleKind.CommonJS)]).toEqual([
          specifier,
          `dist/${dist}.d.ts`,
        ]);
        expect([specifier, resolved(specifier, node16, ts.ModuleKind.ESNext)]).toEqual([
          specifier,
          `dist/${dist}.d.mts`,
        ]);
        expect([specifier, resolved(specifier, bundler)]).toEqual([specifier, `dist/${dist}.d.mts`]);
      }
    } finally {
      fs.rmSync(consumer, { recursive: true, force: true });
    }
  });

  it('exports every run-time name of the seed index from CommonJS and ESM', () => {
    const names = [...SEED_RUNTIME_NAMES, ...LAYER_NAMES];
    const missing = (exported: string[]) => names.filter((n) => !exported.includes(n));
    const cjs = JSON.parse(
      node(['-e', `console.log(JSON.stringify(Object.keys(require('./dist/index.js'))))`]),
    ) as string[];
    const esm = JSON.parse(
      node([
        '--input-type=module',
        '-e',
        `import * as m from './dist/index.mjs'; console.log(JSON.stringify(Object.keys(m)))`,
      ]),
    ) as string[];
    expect(missing(cjs)).toEqual([]);
    expect(missing(esm)).toEqual([]);
    const decorators = JSON.parse(
      node(['-e', `console.log(JSON.stringify(Object.keys(require('./dist/decorators.js'))))`]),
    ) as string[];
    expect(DECORATOR_NAMES.filter((n) => !decorators.includes(n))).toEqual([]);
  });

  it('declares every type-only name of the seed index', () => {
    const declarations = fs
      .readdirSync(DIST)
      .filter((f) => f.endsWith('.d.ts'))
      .map((f) => fs.readFileSync(path.join(DIST, f), 'utf8'))
      .join('\n');
    const index = fs.readFileSync(path.join(DIST, 'index.d.ts'), 'utf8');
    for (const name of SEED_TYPE_NAMES) {
      expect(declarations).toMatch(new RegExp(`(interface|type|class) ${name}\\b`));
      expect(index).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('binds a toolset decorated through scope-tool/decorators with createRegistry from scope-tool (CommonJS)', () => {
    const out = node([
      '-e',
      `const M = require('./dist/index.js'); const D = require('./dist/decorators.js');${SMOKE}`,
    ]);
    expect(out).toBe('pong');
  });

  it('binds a toolset decorated through scope-tool/decorators with createRegistry from scope-tool (ESM)', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import * as M from './dist/index.mjs'; import * as D from './dist/decorators.mjs';${SMOKE}`,
    ]);
    expect(out).toBe('pong');
  });

  it('resolves the package by name through its exports map', () => {
    const out = node([
      '-e',
      `console.log(typeof require('scope-tool').Registry, typeof require('scope-tool/decorators').Tool, typeof require('scope-tool/openai').openAIChatTools, typeof require('scope-tool/anthropic').anthropicTools, typeof require('scope-tool/gemini').geminiTools)`,
    ]);
    expect(out).toBe('function function function function function');
  });
});

/** Resolves once `done()` holds, looking again at each output of `child`; rejects if it exits first. */
function until(child: ReturnType<typeof spawn>, done: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (done()) {
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        child.off('exit', exited);
        resolve();
      }
    };
    const exited = (code: number | null) => reject(new Error(`serve:mcp exited (${code}) before it was ready`));
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

// An MCP client runs the server as a process and reads stdout as protocol from its first byte: the
// build serve:mcp runs first writes to stderr (npm's own banner needs `npm run --silent`).
describe('npm run --silent serve:mcp', () => {
  it('writes nothing to stdout until a request, then a JSON-RPC response', async () => {
    const child = spawn('npm', ['run', '--silent', 'serve:mcp'], { cwd: ROOT, detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    try {
      await until(child, () => err.includes('serve-mcp: serving') || out !== '');
      expect(out).toBe('');
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec', version: '0' } },
      };
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      await until(child, () => out.includes('\n'));
      expect(JSON.parse(out.slice(0, out.indexOf('\n')))).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
    } finally {
      child.stdin.end();
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
  }, 600_000);
});

/** What the consumer installs besides scope-tool: the peers scope-tool/nest and scope-tool/mcp load, and Node's types. */
const CONSUMER_PEERS = [
  'class-validator',
  'class-transformer',
  '@nestjs/common',
  '@nestjs/core',
  'rxjs',
  '@modelcontextprotocol/sdk',
  'zod',
  '@types/node',
];
/** What the consumer does not install: the generator's packages and the provider SDKs. */
const ABSENT = ['typescript', 'typescript-json-schema', 'openai', '@anthropic-ai/sdk', '@google/genai'];

describe('a consumer project that installs scope-tool', () => {
  let consumer: string;
  /** Source files parsed once for all the programs below (the package's declarations are large). */
  const parsed = new Map<string, ts.SourceFile | undefined>();

  const link = (name: string) => {
    const to = path.join(consumer, 'node_modules', name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), to, 'dir');
  };

  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, args, { cwd: consumer, encoding: 'utf8', timeout: 120_000 });
    return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
  };

  /** Compiles `roots` (relative to the consumer); the diagnostics as `file: TSnnnn`, and emits when `emit`. */
  const compile = (roots: string[], options: ts.CompilerOptions, emit = false): string[] => {
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language, ...rest) => {
      const mode =
        typeof language === 'object' ? `${language.languageVersion}:${language.impliedNodeFormat}` : language;
      const key = `${file}\0${mode}`;
      if (!parsed.has(key)) parsed.set(key, read(file, language, ...rest));
      return parsed.get(key);
    };
    const program = ts.createProgram(
      roots.map((root) => path.join(consumer, root)),
      options,
      host,
    );
    const diagnostics = [...ts.getPreEmitDiagnostics(program)];
    if (emit) diagnostics.push(...program.emit().diagnostics);
    return diagnostics.map(
      (d) =>
        `${d.file === undefined ? '' : path.relative(consumer, d.file.fileName)}: TS${d.code} ` +
        ts.flattenDiagnosticMessageText(d.messageText, ' '),
    );
  };

  beforeAll(() => {
    consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-install-'));
    const pkg = path.join(consumer, 'node_modules', 'scope-tool');
    fs.mkdirSync(pkg, { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    // A copy, not a link: resolved from a link's real path, the repository's node_modules would be found.
    fs.cpSync(DIST, path.join(pkg, 'dist'), { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of [...Object.keys(manifest.dependencies), ...CONSUMER_PEERS]) link(name);
    fs.cpSync(path.join(__dirname, 'fixtures', 'commonjs'), consumer, { recursive: true });
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  });

  afterAll(() => {
    if (consumer !== undefined) fs.rmSync(consumer, { recursive: true, force: true });
  });

  it('loads every entry, CommonJS and ESM, without typescript, typescript-json-schema or a provider SDK', () => {
    const specifiers = ENTRIES.map(({ specifier }) => specifier);
    const absent = run([
      '-e',
      `console.log(JSON.stringify(${JSON.stringify(ABSENT)}.filter((n) => { try { require.resolve(n); return false; } catch { return true; } })))`,
    ]);
    expect(JSON.parse(absent.stdout)).toEqual(ABSENT);
    const cjs = run([
      '-e',
      `console.log(JSON.stringify(${JSON.stringify(specifiers)}.map((s) => Object.keys(require(s)).sort())))`,
    ]);
    expect({ status: cjs.status, stderr: cjs.stderr }).toEqual({ status: 0, stderr: '' });
    const esm = run([
      '--input-type=module',
      '-e',
      `const out = []; for (const s of ${JSON.stringify(specifiers)}) out.push(Object.keys(await import(s)).sort()); console.log(JSON.stringify(out));`,
    ]);
    expect({ status: esm.status, stderr: esm.stderr }).toEqual({ status: 0, stderr: '' });
    const values = ENTRIES.map(({ values: names }) => names);
    expect(JSON.parse(cjs.stdout)).toEqual(values);
    expect(JSON.parse(esm.stdout)).toEqual(values);
  });

  it('compiles a file importing every entry under moduleResolution node10, node16, nodenext and bundler', () => {
    // Every run-time name through a namespace import (type-only names: 'declares every type-only name').
    const source = ENTRIES.map(
      ({ specifier, values }, i) =>
        `import * as entry${i} from '${specifier}';\n` +
        `export const names${i} = [${values.map((name) => `entry${i}.${name}`).join(', ')}];\n`,
    ).join('');
    fs.writeFileSync(path.join(consumer, 'entries.ts'), source);
    fs.writeFileSync(path.join(consumer, 'entries.mts'), source);
    const common = { target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true, types: [] };
    const kinds = {
      node10: [{ module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }, ['entries.ts']],
      node16: [
        { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
        ['entries.ts', 'entries.mts'],
      ],
      nodenext: [
        { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
        ['entries.ts', 'entries.mts'],
      ],
      bundler: [{ module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }, ['entries.ts']],
    } as const;
    for (const [kind, [options, roots]] of Object.entries(kinds)) {
      expect([kind, compile([...roots], { ...common, ...options })]).toEqual([kind, []]);
    }
  });

  it('compiles scope-tool and scope-tool/decorators with skipLibCheck false and no provider SDK installed', () => {
    const source =
      `import { createRegistry, loadManifest, Registry, type Definition, type Tool as ToolType } from 'scope-tool';\n` +
      `import { Authorize, Tool, Toolset } from 'scope-tool/decorators';\n` +
      `export const values = [createRegistry, loadManifest, Registry, Authorize, Tool, Toolset];\n` +
      `export type Types = [Definition, ToolType];\n`;
    fs.writeFileSync(path.join(consumer, 'core.ts'), source);
    fs.writeFileSync(path.join(consumer, 'core.mts'), source);
    const options = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      // TypeScript's own lib files are not the package's: checking them only costs time.
      skipDefaultLibCheck: true,
      types: [],
    };
    expect(compile(['core.ts', 'core.mts'], options)).toEqual([]);
  });

  it('uses the compiler settings docs/install.md gives in its CommonJS project', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'install.md'), 'utf8');
    const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    const documented = (JSON.parse(block ?? '{}') as { compilerOptions?: object }).compilerOptions;
    const fixture = JSON.parse(
      fs.readFileSync(path.join(__dirname, 'fixtures', 'commonjs', 'tsconfig.json'), 'utf8'),
    ) as { compilerOptions: object };
    expect(documented).toEqual(expect.objectContaining({ experimentalDecorators: true, emitDecoratorMetadata: true }));
    expect(fixture.compilerOptions).toEqual(expect.objectContaining(documented));
  });

  it('generates, compiles and runs a plain CommonJS project; the CLI names typescript-json-schema when missing', () => {
    const cli = path.join('node_modules', 'scope-tool', 'dist', 'cli.js');
    const missing = run([cli, 'generate']);
    expect({ status: missing.status, stderr: missing.stderr }).toEqual({
      status: 1,
      stderr: expect.stringMatching(/^scope-tool: ERR_GENERATOR_NOT_INSTALLED: .*typescript-json-schema@~0\.68\.0\n$/),
    });
    link('typescript-json-schema');
    const generated = run([cli, 'generate']);
    expect({ status: generated.status, stderr: generated.stderr }).toEqual({ status: 0, stderr: '' });
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(consumer, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, ' '));
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json did not parse');
    expect(compile(['src/main.ts'], config.options, true)).toEqual([]);
    expect(JSON.parse(run([path.join('dist', 'main.js')]).stdout)).toEqual({
      output: 'created "Crash on start" (CreateIssueInput)',
      denied: 'rejected',
      ping: 'pong',
    });
  });

  it('stops at start-up, naming the settings, when compiled without experimentalDecorators', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(consumer, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    );
    if (config === undefined) throw new Error('tsconfig.json did not parse');
    const options = {
      ...config.options,
      experimentalDecorators: false,
      emitDecoratorMetadata: false,
      outDir: path.join(consumer, 'build-standard'),
    };
    // tsc reports the decorators' signatures (TS1240, TS1241) and still emits; tsx and esbuild emit the same calls.
    const codes = new Set(compile(['src/main.ts'], options, true).map((d) => /TS\d+/.exec(d)?.[0]));
    expect([...codes].sort()).toEqual(['TS1240', 'TS1241', 'TS1270']);
    expect(JSON.parse(run([path.join('build-standard', 'main.js')]).stdout)).toEqual({
      code: 'ERR_INVALID_TOOL',
      message: standardDecorator('@Tool()', 'ping').message,
    });
  });
});
