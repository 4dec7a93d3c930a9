/**
 * Regressions found by two hostile reviews of the decoders compiled from DTO plans (lib/dto/fast.ts):
 * each DTO here once decoded differently with the fast paths on (`proven` or `built`) than on the
 * class-transformer path, in verdict, issues, instance class or member order. Each now agrees, on
 * the path the review's value took, and the path each lands on is pinned.
 */
import 'reflect-metadata';
import {
  Allow,
  IsDateString,
  IsDefined,
  IsEmail,
  IsInt,
  IsObject,
  IsOptional,
  IsArray,
  IsString,
  Min,
  MaxLength,
  ValidateBy,
  ValidateNested,
  getMetadataStorage,
  ValidateIf,
} from 'class-validator';
import { Expose, Type } from 'class-transformer';
import type { JsonObject, JsonValue } from '../../lib/protocol';
import { decodePathOf, dtoInputOf } from '../../lib/dto/dto-input';
import type { DecodePath } from '../../lib/dto/dto-input';
import { outcome, shape } from './fast-path-support';

const object = (properties: JsonObject, required: string[] = Object.keys(properties)): JsonObject => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** Both decoders of `dto` against `schema`: the path the fast one takes, and whether they agree on `value`. */
function check(dto: new () => object, schema: JsonObject, value: JsonValue): { path: DecodePath; agree: boolean } {
  const fast = dtoInputOf(dto, { inputSchema: schema }, true);
  const slow = dtoInputOf(dto, { inputSchema: schema }, false);
  const a = outcome(fast, value);
  const b = outcome(slow, value);
  return { path: decodePathOf(fast), agree: JSON.stringify(a) === JSON.stringify(b) };
}

describe('class-transformer would do more than assign: the class-transformer path', () => {
  it('an @Type function that reads its options (the class depends on the value)', () => {
    class Cat {
      @Allow() x: unknown;
    }
    class Dog {
      @Allow() x: unknown;
    }
    class Pet {
      @IsString() kind!: string;
      @ValidateNested()
      @Type((o) => ((o?.object as { kind?: string } | undefined)?.kind === 'cat' ? Cat : Dog))
      pet!: Cat | Dog;
    }
    const schema = object({ kind: { type: 'string' }, pet: { type: 'object' } });
    expect(check(Pet, schema, { kind: 'cat', pet: { x: 1 } })).toEqual({ path: 'transformed', agree: true });
    expect(shape(dtoInputOf(Pet, { inputSchema: schema }, true).decode({ kind: 'cat', pet: { x: 1 } }))).toMatchObject({
      own: [
        ['kind', expect.anything()],
        ['pet', { class: 'Cat' }],
      ],
    });
  });

  it('an @Type naming another constructor than the member is built with', () => {
    class Digits {
      @IsInt() @Type(() => Number) s!: string;
    }
    class Text {
      @Allow() @Type(() => String) n!: number;
    }
    class When {
      @Allow() @Type(() => String) when!: Date;
    }
    class Stamp {
      @IsDateString() @Type(() => Date) when!: string;
    }
    expect(check(Digits, object({ s: { type: 'string' } }), { s: '12' })).toEqual({ path: 'transformed', agree: true });
    expect(check(Text, object({ n: { type: 'number' } }), { n: 5 })).toEqual({ path: 'transformed', agree: true });
    const dateTime = { type: 'string', format: 'date-time' };
    expect(check(When, object({ when: dateTime }), { when: '2026-12-07T10:00:00Z' })).toEqual({
      path: 'transformed',
      agree: true,
    });
    expect(check(Stamp, object({ when: dateTime }), { when: '2026-12-07T10:00:00Z' })).toEqual({
      path: 'transformed',
      agree: true,
    });
  });

  it('an integer-like wire name, or an exposed free-form member (the members would come in another order)', () => {
    class Pin {
      @IsEmail() email!: string;
      @Expose({ name: '1' }) @IsString() first!: string;
    }
    class Tagged {
      @IsOptional() @IsObject() meta?: object;
      @Expose({ name: 'extra_tags' }) @IsOptional() @IsArray() tags?: string[];
      @IsEmail() email!: string;
    }
    expect(
      check(Pin, object({ email: { type: 'string' }, '1': { type: 'string' } }), { email: 'a@b.co', '1': 'x' }),
    ).toEqual({
      path: 'transformed',
      agree: true,
    });
    const tagged = object(
      { meta: { type: 'object' }, extra_tags: { type: 'array', items: { type: 'string' } }, email: { type: 'string' } },
      ['email'],
    );
    expect(check(Tagged, tagged, { meta: {}, extra_tags: ['x'], email: 'a@b.co' })).toEqual({
      path: 'transformed',
      agree: true,
    });
  });

  it("a wire name a base class's @Expose({ name }) claims for another property", () => {
    class Base {
      @Expose({ name: 'w' }) @IsString() x!: string;
    }
    class Sub extends Base {
      @Expose({ name: 'v' }) @IsString() declare x: string;
      @IsEmail() w!: string;
    }
    expect(check(Sub, object({ v: { type: 'string' }, w: { type: 'string' } }), { v: 'one', w: 'a@b.co' })).toEqual({
      path: 'transformed',
      agree: true,
    });
  });
});

describe('what the schema cannot prove: class-validator runs', () => {
  it('a default that breaks its own decorators', () => {
    class Stay {
      @IsOptional() @IsInt() @Min(1) nights = 0;
    }
    class Label {
      @IsOptional() @IsString() label = 5 as unknown as string;
    }
    expect(check(Stay, object({ nights: { type: 'integer', minimum: 1 } }, []), {})).toEqual({
      path: 'built',
      agree: true,
    });
    expect(check(Label, object({ label: { type: 'string' } }, []), {})).toEqual({ path: 'built', agree: true });
  });

  it("a custom decorator given a class-validator decorator's name", () => {
    const NotBad = () => ValidateBy({ name: 'isString', validator: { validate: (v: unknown) => v !== 'bad' } });
    class Custom {
      @NotBad() s!: string;
    }
    expect(check(Custom, object({ s: { type: 'string' } }), { s: 'bad' })).toEqual({ path: 'built', agree: true });
    class Each {
      @IsArray() @IsString({ each: true }) @MaxLength(3, { each: true }) l!: string[];
    }
    // class-validator's own decorators, `each` or not, are still recognized.
    const items = { type: 'array', items: { type: 'string', maxLength: 3 } };
    expect(check(Each, object({ l: items }), { l: ['abc'] })).toEqual({ path: 'proven', agree: true });
  });

  it('a nested DTO with no decorated member (class-validator refuses its instances)', () => {
    class Empty {}
    class Holder {
      @ValidateNested() @Type(() => Empty) e!: Empty;
    }
    expect(check(Holder, object({ e: object({}) }), { e: {} })).toEqual({ path: 'built', agree: true });
  });

  it('prefixItems: `items` covers only the items after them', () => {
    class List {
      @IsArray() @IsString({ each: true }) l!: string[];
    }
    const schema = object({ l: { type: 'array', prefixItems: [{ type: 'number' }], items: { type: 'string' } } });
    expect(check(List, schema, { l: [1, 'a'] })).toEqual({ path: 'built', agree: true });
  });

  it('a $ref below a nested $id (it resolves against that base, not the root)', () => {
    class Short {
      @IsString() @MaxLength(3) s!: string;
    }
    const schema: JsonObject = {
      ...object({
        s: { $id: 'https://example.com/inner', $defs: { S: { type: 'string' } }, allOf: [{ $ref: '#/$defs/S' }] },
      }),
      $defs: { S: { type: 'string', maxLength: 3 } },
    };
    expect(check(Short, schema, { s: 'abcdef' })).toEqual({ path: 'built', agree: true });
  });
});

describe('second review', () => {
  it('an `each` record on a member that is not an array (class-validator checks the value itself)', () => {
    class Loose {
      @IsString({ each: true }) v: unknown;
    }
    class Short {
      @MaxLength(3, { each: true }) s!: string;
    }
    class Items {
      @IsDefined({ each: true }) x: unknown;
    }
    expect(check(Loose, object({ v: { items: { type: 'string' } } }), { v: 5 })).toEqual({
      path: 'built',
      agree: true,
    });
    expect(
      check(Short, object({ s: { type: 'string', items: { type: 'string', maxLength: 3 } } }), { s: 'abcdef' }),
    ).toEqual({
      path: 'built',
      agree: true,
    });
    expect(check(Items, object({ x: {} }), { x: [null] })).toEqual({ path: 'built', agree: true });
  });

  it("a custom decorator given a system type's name (isDefined, whitelistValidation, nestedValidation)", () => {
    const named = (name: string) => () => ValidateBy({ name, validator: { validate: (v: unknown) => v !== 'bad' } });
    class Defined {
      @IsString() @(named('isDefined')()) s!: string;
    }
    class Listed {
      @IsString() @(named('whitelistValidation')()) s!: string;
    }
    expect(check(Defined, object({ s: { type: 'string' } }), { s: 'bad' })).toEqual({ path: 'built', agree: true });
    expect(check(Listed, object({ s: { type: 'string' } }), { s: 'bad' })).toEqual({ path: 'built', agree: true });
    class Plain {
      @IsDefined() @IsString() s!: string;
    }
    expect(check(Plain, object({ s: { type: 'string' } }), { s: 'bad' })).toEqual({ path: 'proven', agree: true });
  });

  it('a string rule on a Date member (the instance holds a Date)', () => {
    class When {
      @IsString() @Type(() => Date) when!: Date;
    }
    class Capped {
      @MaxLength(30) @Type(() => Date) when!: Date;
    }
    const dateTime = { type: 'string', format: 'date-time' };
    expect(check(When, object({ when: dateTime }), { when: '2026-01-01T00:00:00Z' })).toEqual({
      path: 'built',
      agree: true,
    });
    expect(check(Capped, object({ when: { ...dateTime, maxLength: 30 } }), { when: '2026-01-01T00:00:00Z' })).toEqual({
      path: 'built',
      agree: true,
    });
  });

  it('a Map of DTOs (class-transformer builds the Map), and a primitive @Type on a nested member', () => {
    class Child {
      @IsString() name!: string;
    }
    class Named {
      @ValidateNested() @Type(() => Child) m!: Map<string, Child>;
    }
    class Odd {
      @ValidateNested() @Type(() => Number) child!: Child;
    }
    const child = object({ name: { type: 'string' } });
    expect(check(Named, object({ m: child }), { m: { name: 'x' } })).toEqual({ path: 'transformed', agree: true });
    expect(check(Named, object({ m: { type: 'object' } }), { m: { name: 'x' } })).toEqual({
      path: 'transformed',
      agree: true,
    });
    expect(check(Odd, object({ child: object({}) }), { child: {} })).toEqual({ path: 'transformed', agree: true });
  });
});

describe('third review', () => {
  it('a `validateIf` option runs its user code on both paths (here it throws on both)', () => {
    let asked = 0;
    class Flagged {
      @IsString({ validateIf: (o: { settings: { strict: boolean } }) => (asked++, o.settings.strict) }) name!: string;
    }
    expect(check(Flagged, object({ name: { type: 'string' } }), { name: 'x' })).toEqual({ path: 'built', agree: true });
    expect(asked).toBe(2);
  });

  it('binds a schema with a data array too long to spread (130,000 enum values)', () => {
    class Big {
      @IsInt() n!: number;
    }
    const schema = object({ n: { type: 'integer', enum: Array.from({ length: 130_000 }, (_, i) => i) } });
    expect(check(Big, schema, { n: 7 })).toEqual({ path: 'proven', agree: true });
  });

  it('runs no custom validator at bind, even for a DTO with defaults', () => {
    let validated = 0;
    const Audited = () => ValidateBy({ name: 'audited', validator: { validate: () => (validated++, true) } });
    class Req {
      @IsOptional() @IsString() @Audited() region = 'eu';
    }
    const input = dtoInputOf(Req, { inputSchema: object({ region: { type: 'string' } }, []) }, true);
    expect([decodePathOf(input), validated]).toEqual(['built', 0]);
  });

  it('reads base URIs in schemas only: an `id` in examples or defaults is data', () => {
    class Item {
      @IsString() id!: string;
    }
    const schema: JsonObject = {
      ...object({ id: { type: 'string', examples: [{ id: 'x', $id: 'y' }] } }),
      examples: [{ id: 'x' }],
    };
    expect(check(Item, schema, { id: 'a' })).toEqual({ path: 'proven', agree: true });
  });
});

describe('fourth review', () => {
  it("a hand-made conditional record named 'isOptional' with another condition", () => {
    // Nullable but required: skip the checks only for null. A @ValidateIf record renamed as a
    // hand-made decorator would name it (class-validator calls its condition, whatever its name).
    class Q {
      @ValidateIf((o: { q?: unknown }) => o.q !== null) @IsString() @MaxLength(5) q?: string;
    }
    const record = getMetadataStorage()
      .getTargetValidationMetadatas(Q, '', true, false)
      .find((m) => m.type === 'conditionalValidation');
    if (record === undefined) throw new Error('no conditional record');
    record.name = 'isOptional';
    const schema = object({ q: { type: ['string', 'null'], maxLength: 5 } }, []);
    expect(check(Q, schema, {})).toEqual({ path: 'built', agree: true });
    class R {
      @IsOptional() @IsString() @MaxLength(5) q?: string;
    }
    expect(check(R, schema, {})).toEqual({ path: 'proven', agree: true });
  });
});
