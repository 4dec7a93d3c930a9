/**
 * Scale: a registry of many FuncTools (distinct input schemas, so every one is compiled), its
 * `definitions()` and `resolve()`; and the cold start of `createRegistry` from a manifest file of
 * many decorated tools (a toolset class built programmatically, one `@Tool` method per entry).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { FuncTool, Registry } from '../../lib/protocol';
import type { JsonObject, JsonValue, Tool as ProtocolTool } from '../../lib/protocol';
import { createRegistry } from '../../lib/container';
import type { Manifest } from '../../lib/container';
import { Tool, Toolset } from '../../lib/decorators';

/** The input of every generated tool. */
export class QueryDto {
  @IsString() @Length(1, 200) query!: string;
  @IsInt() @Min(1) @Max(50) limit!: number;
}

/** The schema of generated tool `i`: distinct per tool (and per `salt`), so nothing is shared by cache. */
export function querySchema(i: number, salt = ''): JsonObject {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 200, description: `What tool ${i}${salt} looks up.` },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many results.' },
    },
    required: ['query', 'limit'],
    additionalProperties: false,
  };
}

/** `count` FuncTools `tool_0` ... with distinct schemas (not yet bound). */
export function manyFuncTools(count: number, salt = ''): ProtocolTool[] {
  const tools: ProtocolTool[] = [];
  for (let i = 0; i < count; i++) {
    const inputSchema = querySchema(i, salt);
    tools.push(
      FuncTool.create(
        { name: `tool_${i}`, description: `Tool number ${i}.`, inputSchema, decode: (v: JsonValue) => v },
        () => i,
      ),
    );
  }
  return tools;
}

/** Registers `count` tools in one batch; returns the registry. */
export function registerMany(count: number, salt = ''): Registry {
  const registry = new Registry();
  registry.register(...manyFuncTools(count, salt));
  return registry;
}

/** A `@Toolset` class with `count` `@Tool` methods `m0` ... taking QueryDto, built as the compiler would. */
export function manyToolsetClass(count: number): new () => object {
  class Generated {}
  const proto = Generated.prototype as unknown as Record<string, unknown>;
  for (let i = 0; i < count; i++) {
    const key = `m${i}`;
    proto[key] = function (this: unknown, input: QueryDto): string {
      return `${i}:${input.query}`;
    };
    Reflect.defineMetadata('design:paramtypes', [QueryDto], proto, key);
    const descriptor = Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor;
    Tool({ name: `tool_${i}` })(proto, key, descriptor);
  }
  Toolset()(Generated);
  return Generated;
}

/** The manifest of manyToolsetClass(count); `salt` makes every schema new to the compile cache. */
export function manyManifest(count: number, salt: string): Manifest {
  const tools = [];
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    tools.push({
      name,
      definition: { name, description: `Tool number ${i}.`, input_schema: querySchema(i, salt) },
      source: { file: 'bench/workloads/scale.ts', class: 'Generated', method: `m${i}`, input: 'QueryDto' },
      fingerprint: 'sha256:0',
      warnings: [],
    });
  }
  return { version: 1, tools };
}

/** Writes the manifest to a temporary file; returns its path and a cleanup. */
export function manifestFile(manifest: Manifest): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'scope-tool-bench-'));
  const path = join(dir, 'tools.manifest.json');
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Cold start: createRegistry reading the manifest file and binding every tool of `toolset`. */
export function coldStart(path: string, toolset: new () => object): Registry {
  return createRegistry({ manifest: path, toolsets: [toolset] });
}
