/**
 * The constraints whose verdict the decoder decides itself rather than class-validator
 * (lib/dto/overrides.ts), so it agrees with the schema the model is shown.
 *
 * `@Matches`: the decoder's `@Matches` runs on RE2 (linear time), the engine of the schema's
 * `pattern`, with the same verdict; class-validator's backtracking RegExp never sees model-sent text.
 *
 * `@IsNumber({ maxDecimalPlaces })`: class-validator reads the places off `String(value)`, so it
 * throws on 1e-7 ("a validator or transformer threw") and miscounts 1.5e-7. The decoder counts the
 * places of the shortest decimal form itself, and leaves class-validator's metadata as it found it.
 *
 * Null items under `each: true`: class-validator runs the check on a null item and (almost always)
 * refuses it, and the generator drops null from such items' schema. The checks the decoder decides
 * itself (lengths in code points, enum values) follow the same rule, even when a hand-written input
 * schema admits the null item.
 */
import 'reflect-metadata';
import {
  IsArray,
  IsEnum,
  IsInt,
  IsNumber,
  IsPositive,
  IsString,
  Length,
  Matches,
  getMetadataStorage,
} from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { CONSTRAINT_TEXT } from '../../lib/dto/messages';
import { decimalPlaces } from '../../lib/dto/overrides';
import {
  FuncTool,
  ToolError,
  bind,
  compileSchemaValue,
  type AdmissionIssue,
  type JsonObject,
  type JsonValue,
} from '../../lib/protocol';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const NESTED = /^([a-z0-9]+-?)+$/;

class Contact {
  @IsString() @Matches(EMAIL) email!: string;
  @IsString() @Matches(NESTED) slug!: string;
}

class Tags {
  @IsArray() @Matches(/^\S+$/, { each: true }) tags!: string[];
}

function thrown(run: () => unknown): ToolError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return e as ToolError;
  }
  throw new Error('expected a ToolError');
}

function contactTool(withSchema: boolean) {
  const inputSchema = {
    type: 'object',
    properties: { email: { type: 'string', pattern: EMAIL.source }, slug: { type: 'string', pattern: NESTED.source } },
    required: ['email', 'slug'],
    additionalProperties: false,
  };
  const input = withSchema ? dtoInput(Contact, { inputSchema }) : dtoInput(Contact);
  const fn = jest.fn(() => 'ran');
  const tool = FuncTool.create({ name: 'contact', inputSchema: input.inputSchema, decode: input.decode }, fn);
  const contract = bind(tool).contract;
  return { fn, prepare: (value: JsonValue) => contract.prepare({ name: 'contact', arguments: JSON.stringify(value) }) };
}

const ok = { email: 'ann@example.org', slug: 'abc-def' };
const adversarial: [string, JsonValue, string][] = [
  [
    'a 1 MiB email ("a@", dots, "@": quadratic on a RegExp)',
    { ...ok, email: `a@${'.'.repeat((1 << 20) - 64)}@` },
    'email',
  ],
  ['the 42-byte slug', { ...ok, slug: `${'a'.repeat(41)}!` }, 'slug'],
];

describe('@Matches in the decoder', () => {
  it.each(adversarial)('a DTO tool without a schema refuses %s at prepare, constraint matches', (_, value, member) => {
    const { fn, prepare } = contactTool(false);
    const err = thrown(() => prepare(value));
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.issues).toEqual([expect.objectContaining({ code: 'dto', path: [member], constraint: 'matches' })]);
    expect(fn).not.toHaveBeenCalled();
    expect(() => prepare(ok)).not.toThrow();
  });

  it.each(adversarial)('a DTO tool with its schema refuses %s with the pattern issue', (_, value, member) => {
    const { fn, prepare } = contactTool(true);
    const err = thrown(() => prepare(value));
    expect(err.issues[0]).toMatchObject({ code: 'schema', path: [member], keyword: 'pattern' });
    expect(fn).not.toHaveBeenCalled();
  });

  it("says which pattern failed, in class-validator's words", () => {
    const err = thrown(() => dtoInput(Contact).decode({ ...ok, slug: 'a b' }));
    expect(err.issues[0].message).toBe(CONSTRAINT_TEXT.matches(String(NESTED)));
  });

  it("gives the schema pattern's verdict without the u flag too: \\S refuses U+00A0 and takes an emoji whole", () => {
    const schema = compileSchemaValue({ type: 'string', pattern: '^\\S+$' });
    const decode = dtoInput(Tags).decode;
    for (const [tag, admitted] of [
      ['a\u00a0b', false],
      ['😀', true],
      ['a\u2028', false],
      ['plain', true],
    ] as const) {
      expect(schema.validate(tag).length === 0).toBe(admitted);
      const issues = admitted ? [] : thrown(() => decode({ tags: ['ok', tag] })).issues;
      expect(issues.map((i) => [i.path, i.constraint])).toEqual(admitted ? [] : [[['tags', 1], 'matches']]);
      if (admitted) expect(decode({ tags: [tag] }).tags).toEqual([tag]);
    }
  });

  it("never runs class-validator's RegExp on the value, and leaves the metadata as it was", () => {
    const pattern = /^[a-z]+$/;
    const spy = jest.fn(() => null);
    Object.defineProperty(pattern, Symbol.match, { value: spy });
    class Word {
      @IsString() @Matches(pattern) word!: string;
    }
    const decode = dtoInput(Word).decode;
    expect(decode({ word: 'abc' }).word).toBe('abc');
    expect(thrown(() => decode({ word: 'ABC' })).issues[0]).toMatchObject({ path: ['word'], constraint: 'matches' });
    expect(thrown(() => decode({ word: 5 })).code).toBe('ERR_INVALID_INVOCATION');
    expect(spy).not.toHaveBeenCalled();
    expect(decode({ word: 'xyz' }).word).toBe('xyz');
  });

  it('honours the flags of a string pattern (the generator refuses them; a DTO with no manifest may have them)', () => {
    class Code {
      @IsString() @Matches('^ab$', 'i') code!: string;
    }
    expect(dtoInput(Code).decode({ code: 'AB' }).code).toBe('AB');
    const refused = thrown(() => dtoInput(Code).decode({ code: 'ABC' }));
    expect(refused.issues[0]).toMatchObject({ path: ['code'], constraint: 'matches' });
  });

  it.each([
    [/(a)\1/, /backreference/],
    [/(?=x)x/, /lookaround/],
  ])('refuses @Matches(%s) at dtoInput, ERR_INVALID_TOOL naming the member', (pattern, reason) => {
    class Bad {
      @IsString() @Matches(pattern) code!: string;
    }
    const err = thrown(() => dtoInput(Bad));
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toContain(`Bad.code: @Matches pattern ${JSON.stringify(pattern.source)}`);
    expect(err.message).toMatch(reason);
  });
});

class Price {
  @IsNumber({ maxDecimalPlaces: 2 }) @IsPositive() amount!: number;
  @IsNumber({ maxDecimalPlaces: 8 }, { each: true }) rates!: number[];
}

/** 'accepted', or where and by which constraint the decoder refused the arguments. */
function decodePrice(json: string): 'accepted' | { path: readonly (string | number)[]; constraint?: string }[] {
  try {
    dtoInput(Price).decode(JSON.parse(json) as JsonValue);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    return ((e as ToolError).issues ?? []).map(({ path, constraint }) => ({ path, constraint }));
  }
}

describe('maxDecimalPlaces', () => {
  it('counts the places of the shortest decimal form, exponent forms included', () => {
    expect([0.5, 0.125, 1e-7, 1.5e-7, 12.34, 1e21, 5, -0.001].map(decimalPlaces)).toEqual([1, 3, 7, 8, 2, 0, 0, 3]);
  });

  it('refuses 1e-7 beyond the places as an ordinary issue, never as a crash', () => {
    expect(decodePrice('{"amount":1e-7,"rates":[]}')).toEqual([{ path: ['amount'], constraint: 'isNumber' }]);
  });

  it('accepts exponent forms within the places, and refuses 1.5e-7 (8 places) that class-validator would count as 4', () => {
    expect(decodePrice('{"amount":0.25,"rates":[1e-7,1.5e-8,0.12345678]}')).toEqual([
      { path: ['rates', 1], constraint: 'isNumber' },
    ]);
    expect(decodePrice('{"amount":0.25,"rates":[1e-7,0.12345678]}')).toBe('accepted');
    expect(decodePrice('{"amount":1.5e-7,"rates":[]}')).toEqual([{ path: ['amount'], constraint: 'isNumber' }]);
  });

  it('keeps the other checks of the member (IsPositive) and leaves the metadata as it was', () => {
    expect(decodePrice('{"amount":-1e-7,"rates":[]}')).toContainEqual({ path: ['amount'], constraint: 'isPositive' });
    const options = getMetadataStorage()
      .getTargetValidationMetadatas(Price, '', true, false)
      .filter((r) => r.name === 'isNumber')
      .map((r) => (r.constraints[0] as { maxDecimalPlaces?: number }).maxDecimalPlaces);
    expect(options.sort()).toEqual([2, 8]);
  });
});

enum Level {
  Low = 1,
  High = 2,
}

class Lists {
  @IsArray() @Length(1, 3, { each: true }) names!: (string | null)[];
  @IsArray() @IsEnum(Level, { each: true }) levels!: (Level | null)[];
  @IsArray() @IsInt({ each: true }) counts!: (number | null)[];
}

const lenient: JsonObject = {
  type: 'object',
  properties: {
    names: { type: 'array', items: { type: ['string', 'null'] } },
    levels: { type: 'array', items: { enum: [1, 2, null] } },
    counts: { type: 'array', items: { type: ['integer', 'null'] } },
  },
  required: ['names', 'levels', 'counts'],
  additionalProperties: false,
};

/** 'accepted', or the decoder's issues (path, constraint, message). */
function decodeLists(value: JsonValue): 'accepted' | readonly Partial<AdmissionIssue>[] {
  try {
    dtoInput(Lists, { inputSchema: lenient }).decode(value);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    return (e as ToolError).issues.map(({ path, constraint, message }) => ({ path, constraint, message }));
  }
}

describe('null items under each: true', () => {
  it("are refused by the overridden length and enum checks, as by class-validator's own", () => {
    const each = CONSTRAINT_TEXT.eachPrefix;
    expect(decodeLists({ names: ['ab', null], levels: [], counts: [] })).toEqual([
      { path: ['names', 1], constraint: 'isLength', message: each + CONSTRAINT_TEXT.notString },
    ]);
    expect(decodeLists({ names: [], levels: [1, null], counts: [] })).toEqual([
      { path: ['levels', 1], constraint: 'isEnum', message: each + CONSTRAINT_TEXT.isEnum([1, 2]) },
    ]);
    // class-validator's own check reports the array member, with its own text.
    expect(decodeLists({ names: [], levels: [], counts: [3, null] })).toEqual([
      expect.objectContaining({ path: ['counts'], constraint: 'isInt' }),
    ]);
    expect(decodeLists({ names: ['ab'], levels: [2], counts: [3] })).toBe('accepted');
  });
});
