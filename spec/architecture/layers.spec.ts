/**
 * docs/architecture.md section 1: who may import whom. Reads the import specifiers of every file under lib/
 * (static imports, re-exports, dynamic import() and require()) and checks them against the layer rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const LIB = path.join(__dirname, '..', '..', 'lib');

interface ImportRecord {
  file: string; // relative to lib/, with forward slashes
  specifier: string;
  typeOnly: boolean;
  target: string; // a lib layer name ("protocol", ...) or the package name ("ajv", "node:fs")
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

function packageName(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function readImports(file: string): ImportRecord[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const records: ImportRecord[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    let target: string;
    if (specifier.startsWith('.')) {
      const rel = path.relative(LIB, path.resolve(path.dirname(file), specifier));
      const parts = rel.split(path.sep);
      if (rel.startsWith('..')) target = `(outside lib: ${rel})`;
      else if (parts.length > 1) target = parts[0];
      else
        target = fs.existsSync(path.join(LIB, rel)) && fs.statSync(path.join(LIB, rel)).isDirectory() ? rel : '(entry)';
    } else {
      target = packageName(specifier);
    }
    records.push({ file: path.relative(LIB, file).split(path.sep).join('/'), specifier, typeOnly, target });
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? !!node.importClause?.isTypeOnly : node.isTypeOnly;
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        add((node.arguments[0] as ts.StringLiteral).text, false);
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return records;
}

const imports = listFiles(LIB).flatMap(readImports);
const layerFiles = (layer: string) => imports.filter((r) => r.file.startsWith(`${layer}/`));
const violations = (records: ImportRecord[], allowed: (r: ImportRecord) => boolean) =>
  records.filter((r) => !allowed(r)).map((r) => `${r.file} imports ${JSON.stringify(r.specifier)}`);

describe('layer rules of docs/architecture.md section 1', () => {
  it('reads imports from every layer that exists', () => {
    expect(imports.length).toBeGreaterThan(0);
    expect(layerFiles('protocol').length).toBeGreaterThan(0);
  });

  it('lib/protocol imports only itself, ajv, ajv-formats and re2js', () => {
    const allowed = new Set(['protocol', 'ajv', 'ajv-formats', 're2js']);
    expect(violations(layerFiles('protocol'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/dto imports only protocol and the DTO libraries', () => {
    const allowed = new Set(['dto', 'protocol', 'class-validator', 'class-transformer', 'reflect-metadata']);
    expect(violations(layerFiles('dto'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/decorators imports only protocol, dto and reflect-metadata', () => {
    const allowed = new Set(['decorators', 'protocol', 'dto', 'reflect-metadata']);
    expect(violations(layerFiles('decorators'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/container imports only decorators, dto, protocol and run-time libraries', () => {
    const allowed = new Set([
      'container',
      'decorators',
      'dto',
      'protocol',
      'class-validator',
      'class-transformer',
      'reflect-metadata',
      'node:fs',
      'node:path',
    ]);
    expect(violations(layerFiles('container'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/providers imports only protocol, and provider SDKs for types only', () => {
    const sdk = new Set(['openai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', '@google/genai']);
    expect(
      violations(
        layerFiles('providers'),
        (r) => r.target === 'providers' || r.target === 'protocol' || (sdk.has(r.target) && r.typeOnly),
      ),
    ).toEqual([]);
  });

  it('lib/nest builds on the container and NestJS only', () => {
    const allowed = new Set([
      'nest',
      'container',
      'decorators',
      'dto',
      'protocol',
      'reflect-metadata',
      'rxjs',
      '@nestjs/common',
      '@nestjs/core',
    ]);
    expect(violations(layerFiles('nest'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/mcp builds on protocol, providers and the MCP SDK only', () => {
    const allowed = new Set([
      'mcp',
      'protocol',
      'providers',
      'tracing',
      '@modelcontextprotocol/sdk',
      'zod',
      'node:crypto',
      'node:http',
      'node:events',
      'node:net',
    ]);
    expect(violations(layerFiles('mcp'), (r) => allowed.has(r.target))).toEqual([]);
  });

  it('lib/runtime builds on protocol and providers; store drivers only in their store files', () => {
    const allowed = new Set(['runtime', 'protocol', 'providers', 'tracing', 'node:crypto']);
    const sdk = new Set(['openai', '@anthropic-ai/sdk', '@google/genai']);
    const drivers: Record<string, string> = {
      'better-sqlite3': 'runtime/stores/sqlite.ts',
      pg: 'runtime/stores/postgres.ts',
    };
    expect(
      violations(
        layerFiles('runtime'),
        (r) =>
          allowed.has(r.target) ||
          (sdk.has(r.target) && r.typeOnly) ||
          (drivers[r.target] !== undefined && drivers[r.target] === r.file),
      ),
    ).toEqual([]);
  });

  it('lib/tracing imports only protocol and @opentelemetry/api', () => {
    const allowed = new Set(['tracing', 'protocol']);
    const api = (r: ImportRecord) =>
      r.target === '@opentelemetry/api' && (r.typeOnly || r.file === 'tracing/tracing.ts');
    expect(violations(layerFiles('tracing'), (r) => allowed.has(r.target) || api(r))).toEqual([]);
  });

  it('optional peers load lazily: require() inside a function, never a value import', () => {
    const lazy: string[] = [];
    for (const [driver, file] of [
      ['better-sqlite3', 'runtime/stores/sqlite.ts'],
      ['pg', 'runtime/stores/postgres.ts'],
      ['@opentelemetry/api', 'tracing/tracing.ts'],
    ]) {
      const full = path.join(LIB, file);
      const records = imports.filter((r) => r.file === file && r.target === driver);
      expect(records.length).toBeGreaterThan(0);
      const source = ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node, inFunction: boolean) => {
        if (
          ts.isImportDeclaration(node) &&
          ts.isStringLiteral(node.moduleSpecifier) &&
          node.moduleSpecifier.text === driver
        ) {
          if (!node.importClause?.isTypeOnly) lazy.push(`${file}: value import of ${driver}`);
        }
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'require' &&
          node.arguments.length === 1 &&
          ts.isStringLiteral(node.arguments[0]) &&
          node.arguments[0].text === driver &&
          !inFunction
        ) {
          lazy.push(`${file}: require('${driver}') at module level`);
        }
        ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionLike(node)));
      };
      visit(source, false);
    }
    expect(lazy).toEqual([]);
  });

  it('the main entry never loads an optional integration (NestJS, MCP)', () => {
    const entry = imports.filter(
      (r) =>
        !r.file.startsWith('nest/') &&
        !r.file.startsWith('mcp/') &&
        !r.file.startsWith('cli/') &&
        !r.file.startsWith('schema/'),
    );
    expect(
      violations(
        entry,
        (r) =>
          r.target !== 'nest' &&
          r.target !== 'mcp' &&
          !r.target.startsWith('@nestjs/') &&
          (r.target !== '@modelcontextprotocol/sdk' || r.typeOnly),
      ),
    ).toEqual([]);
  });

  it('run-time code never imports lib/schema (build time) or lib/cli', () => {
    const runtime = imports.filter((r) => !r.file.startsWith('schema/') && !r.file.startsWith('cli/'));
    expect(
      violations(
        runtime,
        (r) =>
          r.target !== 'schema' &&
          r.target !== 'cli' &&
          r.target !== 'typescript' &&
          r.target !== 'typescript-json-schema',
      ),
    ).toEqual([]);
  });

  it('nothing imports lib/cli or samples', () => {
    const notCli = imports.filter((r) => !r.file.startsWith('cli/'));
    expect(violations(notCli, (r) => r.target !== 'cli' && !r.specifier.includes('samples'))).toEqual([]);
  });
});
