/**
 * The fast path of a proven DTO (lib/dto/fast.ts) against the class-validator path it replaces, on
 * DTOs written here and the bench's: on values generated from the input schema (fast-check, fixed
 * seeds) and on boundary and mutated arguments on both sides of every constraint, both decoders give
 * the same verdict, the same refusal (code, issue codes, paths, constraints) and the same instance
 * (class, own members in order, nested instances, Dates), and the encoder states it the same. What a
 * schema does not prove keeps the class-validator path. The fixture zoo and the decorator catalogue:
 * spec/schema/fast-path-zoo.spec.ts.
 */
import 'reflect-metadata';
import { Expose, Transform, Type } from 'class-transformer';
import { IsDate, IsEmail, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { ToolError, type JsonObject } from '../../lib/protocol';
import { DATE_TIME_PATTERN } from '../../lib/dto/contract-rules';
import { decodePathOf, dtoInputOf, usesFastPath } from '../../lib/dto/dto-input';
import { BENCH_MANIFEST } from '../../bench/note-dto';
import * as bench from '../../bench/note-dto';
import { compare, outcome, pairFor, pairOf, type Pair } from './fast-path-support';

/** Both decoders agree on 60 generated values and their mutants, more than 10 accepted and refused. */
function expectAgreement(pair: Pair): void {
  const { found, accepted, refused } = compare(pair, 60);
  expect(found.slice(0, 3)).toEqual([]);
  expect(accepted).toBeGreaterThan(10);
  expect(refused).toBeGreaterThan(10);
}

const benchPairs = BENCH_MANIFEST.tools.map((t) => pairOf(t, new Map(Object.entries(bench))));

describe('which DTOs a schema proves', () => {
  it('proves the bench DTOs', () => {
    expect(benchPairs.map((p) => usesFastPath(p.fast))).toEqual([true, true]);
    expect(benchPairs.map((p) => usesFastPath(p.slow))).toEqual([false, false]);
  });

  it('runs class-validator for a member the schema does not state or a schema that says less, class-transformer for a transform', () => {
    class Mail {
      @IsEmail() email!: string;
    }
    class Trimmed {
      @IsString() @Transform(({ value }) => String(value).trim()) name!: string;
    }
    class Titled {
      @IsString() @Length(1, 10) title!: string;
    }
    const object = (properties: JsonObject): JsonObject => ({
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    const mail = dtoInputOf(Mail, { inputSchema: object({ email: { type: 'string' } }) }, true);
    const trimmed = dtoInputOf(Trimmed, { inputSchema: object({ name: { type: 'string' } }) }, true);
    const weaker = dtoInputOf(Titled, { inputSchema: object({ title: { type: 'string', maxLength: 20 } }) }, true);
    const exact = dtoInputOf(
      Titled,
      { inputSchema: object({ title: { type: 'string', minLength: 1, maxLength: 10 } }) },
      true,
    );
    expect([mail, trimmed, weaker, exact].map(decodePathOf)).toEqual(['built', 'transformed', 'built', 'proven']);
    expect(decodePathOf(dtoInputOf(Mail, { inputSchema: object({ email: { type: 'string' } }) }, false))).toBe(
      'transformed',
    );
    // The weaker schema admits what @Length refuses: class-validator still refuses it.
    expect(() => weaker.decode({ title: 'much too long title' })).toThrow(ToolError);
    expect(() => mail.decode({ email: 'not an address' })).toThrow(ToolError);
  });
});

describe('a proven DTO decodes as class-validator does', () => {
  class Guest {
    @IsString() @Length(1, 20) name!: string;
    @IsInt() @Min(0) @Max(120) age!: number;
  }
  class Stay {
    @Expose({ name: 'check_in' }) @IsDate() @Type(() => Date) checkIn!: Date;
    @ValidateNested({ each: true }) @Type(() => Guest) guests!: Guest[];
    @IsOptional() @IsInt() @Min(1) nights = 1;
    @IsOptional() @IsString() note?: string | null;
  }
  const schema: JsonObject = {
    type: 'object',
    properties: {
      check_in: { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN },
      guests: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 20 },
            age: { type: 'integer', minimum: 0, maximum: 120 },
          },
          required: ['name', 'age'],
          additionalProperties: false,
        },
      },
      nights: { type: 'integer', minimum: 1, default: 1 },
      note: { type: ['string', 'null'] },
    },
    required: ['check_in', 'guests'],
    additionalProperties: false,
  };
  const pair = pairFor('Stay', Stay, schema);

  it('is proven', () => {
    expect(usesFastPath(pair.fast)).toBe(true);
  });

  it('builds the same instance: class, wire names, nested instances, Dates, defaults, sanctioned null', () => {
    const value = { check_in: '2026-12-02T10:00:00Z', guests: [{ name: 'Ada', age: 36 }], note: null };
    const instance = pair.fast.decode(value) as Stay;
    expect(instance).toBeInstanceOf(Stay);
    expect(instance.guests[0]).toBeInstanceOf(Guest);
    expect(instance.checkIn).toEqual(new Date('2026-12-02T10:00:00Z'));
    expect(instance.nights).toBe(1);
    expect(instance.note).toBeNull();
    expect(outcome(pair.fast, value)).toEqual(outcome(pair.slow, value));
  });

  it('leaves a date-time the schema admits but Date cannot hold to class-validator', () => {
    // 2026-02-31 is a day no calendar has; Date rolls it over, and whatever each path says, both agree.
    for (const day of ['2026-02-31T10:00:00Z', '2026-13-01T10:00:00Z', '0000-01-01T00:00:00Z']) {
      const value = { check_in: day, guests: [] };
      expect(outcome(pair.fast, value)).toEqual(outcome(pair.slow, value));
    }
  });

  it('agrees on generated and mutated arguments', () => expectAgreement(pair));
});

describe('bench DTOs', () => {
  it('give the class-validator verdict, refusal and instance on generated and mutated arguments', () => {
    for (const pair of benchPairs) {
      const { found, accepted, refused } = compare(pair, 30);
      expect(found.slice(0, 3)).toEqual([]);
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    }
  });
});

describe('a plain DTO with a decorator the schema cannot state', () => {
  // Built from the plan (no class-transformer), then checked by class-validator: the same verdict,
  // refusal and instance as the class-transformer path.
  class Contact {
    @IsEmail() email!: string;
    @IsOptional() @IsString() @Length(1, 40) name?: string;
  }
  class Invite {
    @Expose({ name: 'sent_at' }) @IsDate() @Type(() => Date) sentAt!: Date;
    @ValidateNested({ each: true }) @Type(() => Contact) to!: Contact[];
    @IsOptional() @IsInt() @Min(1) @Max(3) reminders = 1;
  }
  const contact: JsonObject = {
    type: 'object',
    properties: { email: { type: 'string' }, name: { type: 'string', minLength: 1, maxLength: 40 } },
    required: ['email'],
    additionalProperties: false,
  };
  const schema: JsonObject = {
    type: 'object',
    properties: {
      sent_at: { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN },
      to: { type: 'array', items: contact },
      reminders: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
    },
    required: ['sent_at', 'to'],
    additionalProperties: false,
  };
  const pair = pairFor('Invite', Invite, schema);

  it('is built, not proven', () => {
    expect(decodePathOf(pair.fast)).toBe('built');
  });

  it('refuses what only class-validator refuses, at the nested place, as the class-transformer path does', () => {
    // The schema admits any string as the email; validator.js isEmail refuses this one.
    const value = { sent_at: '2026-12-07T10:00:00Z', to: [{ email: 'ada@example.com' }, { email: 'not an address' }] };
    expect(outcome(pair.fast, value)).toEqual({
      refused: 'ERR_INVALID_INVOCATION',
      issues: [{ code: 'dto', path: ['to', 1, 'email'], constraint: 'isEmail' }],
    });
    expect(outcome(pair.fast, value)).toEqual(outcome(pair.slow, value));
    const valid = { sent_at: '2026-12-07T10:00:00Z', to: [{ email: 'ada@example.com', name: 'Ada' }] };
    const instance = pair.fast.decode(valid) as Invite;
    expect(instance).toBeInstanceOf(Invite);
    expect(instance.to[0]).toBeInstanceOf(Contact);
    expect(instance.sentAt).toEqual(new Date('2026-12-07T10:00:00Z'));
    expect(instance.reminders).toBe(1);
    expect(outcome(pair.fast, valid)).toEqual(outcome(pair.slow, valid));
  });

  it('agrees on generated and mutated arguments', () => expectAgreement(pair));
});
