/**
 * The fixed-seed slice of the admission fuzzing (about 10,000 cases): every property of
 * admission-properties.ts with its own fixed seed. `npm run fuzz` runs the same properties open-ended.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { ToolError, admitJson, bind, hasErrorCode } from '../../lib/protocol';
import { ADMISSION_PROPERTIES } from './admission-properties';
import { OPEN_SCHEMA, prototypeSnapshot, rawTool } from './support';

const SEED = 20_240_606;

describe('admission properties (fixed seeds)', () => {
  it.each(ADMISSION_PROPERTIES.map((p, i) => [p.name, i] as const))('%s', (_name, i) => {
    const { property, numRuns } = ADMISSION_PROPERTIES[i];
    fc.assert(property, { seed: SEED + i, numRuns });
  });

  it('runs about 10,000 cases in the fixed-seed slice', () => {
    const total = ADMISSION_PROPERTIES.reduce((n, p) => n + p.numRuns, 0);
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
});

describe('admission edge cases the generators reach rarely', () => {
  const contract = bind(rawTool('t', async () => ({ output: undefined as never }), OPEN_SCHEMA)).contract;
  const refusal = (args: string): ToolError => {
    try {
      contract.prepare({ name: 't', arguments: args });
    } catch (e) {
      return e as ToolError;
    }
    throw new Error('admitted');
  };

  it.each([
    ['nesting one deeper than MAX_DEPTH', `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'too_deep'],
    ['an integer literal one past 2^53 - 1', '{"n":9007199254740992}', 'number_out_of_range'],
    ['a 400-digit integer', `{"n":1${'0'.repeat(400)}}`, 'number_out_of_range'],
    ['2^53 + 1 written with a fraction', '{"n":9007199254740993.0}', 'number_out_of_range'],
    ['a non-zero number that a double turns into 0', '{"n":-1e-400}', 'number_out_of_range'],
    ['an escaped lone high surrogate', '{"s":"\\ud800"}', 'lone_surrogate'],
    ['a duplicate name after unescaping', '{"a":1,"\\u0061":2}', 'duplicate_member'],
    ['a BOM before the object', '\ufeff{}', 'invalid_json'],
    ['a member named __proto__ twice', '{"__proto__":{},"__proto__":1}', 'duplicate_member'],
  ])('refuses %s with ERR_INVALID_INVOCATION and its issue code', (_label, args, code) => {
    const error = refusal(args);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(error.issues[0].code).toBe(code);
  });

  it('refuses a raw lone surrogate in the arguments as an invalid request (ERR_INVALID_INVOCATION wrapping ERR_INVALID_REQUEST)', () => {
    const error = refusal('{"s":"\udc00"}');
    expect(error.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(error, 'ERR_INVALID_REQUEST')).toBe(true);
  });

  it('admits {"__proto__":{"polluted":true}} as an own member and pollutes nothing', () => {
    const before = prototypeSnapshot();
    const invocation = contract.prepare({
      name: 't',
      arguments: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":1}}}',
    });
    expect(prototypeSnapshot()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(JSON.parse(invocation.arguments))).toEqual(['__proto__', 'constructor']);
  });
});

describe('JSONTestSuite transform/ files through prepare', () => {
  const DIR = join(__dirname, '..', 'corpora', 'jsontestsuite', 'transform');
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();

  it.each(files)('prepare decides {"v": transform/%s} as admitJson decides the file', (file) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(join(DIR, file)));
    } catch {
      return expect(file).toMatch(/invalid_codepoint/); // undecodable bytes never become a string
    }
    const contract = bind(rawTool('t', async () => ({ output: undefined as never }), OPEN_SCHEMA)).contract;
    const direct = admitJson(text);
    let prepared: string;
    try {
      contract.prepare({ name: 't', arguments: `{"v":${text}}` });
      prepared = 'ok';
    } catch (e) {
      prepared = (e as ToolError).issues[0].code;
    }
    expect(prepared).toBe(direct.ok ? 'ok' : direct.issue.code);
  });
});
