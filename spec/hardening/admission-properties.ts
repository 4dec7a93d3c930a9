/**
 * Properties of admission (I-JSON text, schema verdicts, prototypes untouched), as fast-check properties:
 * run with fixed seeds by admission.property.spec.ts (npm test) and open-ended by scripts/fuzz.ts (npm run fuzz).
 * Each property throws (fails) with a message naming what broke; none depends on timing.
 */
import fc from 'fast-check';
import { ToolError, admitJson, bind } from '../../lib/protocol';
import type { Contract, JsonObject } from '../../lib/protocol';
import { checkJson } from '../../lib/protocol/json';
import { OPEN_SCHEMA, prototypeSnapshot, rawTool } from './support';
import {
  deepEqualJson,
  escapedText,
  iJsonAllows,
  jsonText,
  mutatedText,
  numberAllowed,
  numberLiteral,
  safeJsonObject,
  safeNumber,
} from './arbitraries';

/** The typed schema the object properties run against (additionalProperties false, two required). */
export const ARGS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 20 },
    count: { type: 'integer', minimum: 0, maximum: 1000 },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    nested: {
      type: 'object',
      properties: { note: { type: ['string', 'null'] } },
      required: ['note'],
      additionalProperties: false,
    },
  },
  required: ['name', 'count'],
  additionalProperties: false,
};

const text = fc.string({ unit: 'binary', maxLength: 12 });

/** Values ARGS_SCHEMA accepts (code points, not UTF-16 units, bound the name: as JSON Schema counts). */
export const acceptedArgs = fc.record(
  {
    name: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    count: fc.integer({ min: 0, max: 1000 }),
    ratio: safeNumber,
    flag: fc.boolean(),
    tags: fc.array(text, { maxLength: 5 }),
    nested: fc.record({ note: fc.option(text, { nil: null }) }),
  },
  { requiredKeys: ['name', 'count'] },
);

/** One way to break ARGS_SCHEMA, applied to an accepted value. */
const breakers: fc.Arbitrary<(v: Record<string, unknown>) => Record<string, unknown>>[] = [
  fc.constant((v) => ({ ...v, count: String(v.count) })),
  fc.integer({ min: 1001, max: 1e9 }).map((n) => (v) => ({ ...v, count: n })),
  fc.constant((v) => ({ ...v, count: (v.count as number) + 0.5 })),
  fc.constant((v) => ({ ...v, name: '' })),
  fc.string({ unit: 'binary', minLength: 21, maxLength: 40 }).map((s) => (v) => ({ ...v, name: s })),
  fc.constantFrom('name', 'count').map((key) => (v) => {
    const c = { ...v };
    delete c[key];
    return c;
  }),
  fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((k) => !Object.keys(ARGS_SCHEMA.properties as object).includes(k))
    .map((k) => (v) => Object.fromEntries([...Object.entries(v), [k, 1]])),
  fc.constant((v) => ({ ...v, tags: [1] })),
  fc.constant((v) => ({ ...v, tags: ['a', 'b', 'c', 'd', 'e', 'f'] })),
  fc.constant((v) => ({ ...v, nested: {} })),
  fc.constant((v) => ({ ...v, flag: 'false' })),
];

/** Values ARGS_SCHEMA refuses. */
export const refusedArgs = fc
  .tuple(acceptedArgs, fc.oneof(...breakers))
  .map(([v, f]) => f(v as Record<string, unknown>));

function contract(schema: JsonObject): Contract {
  return bind(rawTool('t', async () => ({ output: undefined as never }), schema)).contract;
}

let typed: Contract | undefined;
let open: Contract | undefined;
const typedContract = (): Contract => (typed ??= contract(ARGS_SCHEMA));
const openContract = (): Contract => (open ??= contract(OPEN_SCHEMA));

/** prepare(text) outcome: the admitted text, or the refusal; anything but a ToolError ERR_INVALID_INVOCATION fails. */
function prepareText(c: Contract, args: string): { admitted: string } | { refused: ToolError } {
  try {
    return { admitted: c.prepare({ name: 't', arguments: args }).arguments };
  } catch (e) {
    if (!(e instanceof ToolError) || e.code !== 'ERR_INVALID_INVOCATION') {
      throw new Error(`prepare threw something other than ToolError ERR_INVALID_INVOCATION: ${String(e)}`, {
        cause: e,
      });
    }
    return { refused: e };
  }
}

const sameJson = deepEqualJson;

/** Asserts that admission left Object, Array and Function prototypes as they were. */
function assertPrototypes(before: string): void {
  if (prototypeSnapshot() !== before || ({} as Record<string, unknown>).polluted !== undefined) {
    throw new Error('a prototype changed during admission');
  }
}

/** Named properties; `numRuns` is each one's share of the fixed-seed slice (about 10,000 cases). */
export const ADMISSION_PROPERTIES: readonly {
  name: string;
  numRuns: number;
  property: fc.IPropertyWithHooks<never> | fc.IProperty<never>;
}[] = [
  {
    name: 'prepare admits every schema-accepted object and its text parses back to the same value',
    numRuns: 1500,
    property: fc.property(acceptedArgs, fc.constantFrom('', ' ', '\n\t'), (value, ws) => {
      const args = `${ws}${JSON.stringify(value)}${ws}`;
      const got = prepareText(typedContract(), args);
      if (!('admitted' in got)) throw new Error(`refused an accepted value: ${got.refused.message}`);
      if (got.admitted !== args) throw new Error('the admitted text is not the text received');
      if (!sameJson(JSON.parse(got.admitted), value))
        throw new Error('the admitted text does not parse back to the value');
    }) as never,
  },
  {
    name: 'prepare admits every I-JSON object under an open schema, keeping its exact text',
    numRuns: 1500,
    property: fc.property(safeJsonObject, (value) => {
      const args = JSON.stringify(value);
      const before = prototypeSnapshot();
      const got = prepareText(openContract(), args);
      assertPrototypes(before);
      if (!('admitted' in got)) throw new Error(`refused an I-JSON object: ${got.refused.message}`);
      if (got.admitted !== args || !sameJson(JSON.parse(got.admitted), JSON.parse(args)))
        throw new Error('text or value changed');
    }) as never,
  },
  {
    name: 'prepare refuses every schema-refused value with ERR_INVALID_INVOCATION and at least one issue',
    numRuns: 1500,
    property: fc.property(refusedArgs, (value) => {
      const got = prepareText(typedContract(), JSON.stringify(value));
      if (!('refused' in got)) throw new Error('admitted a value the schema refuses');
      if (got.refused.issues.length === 0) throw new Error('a schema refusal carries no issue');
    }) as never,
  },
  {
    name: 'arbitrary strings are admitted or refused with ERR_INVALID_INVOCATION, prototypes untouched',
    numRuns: 2000,
    property: fc.property(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary-ascii' }),
        fc.string({ unit: fc.constantFrom(...'{}[]":,\\u0123456789abcdefnrtlsux.eE+- _'), maxLength: 60 }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
      ),
      (args) => {
        const before = prototypeSnapshot();
        prepareText(typedContract(), args);
        prepareText(openContract(), args);
        assertPrototypes(before);
      },
    ) as never,
  },
  {
    name: 'mutations of valid arguments are admitted or refused with ERR_INVALID_INVOCATION, prototypes untouched',
    numRuns: 2000,
    property: fc.property(mutatedText, (args) => {
      const before = prototypeSnapshot();
      prepareText(typedContract(), args);
      prepareText(openContract(), args);
      assertPrototypes(before);
    }) as never,
  },
  {
    name: 'admission agrees with JSON.parse on every input JSON.parse accepts and I-JSON allows, and refuses the rest',
    numRuns: 1500,
    property: fc.property(fc.oneof(jsonText, mutatedText), (args) => {
      let parsed: { value: unknown } | undefined;
      try {
        parsed = { value: JSON.parse(args) };
      } catch {
        parsed = undefined;
      }
      const admitted = admitJson(args);
      if (parsed === undefined || !iJsonAllows(args, parsed.value)) {
        if (admitted.ok) throw new Error('admitted a text that JSON.parse refuses or I-JSON forbids');
        return;
      }
      if (!admitted.ok) throw new Error(`refused an I-JSON text: ${admitted.issue.message}`);
      if (!sameJson(admitted.value, parsed.value)) throw new Error('admitted value differs from JSON.parse');
    }) as never,
  },
  {
    // admitJson runs a light scan and JSON.parse, and the full scan only when either doubts the text;
    // checkJson is the full scan alone. Their verdicts, and every refusal's issue, must be the same.
    name: 'admitJson refuses exactly what the full scan refuses, with the same issue (code, path, offset, message)',
    numRuns: 1500,
    property: fc.property(fc.oneof(jsonText, mutatedText, escapedText), (args) => {
      const full = checkJson(args);
      const admitted = admitJson(args);
      if (full === undefined) {
        if (!admitted.ok) throw new Error(`the full scan admits what admitJson refused: ${admitted.issue.message}`);
        return;
      }
      if (admitted.ok) throw new Error(`admitted what the full scan refuses: ${full.message}`);
      if (!deepEqualJson(admitted.issue, full)) {
        throw new Error(`refused with ${admitted.issue.message}, the full scan says ${full.message}`);
      }
    }) as never,
  },
  {
    name: 'admission decides every number literal as the exact (BigInt) oracle does: never silently changed',
    numRuns: 1000,
    property: fc.property(numberLiteral, (literal) => {
      const admitted = admitJson(`{"n":${literal}}`);
      if (numberAllowed(literal)) {
        if (!admitted.ok) throw new Error(`refused ${literal}: ${admitted.issue.message}`);
        if (!Object.is((admitted.value as { n: number }).n, Number(literal))) throw new Error(`${literal} changed`);
      } else if (admitted.ok || admitted.issue.code !== 'number_out_of_range') {
        throw new Error(`${literal} was not refused with number_out_of_range`);
      }
    }) as never,
  },
];
