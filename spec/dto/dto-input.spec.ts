import 'reflect-metadata';
import { Expose, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDate,
  IsEnum,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { dtoInput, emptyInput } from '../../lib/dto';
import { DATE_TIME_PATTERN } from '../../lib/dto/contract-rules';
import { renderPointer } from '../../lib/dto/issues';
import { CONSTRAINT_TEXT, DATE_OUT_OF_YEARS, notDateTime } from '../../lib/dto/messages';
import { hasErrorCode, ToolError } from '../../lib/protocol/errors';
import type { AdmissionIssue } from '../../lib/protocol/errors';

class Tag {
  @IsString() @MaxLength(10) label!: string;
}

enum Priority {
  Low = 1,
  High = 2,
}

class CreateNoteInput {
  @IsString() @Length(1, 120) title!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  @IsOptional() @IsInt() @Min(0) @Max(10) stars?: number;
  @IsOptional() @IsBoolean() pinned?: boolean;
  @IsOptional() @IsEnum(Priority) priority?: Priority;
  @IsOptional() @IsDate() @Type(() => Date) due?: Date;
  @IsOptional() @ValidateNested() @Type(() => Tag) main?: Tag;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) labels?: Tag[];
  @IsOptional() @IsObject() extra?: Record<string, unknown>;
}

const input = dtoInput(CreateNoteInput);

function issuesOf(value: unknown): readonly AdmissionIssue[] {
  try {
    input.decode(value as never);
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect(hasErrorCode(e, 'ERR_INVALID_INVOCATION')).toBe(true);
    return (e as ToolError).issues;
  }
  throw new Error('decode accepted the value');
}

function errorOf(value: unknown): ToolError {
  try {
    input.decode(value as never);
  } catch (e) {
    return e as ToolError;
  }
  throw new Error('decode accepted the value');
}

describe('dtoInput decode', () => {
  it('decodes a valid value into an instance of the DTO, nested members into their classes', () => {
    const note = input.decode({
      title: 'Hello',
      tags: ['a'],
      main: { label: 'x' },
      labels: [{ label: 'y' }],
      due: '2024-05-01T12:00:00Z',
    });
    expect(note).toBeInstanceOf(CreateNoteInput);
    expect(note.main).toBeInstanceOf(Tag);
    expect(note.labels?.[0]).toBeInstanceOf(Tag);
    expect(note.due).toBeInstanceOf(Date);
    expect(note.due?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
  });

  it('refuses an unknown member at the top level, naming the first and counting the rest', () => {
    const [issue, ...rest] = issuesOf({ title: 'x', color: 'red', size: 3, shape: 'o' });
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ code: 'unknown_member', path: ['color'] });
    expect(issue.message).toContain('and 2 more unknown members');
  });

  it('refuses an unknown member inside a nested DTO and inside an array of nested DTOs', () => {
    expect(issuesOf({ title: 'x', main: { label: 'a', extra: 1 } })[0]).toMatchObject({
      code: 'unknown_member',
      path: ['main', 'extra'],
    });
    expect(issuesOf({ title: 'x', labels: [{ label: 'a' }, { label: 'b', no: 1 }] })[0]).toMatchObject({
      code: 'unknown_member',
      path: ['labels', 1, 'no'],
    });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as a member at the top level', (name) => {
    const value = JSON.parse(`{"title":"x","${name}":{}}`);
    expect(issuesOf(value)[0]).toMatchObject({ code: 'forbidden_member', path: [name] });
  });

  it('refuses __proto__ and constructor at depth, also inside free-form Record values', () => {
    expect(issuesOf(JSON.parse('{"title":"x","main":{"label":"a","__proto__":{"admin":true}}}'))[0]).toMatchObject({
      code: 'forbidden_member',
      path: ['main', '__proto__'],
    });
    expect(
      issuesOf(JSON.parse('{"title":"x","extra":{"a":[{"b":{"constructor":{"prototype":1}}}]}}'))[0],
    ).toMatchObject({
      code: 'forbidden_member',
      path: ['extra', 'a', 0, 'b', 'constructor'],
    });
    // The prototype of the instance is untouched.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('accepts an absent optional member and refuses null for it', () => {
    expect(input.decode({ title: 'x' }).tags).toBeUndefined();
    const issue = issuesOf({ title: 'x', tags: null })[0];
    expect(issue).toMatchObject({ code: 'dto', path: ['tags'], constraint: 'type' });
    expect(issue.message).toContain('omit the member');
  });

  it('refuses a missing required member', () => {
    expect(issuesOf({})[0]).toMatchObject({ code: 'dto', path: ['title'], constraint: 'isDefined' });
  });

  it('does not coerce: a numeric string is not a number and "false" is not a boolean', () => {
    expect(issuesOf({ title: 'x', stars: '5' })[0]).toMatchObject({ path: ['stars'], constraint: 'type' });
    expect(issuesOf({ title: 'x', pinned: 'false' })[0]).toMatchObject({ path: ['pinned'], constraint: 'type' });
    expect(issuesOf({ title: 5 })[0]).toMatchObject({
      path: ['title'],
      constraint: 'type',
      message: 'must be a string, received number',
    });
  });

  it('accepts a numeric enum by value and refuses its member name', () => {
    expect(input.decode({ title: 'x', priority: 2 }).priority).toBe(Priority.High);
    expect(issuesOf({ title: 'x', priority: 'High' })[0]).toMatchObject({ path: ['priority'], constraint: 'type' });
    expect(issuesOf({ title: 'x', priority: 3 })[0]).toMatchObject({ path: ['priority'], constraint: 'isEnum' });
  });

  it('refuses arrays where a nested DTO object is expected, and arrays of arrays for DTO arrays', () => {
    expect(issuesOf({ title: 'x', main: [{ label: 'a' }] })[0]).toMatchObject({
      path: ['main'],
      message: 'must be an object, received array',
    });
    expect(issuesOf({ title: 'x', labels: [[{ label: 'a' }]] })[0]).toMatchObject({
      path: ['labels', 0],
      message: 'must be an object, received array',
    });
    expect(issuesOf({ title: 'x', labels: { label: 'a' } })[0]).toMatchObject({
      path: ['labels'],
      message: 'must be an array, received object',
    });
  });

  it('takes dates as RFC 3339 date-time strings only, as the generated and derived schemas say (a date alone used to pass the decoder)', () => {
    expect(input.decode({ title: 'x', due: '2024-02-29T10:00:00Z' }).due).toBeInstanceOf(Date);
    expect(issuesOf({ title: 'x', due: '2024-02-29' })[0]).toMatchObject({
      path: ['due'],
      constraint: 'type',
      message: notDateTime('another string'),
    });
    expect(input.inputSchema['properties']).toMatchObject({
      due: {
        type: 'string',
        format: 'date-time',
        pattern: DATE_TIME_PATTERN,
      },
    });
    for (const bad of [
      '2023-02-29T10:00:00Z',
      '2024-02-29',
      'yesterday',
      '1714564800000',
      '2024-05-01 12:00',
      '2016-12-31T23:59:60Z',
    ]) {
      expect(issuesOf({ title: 'x', due: bad })[0]).toMatchObject({ path: ['due'], constraint: 'type' });
    }
    expect(issuesOf({ title: 'x', due: 1714564800000 })[0]).toMatchObject({ path: ['due'], constraint: 'type' });
  });

  it('takes a date-time whose UTC instant lies in the years 0000-9999 only (its encoding is RFC 3339 again)', () => {
    // Regression (new-user review): 0000-01-01T00:30:00+01:00 was admitted, and encoded for the
    // policy and the store as -000001-12-31T23:30:00.000Z, which no schema admits on resume.
    for (const bad of ['0000-01-01T00:30:00+01:00', '9999-12-31T23:00:00-05:00', '0000-01-01T00:00:00.000+00:01']) {
      expect([bad, issuesOf({ title: 'x', due: bad })]).toEqual([
        bad,
        [expect.objectContaining({ path: ['due'], constraint: 'type', message: notDateTime(DATE_OUT_OF_YEARS) })],
      ]);
    }
    for (const [good, utc] of [
      ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
      ['0000-01-01T00:30:00-01:00', '0000-01-01T01:30:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
      ['9999-12-31T23:00:00+05:00', '9999-12-31T18:00:00.000Z'],
    ]) {
      const encoded = input.encode(input.decode({ title: 'x', due: good }));
      expect([good, encoded['due']]).toEqual([good, utc]);
      expect(input.decode({ title: 'x', due: utc }).due).toEqual(new Date(good));
    }
  });

  it('counts string lengths in code points', () => {
    const emoji = '\u{1F600}'; // two UTF-16 code units, one code point
    expect(input.decode({ title: emoji.repeat(120) }).title).toHaveLength(240);
    expect(issuesOf({ title: emoji.repeat(121) })[0]).toMatchObject({
      path: ['title'],
      constraint: 'isLength',
      message: CONSTRAINT_TEXT.tooLong(120),
    });
    // validator.js discounts presentation selectors; JSON Schema does not, nor do we.
    expect(issuesOf({ title: 'a\uFE0F'.repeat(61) })[0]).toMatchObject({ path: ['title'], constraint: 'isLength' });
    expect(issuesOf({ title: 'x', main: { label: 'a\uFE0F'.repeat(6) } })[0]).toMatchObject({
      path: ['main', 'label'],
      constraint: 'maxLength',
    });
  });

  it('names each failing path and constraint, one line per issue', () => {
    const err = errorOf({ title: '', stars: 11, labels: [{ label: 'much too long a label' }] });
    expect(err.issues.map((i) => [i.path, i.constraint])).toEqual(
      expect.arrayContaining([
        [['title'], 'isLength'],
        [['stars'], 'max'],
        [['labels', 0, 'label'], 'maxLength'],
      ]),
    );
    // One line per issue: its JSON Pointer, its message, and the constraint that failed.
    const lines = err.issues.map((i) => `${renderPointer(i.path)}: ${i.message} (${i.constraint})`);
    expect(err.message).toBe(`tool: invalid invocation: ${lines.join('\n')}`);
    expect(lines).toHaveLength(3);
  });

  it('lists at most 10 issues and counts the rest', () => {
    const labels = Array.from({ length: 25 }, () => ({ label: 'far too long label' }));
    const err = errorOf({ title: 'x', labels });
    expect(err.issues).toHaveLength(10);
    expect(err.message).toMatch(/\(15 more issues not shown\)$/);
  });

  it('decodes a free-form member nested 5,000 levels (admitted; it was a false too_deep, spec/dto/decoder-defects.spec.ts)', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    let copy = input.decode({ title: 'x', extra: deep } as never).extra as Record<string, unknown>;
    let levels = 0;
    for (; copy['a'] !== undefined; levels++) copy = copy['a'] as Record<string, unknown>;
    expect(levels).toBe(5000);
  });

  it('refuses a top level that is not an object', () => {
    for (const v of [null, [], 'x', 1]) expect(issuesOf(v)[0]).toMatchObject({ path: [], constraint: 'type' });
  });
});

describe('dtoInput with @Expose wire names', () => {
  class Renamed {
    @Expose({ name: 'first_name' }) @IsString() firstName!: string;
  }
  const renamed = dtoInput(Renamed);

  it('accepts the wire name only and reports paths in wire names', () => {
    expect(renamed.decode({ first_name: 'Ada' }).firstName).toBe('Ada');
    expect(() => renamed.decode({ firstName: 'Ada' })).toThrow(/unknown member "firstName"/);
    expect(renamed.inputSchema).toEqual({
      type: 'object',
      properties: { first_name: { type: 'string' } },
      additionalProperties: false,
      required: ['first_name'],
    });
  });
});

describe('dtoInput with a given inputSchema', () => {
  class Nullable {
    @IsOptional() @IsString() note?: string | null;
  }
  const schema = {
    type: 'object',
    properties: { note: { type: ['string', 'null'] } },
    additionalProperties: false,
  };

  it('validates against the schema first', () => {
    const withSchema = dtoInput(Nullable, { inputSchema: schema });
    expect(withSchema.inputSchema).toBe(schema);
    try {
      withSchema.decode({ note: 5 });
      throw new Error('accepted');
    } catch (e) {
      expect((e as ToolError).issues[0]).toMatchObject({ code: 'schema' });
    }
  });

  it('accepts null where the schema admits it, and refuses it without the schema', () => {
    expect(dtoInput(Nullable, { inputSchema: schema }).decode({ note: null }).note).toBeNull();
    expect(() => dtoInput(Nullable).decode({ note: null })).toThrow(/must not be null/);
  });

  it('refuses a schema that does not compile at dtoInput time', () => {
    expect(() => dtoInput(Nullable, { inputSchema: { type: 'not-a-type' } })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_SCHEMA' }),
    );
  });
});

describe('property initializers', () => {
  class WithDefault {
    @IsNumber() limit: number = 10;
  }

  it('make the member optional with that default', () => {
    const d = dtoInput(WithDefault);
    expect(d.decode({}).limit).toBe(10);
    expect(d.decode({ limit: 3 }).limit).toBe(3);
    expect(d.inputSchema).toEqual({
      type: 'object',
      properties: { limit: { type: 'number', default: 10 } },
      additionalProperties: false,
    });
  });
});

describe('emptyInput', () => {
  it('decodes {} only', () => {
    const e = emptyInput();
    expect(e.decode({})).toEqual({});
    expect(() => e.decode({ a: 1 })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ code: 'unknown_member', path: ['a'] })] }),
    );
    expect(e.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});
