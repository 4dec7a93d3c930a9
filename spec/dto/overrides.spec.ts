/**
 * The decoder's `@Matches` runs on RE2 (linear time), the engine of the schema's
 * `pattern`, with the same verdict; class-validator's backtracking RegExp never sees model-sent text.
 */
import 'reflect-metadata';
import { IsArray, IsString, Matches } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { FuncTool, ToolError, bind, compileSchemaValue, type JsonValue } from '../../lib/protocol';

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
    expect(err.issues[0].message).toBe(`must match ${String(NESTED)} regular expression`);
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
