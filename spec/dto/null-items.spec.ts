/**
 * A null item under `each: true`: class-validator runs the check on it and (almost always) refuses
 * it, and the generator drops null from such items' schema. The checks the decoder decides itself
 * (lengths in code points, enum values) follow the same rule, even when a hand-written input schema
 * admits the null item.
 */
import 'reflect-metadata';
import { IsArray, IsEnum, IsInt, Length } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { CONSTRAINT_TEXT } from '../../lib/dto/messages';
import { ToolError, type AdmissionIssue, type JsonObject, type JsonValue } from '../../lib/protocol';

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
function decode(value: JsonValue): 'accepted' | readonly Partial<AdmissionIssue>[] {
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
    expect(decode({ names: ['ab', null], levels: [], counts: [] })).toEqual([
      { path: ['names', 1], constraint: 'isLength', message: each + CONSTRAINT_TEXT.notString },
    ]);
    expect(decode({ names: [], levels: [1, null], counts: [] })).toEqual([
      { path: ['levels', 1], constraint: 'isEnum', message: each + CONSTRAINT_TEXT.isEnum([1, 2]) },
    ]);
    // class-validator's own check reports the array member, with its own text.
    expect(decode({ names: [], levels: [], counts: [3, null] })).toEqual([
      expect.objectContaining({ path: ['counts'], constraint: 'isInt' }),
    ]);
    expect(decode({ names: ['ab'], levels: [2], counts: [3] })).toBe('accepted');
  });
});
