/**
 * A validator or transformer that throws is a defect of the tool, not the model's
 * mistake. The decoder reported a throwing custom `@Validate` constraint (its database is down) as
 * "the arguments could not be decoded" and a RangeError of user code as "nested too deeply" (both
 * invalid arguments, "fix the call and try again"). Now the throw passes through the decoder
 * unchanged, prepare wraps it in InputValidatorError, and the model sees `error: tool "t" failed`.
 * No admitted value overflows the decoder itself: it recurses along DTO nesting only (at most
 * MAX_DTO_DEPTH levels), and copies free-form values iteratively.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  IsOptional,
  IsString,
  Validate,
  ValidateBy,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { MAX_DTO_DEPTH } from '../../lib/dto/structure';
import { dtoTooDeep } from '../../lib/dto/messages';
import {
  FuncTool,
  InputValidatorError,
  Registry,
  ToolError,
  findError,
  isAdmissionRefusal,
  type JsonValue,
} from '../../lib/protocol';
import { prepareToolCall, renderOutcome } from '../../lib/providers';

const outage = new Error('connect ECONNREFUSED 127.0.0.1:5432');

@ValidatorConstraint({ name: 'knownCustomer' })
class KnownCustomer implements ValidatorConstraintInterface {
  validate(): boolean {
    throw outage;
  }
}

class Lookup {
  @IsString() @Validate(KnownCustomer) customer!: string;
}

const overflow = new RangeError('Maximum call stack size exceeded');

class Recursing {
  @ValidateBy({
    name: 'walks',
    validator: {
      validate: () => {
        throw overflow;
      },
    },
  })
  path!: string;
}

class Throwing {
  @ValidateBy({
    name: 'throwsText',
    validator: {
      validate: () => {
        throw 'not an Error';
      },
    },
  })
  code!: string;
}

/** The model's call through a provider projection: what the developer gets and what the model sees. */
function propose(dto: new () => object, args: string): { error: unknown; seen: string | undefined } {
  const input = dtoInput(dto);
  const registry = new Registry(
    FuncTool.create({ name: 't', inputSchema: input.inputSchema, decode: input.decode }, () => 'ran'),
  );
  try {
    prepareToolCall(registry, { id: 'call_1', request: { name: 't', arguments: args } });
  } catch (error) {
    return { error, seen: renderOutcome('t', { error }).output.asText() };
  }
  return { error: undefined, seen: undefined };
}

describe("a throwing validator is the tool's failure, not invalid arguments", () => {
  it.each([
    ['a custom @Validate constraint whose database is down', Lookup, '{"customer":"c-1"}', outage],
    ['a validator that throws a RangeError', Recursing, '{"path":"a"}', overflow],
    ['a validator that throws a string', Throwing, '{"code":"x"}', 'not an Error'],
  ])(
    '%s: ERR_INVALID_INVOCATION wrapping InputValidatorError with the thrown value; the model sees error: tool "t" failed',
    (_l, dto, args, thrown) => {
      const { error, seen } = propose(dto, args);
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('ERR_INVALID_INVOCATION');
      expect(findError(error, InputValidatorError)?.thrown).toBe(thrown);
      expect(isAdmissionRefusal(error)).toBe(false);
      expect(seen).toBe('error: tool "t" failed');
    },
  );

  it('decode itself lets the thrown value through unchanged (it is not invalid input)', () => {
    expect(() => dtoInput(Lookup).decode({ customer: 'c-1' })).toThrow(outage);
    expect(() => dtoInput(Recursing).decode({ path: 'a' })).toThrow(overflow);
  });

  it('a refusal stays a refusal: invalid arguments, rendered for the model', () => {
    const { error, seen } = propose(Lookup, '{"customer":1}');
    expect(isAdmissionRefusal(error)).toBe(true);
    expect(findError(error, InputValidatorError)).toBeUndefined();
    expect(seen).toMatch(/^error: invalid arguments for tool "t"/);
  });
});

class Free {
  @Allow() value!: unknown;
}

class Node {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[];
}

function nested(levels: number): JsonValue {
  let v: JsonValue = 1;
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? { a: v } : [v];
  return v;
}

/** Whether two values nested as `nested()` makes them are equal and share no object (iterative: jest's toEqual recurses). */
function sameCopy(a: JsonValue, b: JsonValue): boolean {
  for (;;) {
    if (a === null || typeof a !== 'object') return a === b;
    if (a === b || b === null || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
    if (Object.keys(a).length !== 1 || Object.keys(b).length !== 1) return false;
    [a, b] = Array.isArray(a)
      ? [a[0] as JsonValue, (b as JsonValue[])[0] as JsonValue]
      : [a['a'] as JsonValue, (b as Record<string, JsonValue>)['a'] as JsonValue];
  }
}

/** The JSON text of tree(levels), built without JSON.stringify (which recurses). */
function treeText(levels: number): string {
  return '{"name":"n","children":['.repeat(levels - 1) + '{"name":"leaf"}' + ']}'.repeat(levels - 1);
}

function tree(levels: number): JsonValue {
  let v: JsonValue = { name: 'leaf' };
  for (let i = 1; i < levels; i++) v = { name: 'n', children: [v] };
  return v;
}

describe('admitted depth never overflows the decoder', () => {
  it('decodes a free-form value nested 9,999 levels (the admission limit is 10,000) instead of a false too_deep', () => {
    const value = nested(9_999);
    const decoded = dtoInput(Free).decode({ value }) as Free;
    expect(sameCopy(value, decoded.value as JsonValue)).toBe(true);
  });

  it(`decodes a recursive DTO ${MAX_DTO_DEPTH} levels deep, and refuses ${MAX_DTO_DEPTH + 1} with too_deep at the deepest object`, () => {
    expect(MAX_DTO_DEPTH).toBe(100);
    const ok = dtoInput(Node).decode(tree(MAX_DTO_DEPTH) as never);
    expect(ok).toBeInstanceOf(Node);
    let error: unknown;
    try {
      dtoInput(Node).decode(tree(MAX_DTO_DEPTH + 1) as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    const path = Array.from({ length: MAX_DTO_DEPTH }, () => ['children', 0]).flat();
    expect((error as ToolError).issues).toEqual([
      { code: 'too_deep', path, message: dtoTooDeep('Node', MAX_DTO_DEPTH) },
    ]);
  });

  it('a recursive DTO 5,000 levels deep is a too_deep refusal through prepare, never a RangeError', () => {
    const { error, seen } = propose(Node, treeText(5_000));
    expect(isAdmissionRefusal(error)).toBe(true);
    expect((error as ToolError).issues?.[0]?.code).toBe('too_deep');
    expect(seen).toMatch(/^error: invalid arguments for tool "t"/);
  });
});
