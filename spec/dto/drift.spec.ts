/**
 * Manifest drift (issue 15 items 4 and 5, lib/dto/drift.ts): a decorator changed without
 * regenerating (an argument, a type decorator) or a changed initializer is found at start-up, on every
 * member, on `each: true` items and inside nested DTOs, against the schemas the generator really
 * writes (generated here from spec/schema/fixtures/drift); an up-to-date manifest never drifts (that
 * fixture, the decorator catalogue's, contract, argument and constraint fixtures, the zoo and the
 * samples manifest); and the drift table agrees with the decorator catalogue
 * (lib/schema/catalogue.ts), which lib/dto may not import.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { createRegistry } from '../../lib/container';
import { staleConstraint, staleEntry } from '../../lib/container/messages';
import { Equals, IsDateString, IsEmail, IsNumber, IsString, MaxLength } from 'class-validator';
import { Tool, Toolset } from '../../lib/decorators';
import {
  constraintDrift,
  DRIFT_RULES,
  nestedMemberDrift,
  NOT_COMPARED,
  type ConstraintDrift,
  type MemberDrift,
} from '../../lib/dto/drift';
import type { DtoClass } from '../../lib/dto';
import type { JsonObject, ToolError } from '../../lib/protocol';
import { DECORATOR_CATALOGUE } from '../../lib/schema/catalogue';
import { generateManifest, type Manifest, type ManifestTool } from '../../lib/schema';
import * as diagnostics from '../../samples/assistant/diagnostics.tools';
import * as notes from '../../samples/assistant/notes.tools';
import * as weather from '../../samples/assistant/weather.tools';
import * as argumentsFixture from '../schema/fixtures/arguments/arguments.tools';
import * as catalogue from '../schema/fixtures/catalogue/all.tools';
import * as constraintsFixture from '../schema/fixtures/constraints/constraints.tools';
import * as contractFixture from '../schema/fixtures/contract/contract.tools';
import { Booking } from '../schema/fixtures/drift/drift.tools';
import * as booking from '../schema/zoo/booking.zoo';
import * as calendar from '../schema/zoo/calendar.zoo';
import * as contract from '../schema/zoo/contract.zoo';
import * as files from '../schema/zoo/files.zoo';
import * as geo from '../schema/zoo/geo.zoo';
import * as inventory from '../schema/zoo/inventory.zoo';
import * as invoices from '../schema/zoo/invoices.zoo';
import * as misc from '../schema/zoo/misc.zoo';
import * as search from '../schema/zoo/search.zoo';
import * as users from '../schema/zoo/users.zoo';

const FIXTURES = path.join(__dirname, '..', 'schema', 'fixtures');
const generated = (tsconfig: string): Manifest => {
  const result = generateManifest({ tsconfig });
  expect(result.errors).toEqual([]);
  return result.manifest;
};
// One compiler run per project, at collection time (seconds each).
const DRIFT = generated(path.join(FIXTURES, 'drift', 'tsconfig.json'));
const CATALOGUE = generateManifest({ tsconfig: path.join(FIXTURES, 'catalogue', 'tsconfig.json') }).manifest;
const ZOO = generated(path.join(__dirname, '..', 'schema', 'zoo', 'tsconfig.json'));

const BOOK = DRIFT.tools.find((t) => t.name === 'book') as ManifestTool;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The manifest entry `book` with the value at `pointer` (a JSON Pointer into its input schema) replaced. */
function changed(pointer: string, value: unknown): ManifestTool {
  const entry = clone(BOOK) as { definition: { input_schema: JsonObject } };
  const keys = pointer.split('/').slice(1);
  let node = entry.definition.input_schema as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return entry as unknown as ManifestTool;
}

@Toolset()
class DriftTools {
  @Tool({ name: 'book', input: Booking }) book(input: Booking): string {
    return input.code;
  }
}

const refusal = (expected: ToolError) => expect.objectContaining({ code: expected.code, message: expected.message });

/**
 * The drift of every tool of `manifest` whose input DTO `classes` has, with the tool's name: its
 * constraints, and its nested DTOs' member names.
 */
function driftOf(manifest: Manifest, classes: ReadonlyMap<string, unknown>): [string, ConstraintDrift | MemberDrift][] {
  const tools = manifest.tools.filter((t) => t.source.input !== null && classes.has(t.source.input));
  expect(tools.length).toBeGreaterThan(0);
  return tools.flatMap((t) => {
    const dto = classes.get(t.source.input as string) as DtoClass;
    const schema = t.definition.input_schema;
    return [...constraintDrift(dto, schema, t.mergedBounds), ...nestedMemberDrift(dto, schema)].map(
      (d): [string, ConstraintDrift | MemberDrift] => [t.name, d],
    );
  });
}
const classesOf = (...modules: object[]) => new Map<string, unknown>(modules.flatMap((m) => Object.entries(m)));

describe('an up-to-date manifest never drifts', () => {
  it('the drift fixture: every rule, each: true, nested DTOs inline and through $ref', () => {
    expect(constraintDrift(Booking, BOOK.definition.input_schema, BOOK.mergedBounds)).toEqual([]);
    expect(nestedMemberDrift(Booking, BOOK.definition.input_schema)).toEqual([]);
    expect(createRegistry({ manifest: DRIFT, toolsets: [new DriftTools()] }).resolve('book')).toBeDefined();
  });

  it('every row of the decorator catalogue fixture the generator maps', () => {
    expect(CATALOGUE.tools.length).toBeGreaterThan(100);
    expect(driftOf(CATALOGUE, classesOf(catalogue))).toEqual([]);
  });

  it('every tool of the zoo', () => {
    const zoo = classesOf(booking, calendar, contract, files, geo, inventory, invoices, misc, search, users);
    expect(driftOf(ZOO, zoo)).toEqual([]);
  });

  it('the contract, argument and constraint fixtures (bounds said twice, JSDoc tags, several patterns)', () => {
    const fixtures: [string, object][] = [
      ['contract', contractFixture],
      ['arguments', argumentsFixture],
      ['constraints', constraintsFixture],
    ];
    for (const [dir, module] of fixtures) {
      const manifest = generateManifest({ tsconfig: path.join(FIXTURES, dir, 'tsconfig.json') }).manifest;
      expect([dir, driftOf(manifest, classesOf(module))]).toEqual([dir, []]);
    }
  });

  it('the committed samples manifest (the assistant tools; quick-start and readme-example bind in their specs)', () => {
    const file = path.join(__dirname, '..', '..', 'samples', 'tools.manifest.json');
    const samples = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    expect(driftOf(samples, classesOf(diagnostics, notes, weather))).toEqual([]);
  });

  it('a bound the schema states tighter (a JSDoc tag, a tuple, a merge) is listed in mergedBounds and left alone', () => {
    expect(BOOK.mergedBounds).toEqual(['Booking.capped.maximum', 'Booking.pair.maxItems', 'Booking.query.minLength']);
    // Without the list (a manifest of the first drift check) the JSDoc tag and the tuple looked stale.
    expect(constraintDrift(Booking, BOOK.definition.input_schema).map((d) => `${d.member}.${d.keyword}`)).toEqual([
      'capped.maximum',
      'pair.maxItems',
    ]);
  });
});

// A decorator edited after generation: the manifest's keyword says what the old decorator said.
const CASES: readonly [string, string, unknown, Omit<ConstraintDrift, 'inManifest'>][] = [
  [
    '@Max(50) was @Max(40)',
    '/properties/limit/maximum',
    40,
    { member: 'limit', decorator: 'Max', keyword: 'maximum', inSource: 50 },
  ],
  [
    '@Min(1) was never generated',
    '/properties/limit/minimum',
    undefined,
    { member: 'limit', decorator: 'Min', keyword: 'minimum', inSource: 1 },
  ],
  [
    '@Matches(/^[A-Z]{3}$/) was /^[A-Z]{2}$/',
    '/properties/code/pattern',
    '^[A-Z]{2}$',
    { member: 'code', decorator: 'Matches', keyword: 'pattern', inSource: '^[A-Z]{3}$' },
  ],
  [
    '@Matches beside @IsUUID (allOf) changed',
    '/properties/id/allOf/0/pattern',
    '^[0-9a-f]+$',
    { member: 'id', decorator: 'Matches', keyword: 'pattern', inSource: '^[0-9a-f-]+$' },
  ],
  [
    '@Contains seed changed',
    '/properties/note/pattern',
    'a\\.c',
    { member: 'note', decorator: 'Contains', keyword: 'pattern', inSource: 'a\\.b' },
  ],
  [
    '@IsIn gained "c"',
    '/properties/mode/enum',
    ['a', 'b'],
    { member: 'mode', decorator: 'IsIn', keyword: 'enum', inSource: ['a', 'b', 'c'] },
  ],
  [
    '@IsEnum(Color) gained Green',
    '/properties/color/enum',
    ['red'],
    { member: 'color', decorator: 'IsEnum', keyword: 'enum', inSource: ['red', 'green'] },
  ],
  [
    '@IsEnum(Level) lost a member',
    '/properties/level/enum',
    [1, 2, 3],
    { member: 'level', decorator: 'IsEnum', keyword: 'enum', inSource: [1, 2] },
  ],
  [
    '@IsIn lost null',
    '/properties/state/enum',
    ['on', 'off'],
    { member: 'state', decorator: 'IsIn', keyword: 'enum', inSource: ['on', 'off', null] },
  ],
  [
    '@Equals("v1") was "v0"',
    '/properties/version/const',
    'v0',
    { member: 'version', decorator: 'Equals', keyword: 'const', inSource: 'v1' },
  ],
  [
    '@NotEquals("root") was "admin"',
    '/properties/user/not/anyOf/0/const',
    'admin',
    { member: 'user', decorator: 'NotEquals', keyword: 'not', inSource: { const: 'root' } },
  ],
  [
    '@IsNotIn gained "y"',
    '/properties/user/not/anyOf/1/enum',
    ['x'],
    { member: 'user', decorator: 'IsNotIn', keyword: 'not', inSource: { enum: ['x', 'y'] } },
  ],
  [
    '@NotContains seed changed',
    '/properties/note/not/pattern',
    'z\\+',
    { member: 'note', decorator: 'NotContains', keyword: 'not', inSource: { type: 'string', pattern: 'z\\*' } },
  ],
  [
    '@MaxLength(10, { each: true }) was 8',
    '/properties/tags/items/maxLength',
    8,
    { member: 'tags[]', decorator: 'MaxLength', keyword: 'maxLength', inSource: 10 },
  ],
  [
    '@Matches(..., { each: true }) changed',
    '/properties/tags/items/pattern',
    '^[a-z]*$',
    { member: 'tags[]', decorator: 'Matches', keyword: 'pattern', inSource: '^[a-z]+$' },
  ],
  [
    '@IsIn(..., { each: true }) gained "blue"',
    '/properties/tags/items/enum',
    ['red'],
    { member: 'tags[]', decorator: 'IsIn', keyword: 'enum', inSource: ['red', 'blue'] },
  ],
  [
    '@ArrayMaxSize(5) on the array itself',
    '/properties/tags/maxItems',
    4,
    { member: 'tags', decorator: 'ArrayMaxSize', keyword: 'maxItems', inSource: 5 },
  ],
  [
    'nested through $ref: Address.zip',
    '/$defs/Address/properties/zip/pattern',
    '^[0-9]{4}$',
    { member: 'address.zip', decorator: 'Matches', keyword: 'pattern', inSource: '^[0-9]{5}$' },
  ],
  [
    'nested through $ref: @Length(1, 40) was 1, 30',
    '/$defs/Address/properties/street/maxLength',
    30,
    { member: 'address.street', decorator: 'Length', keyword: 'maxLength', inSource: 40 },
  ],
  [
    'nested inline, optional: Line.qty',
    '/properties/extra/properties/qty/maximum',
    9,
    { member: 'extra.qty', decorator: 'Max', keyword: 'maximum', inSource: 99 },
  ],
  [
    'an array of nested DTOs: Line.unit',
    '/properties/lines/items/properties/unit/enum',
    ['kg'],
    { member: 'lines[].unit', decorator: 'IsIn', keyword: 'enum', inSource: ['kg', 'g', 'l'] },
  ],
  // Issue 15 (trial item 5): a type decorator changed, the schema and the decoder refuse each other's values.
  [
    '@IsString() was @IsInt()',
    '/properties/code/type',
    'integer',
    { member: 'code', decorator: 'IsString', keyword: 'type', inSource: 'string' },
  ],
  [
    '@IsNumber() was @IsString()',
    '/properties/ratio/type',
    'string',
    { member: 'ratio', decorator: 'IsNumber', keyword: 'type', inSource: 'number' },
  ],
  [
    '@IsBoolean() on a nullable member was @IsString()',
    '/properties/flag/type',
    ['null', 'string'],
    { member: 'flag', decorator: 'IsBoolean', keyword: 'type', inSource: 'boolean' },
  ],
  [
    '@IsString({ each: true }) was @IsInt({ each: true })',
    '/properties/labels/items/type',
    'integer',
    { member: 'labels[]', decorator: 'IsString', keyword: 'type', inSource: 'string' },
  ],
  [
    '@IsInt() in a nested DTO was @IsString()',
    '/properties/lines/items/properties/qty/type',
    'string',
    { member: 'lines[].qty', decorator: 'IsInt', keyword: 'type', inSource: 'integer' },
  ],
  [
    '@IsDate() was @IsString() (no format)',
    '/properties/since/format',
    undefined,
    { member: 'since', decorator: 'IsDate', keyword: 'format', inSource: 'date-time' },
  ],
  [
    '@IsDateString() was never generated',
    '/properties/day/format',
    undefined,
    { member: 'day', decorator: 'IsDateString', keyword: 'format', inSource: 'date-time' },
  ],
  // Issue 15 (trial item 5): the model was shown default 10, the tool ran with 20.
  [
    'ratio = 0.5 was 0.25',
    '/properties/ratio/default',
    0.25,
    { member: 'ratio', decorator: null, keyword: 'default', inSource: 0.5 },
  ],
  [
    "labels = ['a', 'b'] was ['a']",
    '/properties/labels/default',
    ['a'],
    { member: 'labels', decorator: null, keyword: 'default', inSource: ['a', 'b'] },
  ],
  [
    'flag = null was false',
    '/properties/flag/default',
    false,
    { member: 'flag', decorator: null, keyword: 'default', inSource: null },
  ],
  [
    'an initializer removed: limit = 10',
    '/properties/limit/default',
    10,
    { member: 'limit', decorator: null, keyword: 'default', inSource: undefined },
  ],
];

describe.each(CASES)('a stale manifest: %s', (_label, pointer, old, expected) => {
  const entry = changed(pointer, old);

  it('constraintDrift names the member path, decorator, keyword and both values', () => {
    const drift = constraintDrift(Booking, entry.definition.input_schema, entry.mergedBounds);
    // The manifest's whole keyword (`not`, the patterns of allOf) where a part of it was changed.
    const inManifest: unknown = new RegExp(`/properties/[^/]+(/items)?/${expected.keyword}$`).test(pointer)
      ? old
      : expect.anything();
    expect(drift[0]).toEqual({ ...expected, inManifest });
    // A DTO used twice ($defs/Address: address and billing) drifts on both paths, nothing else.
    expect(drift.map((d) => [d.decorator, d.keyword, d.member.replace(/^billing\./, 'address.')])).toEqual(
      drift.map(() => [expected.decorator, expected.keyword, expected.member]),
    );
  });

  it('createRegistry refuses it, naming the tool and Class.method (ERR_INVALID_TOOL)', () => {
    const drift = constraintDrift(Booking, entry.definition.input_schema, entry.mergedBounds);
    expect(() => createRegistry({ manifest: { version: 1, tools: [entry] }, toolsets: [new DriftTools()] })).toThrow(
      refusal(staleEntry('book', 'DriftTools.book', drift.map(staleConstraint).join('; '))),
    );
  });
});

describe('nested DTO members removed or added without regenerating (trial 2 finding 7a)', () => {
  const members = (entry: ManifestTool) => nestedMemberDrift(Booking, entry.definition.input_schema);

  it('a member the manifest still lists, through $ref: on every path that reaches the DTO', () => {
    const entry = changed('/$defs/Address/properties/team', { type: 'string' });
    expect(members(entry)).toEqual([
      { member: 'address.team', dto: 'Address', side: 'manifest' },
      { member: 'billing.team', dto: 'Address', side: 'manifest' },
    ]);
  });

  it('a member the manifest lacks: inline, in an array of DTOs', () => {
    expect(members(changed('/properties/extra/properties/unit', undefined))).toEqual([
      { member: 'extra.unit', dto: 'Line', side: 'source' },
    ]);
    expect(members(changed('/properties/lines/items/properties/qty', undefined))).toEqual([
      { member: 'lines[].qty', dto: 'Line', side: 'source' },
    ]);
  });

  it('createRegistry refuses it, naming the member paths and one issue each (ERR_INVALID_TOOL)', () => {
    const entry = changed('/$defs/Address/properties/team', { type: 'string' });
    let thrown: ToolError | undefined;
    try {
      createRegistry({ manifest: { version: 1, tools: [entry] }, toolsets: [new DriftTools()] });
    } catch (e) {
      thrown = e as ToolError;
    }
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_TOOL' });
    expect(thrown?.issues.map((i) => [i.code, i.params?.['member']])).toEqual([
      ['stale_manifest', 'address.team'],
      ['stale_manifest', 'billing.team'],
    ]);
  });
});

describe('what is left alone', () => {
  it('a keyword two decorators merge: @MinLength(0) beside @IsNotEmpty() is minLength 1', () => {
    const entry = changed('/properties/query/minLength', 3);
    expect(constraintDrift(Booking, entry.definition.input_schema, entry.mergedBounds)).toEqual([]);
  });

  it('a type decorator beside another that narrows it: @IsEnum(Level), numeric, is type integer', () => {
    expect(BOOK.definition.input_schema).toMatchObject({ properties: { level: { type: 'integer' } } });
    expect(constraintDrift(Booking, BOOK.definition.input_schema, BOOK.mergedBounds)).toEqual([]);
  });

  it('a default that is no JSON value (a Date) or that the manifest does not state', () => {
    const drift = (entry: ManifestTool) => constraintDrift(Booking, entry.definition.input_schema, entry.mergedBounds);
    // since = new Date(0): the generator shows no default (a warning), so none is compared.
    expect(drift(changed('/properties/since/default', 'x'))).toEqual([]);
    // A value a constructor assigns is not shown either: a missing default is no evidence of drift.
    expect(drift(changed('/properties/ratio/default', undefined))).toEqual([]);
  });

  it('a type or format narrowed or merged: integer for @IsNumber(), @IsEmail() after @IsDateString()', () => {
    class Merged {
      /** A JSDoc `@TJS-type integer` (or `@IsInt()`, a numeric `@IsEnum()`) narrows it: the schema says integer. */
      @IsNumber() count!: number;
      @IsDateString() @IsEmail() contact!: string;
      // An `unknown` member: the generator writes `const: "v1"` without a type.
      @Equals('v1') @IsString() free!: unknown;
    }
    const schema = (free: Record<string, unknown>) => ({
      type: 'object',
      properties: { count: { type: 'integer' }, contact: { type: 'string', format: 'email' }, free },
    });
    expect(constraintDrift(Merged, schema({ const: 'v1' }))).toEqual([]);
    // A value of another type is no merge: it was written beside another type decorator.
    expect(constraintDrift(Merged, schema({ const: 1 }))).toContainEqual({
      member: 'free',
      decorator: 'IsString',
      keyword: 'type',
      inSource: 'string',
      inManifest: undefined,
    });
  });

  it('a member with more anyOf branches than a call may spread (200,000, directly and nested)', () => {
    class Wide {
      @IsString() @MaxLength(5) name!: string;
    }
    const many = Array.from({ length: 200_000 }, () => ({}));
    for (const name of [{ anyOf: many }, { anyOf: [{ anyOf: many }] }, { oneOf: [{ type: 'string' }, ...many] }]) {
      const schema = { type: 'object', properties: { name }, required: ['name'] };
      // No `maxLength` in any branch, nor `type: string` but in the oneOf: the drift is found, not
      // a RangeError thrown.
      expect(constraintDrift(Wide, schema).map((d) => [d.member, d.keyword])).toEqual([
        ['name', 'maxLength'],
        ...('oneOf' in name ? [] : [['name', 'type']]),
      ]);
    }
  });

  it('a $ref reached from many branches at many depths is walked once (20 refs a level, 6 levels)', () => {
    class Deep {
      @IsString() name!: string;
    }
    const refs = (to: string) => ({ anyOf: Array.from({ length: 20 }, () => ({ $ref: `#/$defs/${to}` })) });
    const $defs = {
      L1: refs('L2'),
      L2: refs('L3'),
      L3: refs('L4'),
      L4: refs('L5'),
      L5: refs('L6'),
      L6: { type: 'integer' },
    };
    const schema = { type: 'object', properties: { name: refs('L1') }, required: ['name'], $defs };
    // 20^6 paths reach L6: walked path by path, the branch list overflowed a spread (RangeError).
    expect(constraintDrift(Deep, schema)).toEqual([
      { member: 'name', decorator: 'IsString', keyword: 'type', inSource: 'string', inManifest: 'integer' },
    ]);
  });

  it('a recursive DTO is walked once per path (Address.previous refers to Address)', () => {
    const entry = changed('/$defs/Address/properties/zip/pattern', 'x');
    expect(constraintDrift(Booking, entry.definition.input_schema, entry.mergedBounds).map((d) => d.member)).toEqual([
      'address.zip',
      'billing.zip',
    ]);
  });
});

describe('the drift table and the decorator catalogue (lib/schema/catalogue.ts) agree', () => {
  const compared = new Set(Object.values(DRIFT_RULES).map((r) => r.decorator));
  const row = (decorator: string) =>
    CATALOGUE.tools.find((t) => t.name === `row_${decorator}`)?.definition.input_schema as
      { properties: Record<string, Record<string, unknown>> } | undefined;

  it('names catalogue rows only, each once', () => {
    const names = [...compared, ...Object.keys(NOT_COMPARED)];
    expect(names.filter((d) => !(d in DECORATOR_CATALOGUE))).toEqual([]);
    expect([...compared].filter((d) => d in NOT_COMPARED)).toEqual([]);
  });

  it('every catalogue row that writes a keyword (schema, pattern, enum) is compared or says why not', () => {
    const writers = Object.entries(DECORATOR_CATALOGUE)
      .filter(([, rule]) => rule.kind === 'schema' || rule.kind === 'pattern' || rule.kind === 'enum')
      .map(([name]) => name);
    expect(writers.filter((d) => !compared.has(d) && !(d in NOT_COMPARED))).toEqual([]);
  });

  it.each(Object.entries(DRIFT_RULES))(
    'record %s: the generator writes its keywords, and a changed one is found',
    (_record, { decorator, keywords }) => {
      const schema = row(decorator);
      const value = schema?.properties['value'];
      expect(value).toBeDefined();
      for (const keyword of keywords) {
        expect([keyword, Object.hasOwn(value as object, keyword)]).toEqual([keyword, true]);
        const stale = clone(schema) as { properties: Record<string, Record<string, unknown>> };
        (stale.properties['value'] as Record<string, unknown>)[keyword] = 'changed';
        const dto = (catalogue as unknown as Record<string, DtoClass>)[`Row${decorator}`] as DtoClass;
        expect(constraintDrift(dto, stale as unknown as JsonObject)).toEqual([
          expect.objectContaining({ member: 'value', decorator, keyword, inManifest: 'changed' }),
        ]);
      }
    },
  );
});
