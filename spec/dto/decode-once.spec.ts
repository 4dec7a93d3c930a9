/**
 * A dtoInput decoder runs once per invocation: FuncTool decodes the admitted value at
 * prepare, skips the decoder's own schema pass when the contract's schema validates exactly as the
 * decoder's does, and hands that input to the invocation's first call. Later calls decode afresh.
 */
import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, MaxLength, Validate, ValidatorConstraint } from 'class-validator';
import type { ValidatorConstraintInterface } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { FuncTool, Guard, ToolError, bind } from '../../lib/protocol';
import type { Authorization, JsonObject } from '../../lib/protocol';

let validations = 0;

@ValidatorConstraint({ name: 'counted' })
class Counted implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    validations += 1;
    return value !== 'refused-here';
  }
}

class NoteInput {
  @IsString() @MaxLength(20) @Validate(Counted) title!: string;
  @IsInt() @Max(5) stars!: number;
}

const SCHEMA: JsonObject = {
  type: 'object',
  properties: { title: { type: 'string', maxLength: 20 }, stars: { type: 'integer', maximum: 5 } },
  required: ['title', 'stars'],
  additionalProperties: false,
};

function noteTool(inputSchema: JsonObject, seen: NoteInput[]) {
  const input = dtoInput(NoteInput, { inputSchema: SCHEMA });
  return FuncTool.create({ name: 'note', inputSchema, decode: input.decode }, (note: NoteInput) => {
    seen.push(note);
    return { title: note.title };
  });
}

beforeEach(() => {
  validations = 0;
});

describe('a dtoInput decoder behind a FuncTool', () => {
  it('validates once for prepare and the first call, and hands that very instance to the function', async () => {
    const seen: NoteInput[] = [];
    const binding = bind(new Guard({ tool: noteTool(SCHEMA, seen), authorizer: () => true }));
    const invocation = binding.contract.prepare({ name: 'note', arguments: '{"title":"plan","stars":3}' });
    expect(validations).toBe(1);
    await binding.call(invocation);
    expect(validations).toBe(1);
    expect(seen[0]).toBeInstanceOf(NoteInput);
    expect({ ...seen[0] }).toEqual({ title: 'plan', stars: 3 });
  });

  it('decodes afresh (a new instance) when the same invocation is called again', async () => {
    const seen: NoteInput[] = [];
    const binding = bind(noteTool(SCHEMA, seen));
    const invocation = binding.contract.prepare({ name: 'note', arguments: '{"title":"plan","stars":3}' });
    await binding.call(invocation);
    seen[0].title = 'changed by the function';
    await binding.call(invocation);
    expect(validations).toBe(2);
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen[1].title).toBe('plan');
  });

  it('still runs its own schema when the contract was compiled from a looser schema', () => {
    const loose: JsonObject = {
      type: 'object',
      properties: { title: { type: 'string' }, stars: { type: 'integer' } },
      additionalProperties: false,
    };
    const binding = bind(noteTool(loose, []));
    let refusal: unknown;
    try {
      binding.contract.prepare({ name: 'note', arguments: '{"title":"plan","stars":9}' });
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(ToolError);
    // The decoder's own schema (maximum 5) refused it, before class-validator ran.
    expect((refusal as ToolError).message).toContain('/stars: must be <= 5');
    expect(validations).toBe(0);
  });

  it('skips only the schema pass: the class-validator checks still refuse', () => {
    const binding = bind(noteTool(SCHEMA, []));
    expect(() => binding.contract.prepare({ name: 'note', arguments: '{"title":"refused-here","stars":1}' })).toThrow(
      /\/title: .*counted/,
    );
    expect(() => binding.contract.prepare({ name: 'note', arguments: '{"title":"x","stars":1}' })).not.toThrow();
    expect(validations).toBe(2);
  });
});

let counter = 2;

/** A non-deterministic default: what docs/decorators.md and dtoInput's TSDoc tell DTO authors not to write. */
class Sequenced {
  @IsOptional() @IsInt() seq: number = ++counter;
}

describe('why defaults must be deterministic (docs/decorators.md, dtoInput)', () => {
  it('a retried invocation judged once runs the first call with the judged default and decodes again later', async () => {
    const judged: string[] = [];
    const ran: number[] = [];
    const input = dtoInput(Sequenced);
    const tool = FuncTool.create(
      { name: 'seq', inputSchema: input.inputSchema, decode: input.decode },
      (dto: Sequenced) => ran.push(dto.seq),
    );
    const binding = bind(new Guard({ tool, authorizer: (a: Authorization) => judged.push(a.arguments) > 0 }));
    const invocation = binding.contract.prepare({ name: 'seq', arguments: '{}' });
    await binding.call(invocation);
    await binding.call(invocation);
    expect(judged).toHaveLength(2);
    expect(judged[1]).toBe(judged[0]);
    const seq = (JSON.parse(judged[0]) as { seq: number }).seq;
    expect(ran[0]).toBe(seq);
    expect(ran[1]).not.toBe(seq);
  });
});
