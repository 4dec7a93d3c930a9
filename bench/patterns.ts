/**
 * Pattern probe (issue 11 item 1): `prepare` time of tools whose input carries a pattern, on model-sent
 * strings built to make a backtracking engine explode, at growing sizes, and the growth per doubling
 * of the size (2.0 is linear; a JavaScript RegExp takes seconds at 40 KB on the first and at 42 bytes
 * on the second). Patterns run on RE2 (lib/protocol/regex.ts), in the schema and in the decoder.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { IsString, Matches } from 'class-validator';
import { dtoInput } from '../lib/dto';
import { bind, FuncTool, ToolError, type Contract, type JsonValue } from '../lib/protocol';
import type { Probe } from './report';

/** The e-mail pattern docs/guarantees.md cites, and the nested quantifier of the issue. */
export const EMAIL_PATTERN = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
export const NESTED_PATTERN = '^([a-z0-9]+-?)+$';

/** String sizes probed, in bytes (the largest leaves room for the JSON around it under MAX_INPUT_BYTES). */
export const PATTERN_SIZES: readonly number[] = [64 * 1024, 256 * 1024, 1024 * 1024 - 64];

/** Input of the DTO tool: the decoder's `@Matches` (no schema given, so the decoder alone decides). */
export class SlugDto {
  @IsString() @Matches(new RegExp(NESTED_PATTERN)) slug!: string;
}

/** One probed tool: its contract, the member, and the adversarial string of a size. */
interface PatternCase {
  readonly id: string;
  readonly label: string;
  readonly contract: Contract;
  readonly member: string;
  readonly adversarial: (bytes: number) => string;
  /** What must refuse it: the schema keyword `pattern` or the decoder constraint `matches`. */
  readonly refusedBy: string;
}

/** The probed tools: a FuncTool with the e-mail schema pattern, a DTO tool with the nested @Matches. */
export function patternCases(): PatternCase[] {
  const schema = {
    type: 'object',
    properties: { email: { type: 'string', pattern: EMAIL_PATTERN } },
    required: ['email'],
    additionalProperties: false,
  };
  const func = FuncTool.create({ name: 'email_probe', inputSchema: schema, decode: (v: JsonValue) => v }, () => 'ran');
  const slug = dtoInput(SlugDto);
  const dto = FuncTool.create({ name: 'slug_probe', inputSchema: slug.inputSchema, decode: slug.decode }, () => 'ran');
  return [
    {
      id: 'email',
      label: `FuncTool, schema pattern ${EMAIL_PATTERN}, "a@" + dots + "@"`,
      contract: bind(func).contract,
      member: 'email',
      adversarial: (bytes) => `a@${'.'.repeat(bytes - 3)}@`,
      refusedBy: 'pattern',
    },
    {
      id: 'nested',
      label: `DTO tool, @Matches(/${NESTED_PATTERN}/), letters + "!"`,
      contract: bind(dto).contract,
      member: 'slug',
      adversarial: (bytes) => `${'a'.repeat(bytes - 1)}!`,
      refusedBy: 'matches',
    },
  ];
}

/**
 * Runs `prepare` of one case on one adversarial string: what refused it (the schema keyword `pattern`
 * or the decoder constraint `matches`), or undefined when it was admitted.
 * @internal exported for spec/bench/patterns.spec.ts
 */
export function refusedBy(c: PatternCase, args: string): string | undefined {
  try {
    c.contract.prepare({ name: c.contract.name, arguments: args });
    return undefined;
  } catch (e) {
    const first = e instanceof ToolError ? e.issues[0] : undefined;
    return first?.keyword ?? first?.constraint ?? 'another refusal';
  }
}

/** The arguments of one case with its adversarial string of `bytes` bytes. */
export function adversarialArguments(c: PatternCase, bytes: number): string {
  return JSON.stringify({ [c.member]: c.adversarial(bytes) });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The median prepare time (ms) per case and size, and the growth per doubling from smallest to largest size. */
export function probePatterns(sizes: readonly number[] = PATTERN_SIZES, reps = 5): Probe[] {
  const probes: Probe[] = [];
  for (const c of patternCases()) {
    const times = sizes.map((bytes) => {
      const args = adversarialArguments(c, bytes);
      const runs: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        const by = refusedBy(c, args);
        runs.push(performance.now() - t0);
        if (by !== c.refusedBy) {
          throw new Error(`bench: ${c.id} at ${bytes} bytes: refused by ${by ?? 'nothing'}, not ${c.refusedBy}`);
        }
      }
      const ms = median(runs);
      const label = `prepare, ${c.label}, ${kib(bytes)}`;
      probes.push({ id: `patterns/${c.id}/${bytes}`, label, value: ms, unit: 'ms' });
      return ms;
    });
    const first = sizes[0] as number;
    const last = sizes[sizes.length - 1] as number;
    const growth = ((times[times.length - 1] as number) / (times[0] as number)) ** (1 / Math.log2(last / first));
    const label = `prepare, ${c.label}: time growth per doubling of the size (2.0 is linear)`;
    probes.push({ id: `patterns/${c.id}/growth`, label, value: growth, unit: 'x' });
  }
  return probes;
}

function kib(bytes: number): string {
  return `${Math.round(bytes / 1024)} KiB`;
}
