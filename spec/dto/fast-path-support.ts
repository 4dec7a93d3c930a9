/**
 * Compares the fast path of a proven DTO (lib/dto/fast.ts) with the class-validator path it
 * replaces, on arguments generated from an input schema and mutated around every constraint
 * (spec/dto/fast-path.spec.ts, spec/schema/fast-path-zoo.spec.ts).
 */
import fc from 'fast-check';
import type { ManifestTool } from '../../lib/container';
import { compileSchemaValue, ToolError, type JsonObject, type JsonValue } from '../../lib/protocol';
import { dtoInputOf } from '../../lib/dto/dto-input';
import type { DtoInput } from '../../lib/dto';
import { arbitraryOf } from '../schema/zoo/arbitrary';
import { mutantsOf } from '../schema/zoo/mutations';

export type Dto = new () => object;

/** Both decoders of one DTO and its schema. */
export interface Pair {
  readonly name: string;
  readonly schema: JsonObject;
  readonly fast: DtoInput<object>;
  readonly slow: DtoInput<object>;
}

/** The pair of a manifest tool whose input class is in `classes`. */
export function pairOf(tool: ManifestTool, classes: ReadonlyMap<string, unknown>): Pair {
  const cls = classes.get(tool.source.input ?? '');
  if (typeof cls !== 'function') throw new Error(`class ${tool.source.input} is not exported`);
  return pairFor(`${tool.source.input} (${tool.name})`, cls as Dto, tool.definition.input_schema);
}

/** Both decoders of `dto` against `schema`: the fast paths on, and off (the class-transformer path). */
export function pairFor(name: string, dto: Dto, schema: JsonObject): Pair {
  return {
    name,
    schema,
    fast: dtoInputOf(dto, { inputSchema: schema }, true),
    slow: dtoInputOf(dto, { inputSchema: schema }, false),
  };
}

/** An instance as the comparison sees it: class, own members in order, nested values, Dates by time. */
export function shape(value: unknown): unknown {
  if (value instanceof Date) return { date: value.getTime() };
  if (Array.isArray(value)) return { array: value.map(shape) };
  if (value === null || typeof value !== 'object') return { value: Object.is(value, -0) ? '-0' : value };
  const proto: unknown = Object.getPrototypeOf(value);
  const cls = proto === null ? 'null' : (proto as { constructor?: { name?: string } }).constructor?.name;
  return { class: cls, own: Object.keys(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]) };
}

/** A decoder's outcome: the instance and its encoding, or the refusal by codes and places. */
export function outcome(input: DtoInput<object>, value: JsonValue): unknown {
  try {
    const instance = input.decode(value);
    return { accepted: shape(instance), encoded: input.encode(instance) };
  } catch (e) {
    if (!(e instanceof ToolError)) return { crashed: String(e) };
    const issues = (e as ToolError & { issues?: readonly { code: string; path: unknown; constraint?: string }[] })
      .issues;
    return {
      refused: e.code,
      issues: (issues ?? []).map((i) => ({ code: i.code, path: i.path, constraint: i.constraint })),
    };
  }
}

/** The generated and mutated arguments of one schema: [label, JSON text]. */
function argumentsOf(schema: JsonObject, runs: number): [string, string][] {
  const compiled = compileSchemaValue(schema);
  const arb = arbitraryOf(schema, schema).filter((v) => compiled.validate(v as JsonValue).length === 0);
  const out: [string, string][] = fc
    .sample(arb, { seed: 20261202, numRuns: runs })
    .map((v, i) => [`generated #${i}`, JSON.stringify(v)]);
  for (const value of fc.sample(arb, { seed: 16, numRuns: 2 }))
    for (const m of mutantsOf(schema, value)) out.push([m.label, m.json]);
  return out;
}

/** Compares both decoders on every argument; returns the disagreements and the counts. */
export function compare(pair: Pair, runs = 30): { found: string[]; accepted: number; refused: number } {
  const found: string[] = [];
  let accepted = 0;
  let refused = 0;
  for (const [label, json] of argumentsOf(pair.schema, runs)) {
    const value = JSON.parse(json) as JsonValue;
    const fast = outcome(pair.fast, value);
    const slow = outcome(pair.slow, JSON.parse(json) as JsonValue);
    if ('accepted' in (slow as object)) accepted++;
    else refused++;
    if (JSON.stringify(fast) !== JSON.stringify(slow))
      found.push(`${pair.name}, ${label}: ${json}\n  fast: ${JSON.stringify(fast)}\n  slow: ${JSON.stringify(slow)}`);
  }
  return { found, accepted, refused };
}
