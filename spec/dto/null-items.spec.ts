/**
 * A null item under `each: true`: class-validator runs the check on it and (almost always) refuses
 * it, and the generator drops null from such items' schema. The checks the decoder decides itself
 * (lengths in code points, enum values) follow the same rule, even when a hand-written input schema
 * admits the null item.
 */
import 'reflect-metadata';
import { IsArray, IsEnum, IsInt, Length } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { ToolError, type JsonObject, type JsonValue } from '../../lib/protocol';

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

function decode(value: JsonValue): string {
  try {
    dtoInput(Lists, { inputSchema: lenient }).decode(value);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return (e as ToolError).message;
  }
}

describe('null items under each: true', () => {
  it("are refused by the overridden length and enum checks, as by class-validator's own", () => {
    expect(decode({ names: ['ab', null], levels: [], counts: [] })).toBe(
      'tool: invalid invocation: /names/1: each value must be a string (isLength)',
    );
    expect(decode({ names: [], levels: [1, null], counts: [] })).toBe(
      'tool: invalid invocation: /levels/1: each value must be one of the following values: 1, 2 (isEnum)',
    );
    expect(decode({ names: [], levels: [], counts: [3, null] })).toMatch(
      /\/counts: each value in counts must be an integer number \(isInt\)/,
    );
    expect(decode({ names: ['ab'], levels: [2], counts: [3] })).toBe('accepted');
  });
});
