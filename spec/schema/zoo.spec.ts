/**
 * Proof that the schema the model is shown and the decoder that admits its arguments are one
 * contract, on the fixture zoo (spec/schema/zoo): for every tool, values generated from the emitted
 * input schema (fast-check, fixed seeds) are accepted by the decoder the container builds
 * (`dtoInput(Dto, { inputSchema })`), and for boundary arguments on both sides of every constraint
 * and mutations, the decoder's verdict equals the schema's. Every disagreement names the DTO, the
 * argument and both verdicts. The decoder must never throw anything but a clean refusal.
 */
import path from 'node:path';
import fc from 'fast-check';
import { generateManifest, type GenerationResult, type ManifestTool } from '../../lib/schema';
import {
  compileSchemaValue,
  ToolError,
  type CompiledSchema,
  type JsonObject,
  type JsonValue,
} from '../../lib/protocol';
import { dtoInput, type DtoInput } from '../../lib/dto';
import { arbitraryOf } from './zoo/arbitrary';
import { mutantsOf } from './zoo/mutations';
import * as booking from './zoo/booking.zoo';
import * as calendar from './zoo/calendar.zoo';
import * as contract from './zoo/contract.zoo';
import * as files from './zoo/files.zoo';
import * as geo from './zoo/geo.zoo';
import * as inventory from './zoo/inventory.zoo';
import * as invoices from './zoo/invoices.zoo';
import * as misc from './zoo/misc.zoo';
import * as search from './zoo/search.zoo';
import * as users from './zoo/users.zoo';

const CLASSES = new Map<string, unknown>(
  [booking, calendar, contract, files, geo, inventory, invoices, misc, search, users].flatMap((m) => Object.entries(m)),
);

// One compiler run for the whole file (seconds): the test table needs the tools at collection time.
const result: GenerationResult = generateManifest({ tsconfig: path.join(__dirname, 'zoo', 'tsconfig.json') });

interface Verdict {
  readonly accepted: boolean;
  readonly detail: string;
}

function schemaVerdict(compiled: CompiledSchema, value: JsonValue): Verdict {
  const issues = compiled.validate(value);
  return {
    accepted: issues.length === 0,
    detail: issues.map((i) => `${JSON.stringify(i.path)} ${i.message}`).join('; '),
  };
}

/** The decoder's verdict; anything but success or a clean ERR_INVALID_INVOCATION refusal is a crash. */
function decoderVerdict(input: DtoInput<object>, value: JsonValue): Verdict & { readonly crashed: boolean } {
  try {
    input.decode(value);
    return { accepted: true, detail: '', crashed: false };
  } catch (e) {
    const clean =
      e instanceof ToolError &&
      e.code === 'ERR_INVALID_INVOCATION' &&
      !/validator or transformer threw/.test(e.message);
    return { accepted: false, detail: e instanceof Error ? e.message : String(e), crashed: !clean };
  }
}

function disagreement(
  tool: ManifestTool,
  label: string,
  json: string,
  s: Verdict,
  d: Verdict & { crashed: boolean },
): string {
  const verdict = (v: Verdict): string => (v.accepted ? 'accepted' : `refused (${v.detail})`);
  return (
    `${tool.source.input} (${tool.name}), ${label}: argument ${json}\n` +
    `  schema: ${verdict(s)}\n  decoder: ${d.crashed ? 'CRASHED: ' : ''}${verdict(d)}`
  );
}

function setUp(tool: ManifestTool): { compiled: CompiledSchema; input: DtoInput<object>; schema: JsonObject } {
  const cls = CLASSES.get(tool.source.input ?? '');
  if (typeof cls !== 'function') throw new Error(`zoo class ${tool.source.input} is not exported`);
  const schema = tool.definition.input_schema;
  return {
    compiled: compileSchemaValue(schema),
    input: dtoInput(cls as new () => object, { inputSchema: schema }),
    schema,
  };
}

describe('the fixture zoo', () => {
  it('generates at least 40 DTOs without errors or warnings', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(new Set(result.manifest.tools.map((t) => t.source.input)).size).toBeGreaterThanOrEqual(40);
  });
});

describe.each(result.manifest.tools.map((t) => [t.name, t] as const))('zoo tool %s', (_name, tool) => {
  const { compiled, input, schema } = setUp(tool);
  const arb = arbitraryOf(schema, schema).filter(
    (v) => compiled.validate(v as JsonValue).length === 0,
  ) as fc.Arbitrary<JsonValue>;

  it('accepts every value generated from its input schema (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(arb, (value) => {
        const json = JSON.stringify(value);
        const parsed = JSON.parse(json) as JsonValue;
        const d = decoderVerdict(input, parsed);
        if (!d.accepted)
          throw new Error(disagreement(tool, 'generated value', json, schemaVerdict(compiled, parsed), d));
      }),
      { seed: 20240501, numRuns: 40 },
    );
  });

  it('gives the schema verdict on boundary arguments on both sides of every constraint and on mutations', () => {
    const found: string[] = [];
    let accepted = 0;
    let refused = 0;
    for (const value of fc.sample(arb, { seed: 7, numRuns: 3 })) {
      for (const m of mutantsOf(schema, value)) {
        const parsed = JSON.parse(m.json) as JsonValue;
        const s = schemaVerdict(compiled, parsed);
        const d = decoderVerdict(input, parsed);
        if (s.accepted) accepted++;
        else refused++;
        if (s.accepted !== d.accepted || d.crashed) found.push(disagreement(tool, m.label, m.json, s, d));
      }
    }
    expect(found.slice(0, 5)).toEqual([]);
    expect(refused).toBeGreaterThan(0);
    expect(accepted + refused).toBeGreaterThan(5);
  });
});
