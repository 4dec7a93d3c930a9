/**
 * Per-call workloads of scope-tool and its floors, from the raw JSON arguments text to the
 * completed result: `JSON.parse` + call; `JSON.parse` + compiled Ajv + call; the scope-tool
 * FuncTool (resolve, `Contract.prepare`, `Binding.call` through an allow-all Guard); the decorator
 * tool built by `createRegistry` (class-validator DTO, Guard from `@Authorize`); and the raw
 * class-transformer `plainToInstance` + class-validator `validateSync` floor.
 */
import Ajv2020 from 'ajv/dist/2020';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FuncTool, Guard, Registry } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import { createRegistry } from '../../lib/container';
import type { BenchTool } from '../fixtures';
import { AddDto, allowAll, BENCH_MANIFEST, BenchTools, NoteDto } from '../note-dto';
import { workload } from '../workload';
import type { Workload } from '../workload';

/** The strict class-validator options scope-tool decodes with (docs/architecture.md section 4). */
const STRICT = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/** The ratio group of a per-call row. */
export function callGroup(tool: BenchTool): string {
  return `call/${tool.name}`;
}

/** A registry of the bench tools as FuncTools (JSON Schema input, identity decoder), each behind an allow-all Guard. */
export function funcToolRegistry(tools: readonly BenchTool[]): Registry {
  return new Registry(
    ...tools.map((t) => {
      const fn = t.fn as (input: unknown) => object;
      const inner = FuncTool.create(
        { name: t.name, description: t.description, inputSchema: t.schema, decode: (v: JsonValue) => v },
        (input) => fn(input),
      );
      return new Guard({ tool: inner, authorizer: allowAll });
    }),
  );
}

/** A registry of the decorator tools, from BENCH_MANIFEST. */
export function decoratorRegistry(): Registry {
  return createRegistry({ manifest: BENCH_MANIFEST, toolsets: [new BenchTools()] });
}

/** Runs one call through a registry: resolve, prepare, call. */
export async function callThrough(registry: Registry, name: string, args: string): Promise<unknown> {
  const binding = registry.resolve(name);
  if (binding === undefined) throw new Error(`bench: tool ${name} is not registered`);
  return binding.call(binding.contract.prepare({ name, arguments: args }));
}

/** The floor rows and the scope-tool rows of one tool. */
export function callWorkloads(tool: BenchTool): Workload[] {
  const group = callGroup(tool);
  const fn = tool.fn as (input: unknown) => object;
  const args = tool.args;
  const validate = new Ajv2020({ strict: true }).compile(tool.schema);
  const funcs = funcToolRegistry([tool]);
  const decorated = decoratorRegistry();
  const dto: new () => object = tool.name === 'add' ? AddDto : NoteDto;
  return [
    workload(group, 'floor: JSON.parse + call', 'floor', () => fn(JSON.parse(args))),
    workload(group, 'floor: JSON.parse + Ajv + call', 'reference', () => {
      const value: unknown = JSON.parse(args);
      if (!validate(value)) throw new Error(`bench: Ajv refused ${args}`);
      return fn(value);
    }),
    // The same, awaited in an async function as every scope-tool row is: what a promise-returning
    // call costs under this harness, with no work of scope-tool's.
    workload(group, 'floor, async: JSON.parse + Ajv + call, awaited', 'reference', async () => {
      const value: unknown = JSON.parse(args);
      if (!validate(value)) throw new Error(`bench: Ajv refused ${args}`);
      return await Promise.resolve(fn(value));
    }),
    workload(group, 'scope-tool FuncTool (Guard)', 'scope', () => callThrough(funcs, tool.name, args)),
    workload(group, 'floor: plainToInstance + validateSync', 'reference', () => {
      const instance = plainToInstance(dto, JSON.parse(args) as object);
      const errors = validateSync(instance, STRICT);
      if (errors.length > 0) throw new Error(`bench: class-validator refused ${args}`);
      return fn(instance);
    }),
    workload(group, 'scope-tool decorator DTO (Guard)', 'reference', () => callThrough(decorated, tool.name, args)),
  ];
}
