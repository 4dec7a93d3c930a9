import 'reflect-metadata';
import { Expose, Type } from 'class-transformer';
import {
  IsOptional,
  IsString,
  registerDecorator,
  Validate,
  ValidateNested,
  ValidatorConstraint,
} from 'class-validator';
import type { ValidatorConstraintInterface } from 'class-validator';
import { dtoInput, dtoWireNames } from '../../lib/dto';
import { asyncConstraint, noMetadata, wireNameTaken } from '../../lib/dto/messages';
import type { AdmissionIssue, ToolError } from '../../lib/protocol';

/** Matches the bind-time refusal a messages.ts builder makes: same code, same text. */
const refusal = (expected: ToolError) => expect.objectContaining({ code: expected.code, message: expected.message });

/** Matches a decoder refusal whose only issue has these fields. */
const issue = (fields: Partial<AdmissionIssue>) =>
  expect.objectContaining({ code: 'ERR_INVALID_INVOCATION', issues: [expect.objectContaining(fields)] });

@ValidatorConstraint({ name: 'uniqueTitle', async: true })
class UniqueTitle implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

function IsRemotelyValid() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isRemotelyValid',
      target: object.constructor,
      propertyName,
      async: true,
      validator: { validate: async () => true },
    });
}

describe('DTO plan checks at dtoInput time', () => {
  it('refuses an asynchronous constraint class, naming Class.property, the constraint and the fix', () => {
    class Note {
      @Validate(UniqueTitle) title!: string;
    }
    expect(() => dtoInput(Note)).toThrow(refusal(asyncConstraint('Note', 'title', 'uniqueTitle')));
  });

  it('refuses an asynchronous inline decorator, also inside a nested DTO', () => {
    class Inner {
      @IsRemotelyValid() code!: string;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    expect(() => dtoInput(Outer)).toThrow(refusal(asyncConstraint('Inner', 'code', 'isRemotelyValid')));
  });

  it('refuses a DTO with properties but no class-validator metadata, naming the likely cause', () => {
    class Bare {
      @Expose() title!: string;
    }
    expect(() => dtoInput(Bare)).toThrow(refusal(noMetadata('Bare', ['title'])));
    class WithInitializer {
      limit = 10;
    }
    expect(() => dtoInput(WithInitializer)).toThrow(refusal(noMetadata('WithInitializer', ['limit'])));
  });

  it('accepts an empty DTO class as {} input', () => {
    class Nothing {}
    expect(dtoInput(Nothing).decode({})).toBeInstanceOf(Nothing);
    expect(() => dtoInput(Nothing).decode({ a: 1 })).toThrow(issue({ code: 'unknown_member', path: ['a'] }));
  });

  it('refuses two properties with one wire name', () => {
    class Clash {
      @IsString() a!: string;
      @Expose({ name: 'a' }) @IsString() b!: string;
    }
    expect(() => dtoInput(Clash)).toThrow(refusal(wireNameTaken('Clash', 'b', 'a')));
  });

  it('includes inherited properties (wire names, required and optional)', () => {
    class Base {
      @IsString() id!: string;
    }
    class Derived extends Base {
      @IsOptional() @Expose({ name: 'display_name' }) @IsString() displayName?: string;
    }
    expect(dtoWireNames(Derived).sort()).toEqual(['display_name', 'id']);
    const d = dtoInput(Derived);
    expect(d.decode({ id: 'a', display_name: 'A' })).toMatchObject({ id: 'a', displayName: 'A' });
    expect(() => d.decode({ display_name: 'A' })).toThrow(issue({ path: ['id'], constraint: 'isDefined' }));
  });

  it('handles a recursive DTO: schema and decoding terminate', () => {
    class TreeNode {
      @IsString() name!: string;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    }
    const t = dtoInput(TreeNode);
    const tree = t.decode({ name: 'root', children: [{ name: 'a', children: [{ name: 'b' }] }] });
    expect(tree.children?.[0].children?.[0]).toBeInstanceOf(TreeNode);
    expect(() => t.decode({ name: 'root', children: [{ name: 'a', children: [{ name: 1 }] }] })).toThrow(
      issue({ path: ['children', 0, 'children', 0, 'name'], constraint: 'type' }),
    );
    expect(t.inputSchema).toMatchObject({ properties: { children: { type: 'array', items: { type: 'object' } } } });
  });
});
