/**
 * The decoders compiled from DTO plans (lib/dto/fast.ts) on the fixture zoo (spec/schema/zoo) and the
 * decorator catalogue (spec/schema/fixtures/catalogue): which DTOs the generated schema proves (no
 * class-validator), which are built from the plan and checked by class-validator (no
 * class-transformer), and for every one of them, on values generated from its schema and on boundary
 * and mutated arguments, the same verdict, refusal and instance as the class-transformer path
 * (spec/dto/fast-path-support.ts).
 */
import path from 'node:path';
import { generateManifest } from '../../lib/schema';
import { decodePathOf, usesFastPath } from '../../lib/dto/dto-input';
import { compare, pairOf } from '../dto/fast-path-support';
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
import * as catalogue from './fixtures/catalogue/all.tools';

const ZOO = new Map<string, unknown>(
  [booking, calendar, contract, files, geo, inventory, invoices, misc, search, users].flatMap((m) => Object.entries(m)),
);
const ROWS = new Map<string, unknown>(Object.entries(catalogue));

// One compiler run per fixture project for the whole file (seconds).
const zooPairs = generateManifest({ tsconfig: path.join(__dirname, 'zoo', 'tsconfig.json') }).manifest.tools.map((t) =>
  pairOf(t, ZOO),
);
const rowPairs = generateManifest({
  tsconfig: path.join(__dirname, 'fixtures', 'catalogue', 'tsconfig.json'),
}).manifest.tools.map((t) => pairOf(t, ROWS));

describe('which zoo and catalogue DTOs their schema proves', () => {
  it('proves most of the zoo', () => {
    expect(zooPairs.filter((p) => usesFastPath(p.fast)).length).toBeGreaterThanOrEqual(30);
    expect(zooPairs.some((p) => usesFastPath(p.slow))).toBe(false);
  });

  it('leaves decoder-only decorators, @ValidateIf and custom constraints to class-validator', () => {
    const paths = new Map(rowPairs.map((p) => [p.name.split(' ')[0], decodePathOf(p.fast)]));
    const slowRows = ['RowIsEmail', 'RowIsUrl', 'RowValidate', 'RowValidateBy', 'RowValidateIf', 'RowMinDate'];
    const fastRows = ['RowIsString', 'RowLength', 'RowMin', 'RowIsInt', 'RowIsEnum', 'RowValidateNested'];
    expect(slowRows.map((r) => paths.get(r))).toEqual(slowRows.map(() => 'built'));
    expect(fastRows.map((r) => paths.get(r))).toEqual(fastRows.map(() => 'proven'));
  });

  it('builds most of the rest of the zoo without class-transformer', () => {
    const paths = zooPairs.map((p) => decodePathOf(p.fast));
    expect(paths.filter((p) => p === 'built').length).toBeGreaterThanOrEqual(5);
    expect(zooPairs.map((p) => decodePathOf(p.slow))).toEqual(zooPairs.map(() => 'transformed'));
  });
});

describe.each(
  zooPairs.filter((p) => decodePathOf(p.fast) !== 'transformed').map((p) => [p.name, decodePathOf(p.fast), p] as const),
)('zoo DTO %s, %s', (_name, _path, pair) => {
  it('gives the class-transformer path verdict, refusal and instance on generated and mutated arguments', () => {
    const { found, accepted, refused } = compare(pair);
    expect(found.slice(0, 3)).toEqual([]);
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

describe('catalogue DTOs', () => {
  it('give the class-validator verdict, refusal and instance on generated and mutated arguments', () => {
    const found: string[] = [];
    for (const pair of rowPairs.filter((p) => decodePathOf(p.fast) !== 'transformed'))
      found.push(...compare(pair, 10).found);
    expect(found.slice(0, 3)).toEqual([]);
  });
});
