/**
 * Regressions: class-transformer silently dropped free-form keys named after Object.prototype
 * methods, and filled an absent member whose wire name is such a method with that method's text.
 */
import 'reflect-metadata';
import { Expose } from 'class-transformer';
import { Allow, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import type { JsonObject, JsonValue } from '../../lib/protocol';

class Tagged {
  @IsObject() tags!: Record<string, string>;
  @IsOptional() @Allow() anything?: unknown;
}

class Named {
  @Expose({ name: 'hasOwnProperty' }) @IsOptional() @IsString() h?: string;
  @Expose({ name: 'valueOf' }) @IsString() v!: string;
  @Expose({ name: 'toString' }) @IsOptional() @IsInt() n?: number = 7;
}

const TAGGED_SCHEMA = {
  type: 'object',
  properties: { tags: { type: 'object', additionalProperties: { type: 'string' } }, anything: {} },
  required: ['tags'],
  additionalProperties: false,
} as JsonObject;

describe('decoding keeps exactly the members the model sent', () => {
  it('keeps Record keys named after Object.prototype methods', () => {
    const decoded = dtoInput(Tagged, { inputSchema: TAGGED_SCHEMA }).decode({
      tags: { toString: 'a', k: 'b', isPrototypeOf: 'c', __defineGetter__: 'd' },
      anything: { valueOf: 1, nested: { propertyIsEnumerable: [1] } },
    } as JsonValue);
    expect({ ...decoded }).toEqual({
      tags: { toString: 'a', k: 'b', isPrototypeOf: 'c', __defineGetter__: 'd' },
      anything: { valueOf: 1, nested: { propertyIsEnumerable: [1] } },
    });
  });

  it('leaves an absent member whose wire name is an Object.prototype method absent, or at its default', () => {
    const decoded = dtoInput(Named).decode({ valueOf: 'a' } as JsonValue) as Named;
    expect(decoded.v).toBe('a');
    expect(decoded.h).toBeUndefined();
    expect(decoded.n).toBe(7);
    expect(Object.prototype.hasOwnProperty.call(decoded, 'h')).toBe(false);
  });

  it('still takes such members when they are sent', () => {
    const decoded = dtoInput(Named).decode({ valueOf: 'a', hasOwnProperty: 'b', toString: 3 } as JsonValue) as Named;
    expect([decoded.v, decoded.h, decoded.n]).toEqual(['a', 'b', 3]);
  });
});
