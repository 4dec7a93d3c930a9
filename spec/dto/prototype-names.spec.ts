/**
 * Names of Object.prototype members: free-form keys named after its methods are kept (class-transformer
 * drops them), an absent member whose wire name is such a method stays absent (class-transformer fills
 * in the method's text), and a DTO property named after one is refused at bind (class-validator would
 * fail every call).
 */
import 'reflect-metadata';
import { Expose } from 'class-transformer';
import { Allow, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { createRegistry } from '../../lib/container';
import { Tool, Toolset } from '../../lib/decorators';
import { dtoInput } from '../../lib/dto';
import { PROTOTYPE_MEMBER_NAMES } from '../../lib/dto/forbidden';
import { prototypeProperty } from '../../lib/dto/messages';
import { FuncTool, Guard, bind } from '../../lib/protocol';
import type { Authorization, JsonObject, JsonValue } from '../../lib/protocol';
import { entry, manifest } from '../container/fixtures';

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

// A DTO property named after an Object.prototype member makes class-validator throw on every call
// (`grouped[metadata.propertyName].push is not a function`), so bind refuses it.
class ProtoIn {
  // @ts-expect-error -- strict tsc rejects the decorators here (valueOf?: string is not Object's valueOf); a transpile-only build does not
  @IsOptional() @IsString() valueOf?: string;
}

/** The fix the refusal names: another property name, the same wire name. */
class ProtoRenamed {
  @Expose({ name: 'valueOf' }) @IsOptional() @IsString() value?: string;
}

/** A DTO class named `Dto` with one `@IsOptional() @IsString()` property named `property`. */
function dtoWith(property: string): new () => object {
  const dto = class {};
  Object.defineProperty(dto, 'name', { value: 'Dto' });
  IsOptional()(dto.prototype, property);
  IsString()(dto.prototype, property);
  return dto;
}

describe('a DTO property named after an Object.prototype member', () => {
  it('refuses ProtoIn.valueOf at bind (dtoInput, createRegistry), naming Class.member and the fix', () => {
    expect(() => dtoInput(ProtoIn)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_TOOL',
        message: expect.stringContaining(prototypeProperty('ProtoIn', 'valueOf', false)),
      }),
    );
    @Toolset()
    class Protos {
      @Tool()
      proto(input: ProtoIn): string {
        return String(input.valueOf);
      }
    }
    const schema: JsonObject = {
      type: 'object',
      properties: { valueOf: { type: 'string' } },
      additionalProperties: false,
    };
    expect(() =>
      createRegistry({ manifest: manifest(entry('proto', 'Protos', 'proto', 'ProtoIn', schema)), toolsets: [Protos] }),
    ).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_TOOL', message: expect.stringContaining('ProtoIn.valueOf') }),
    );
  });

  it.each(Object.getOwnPropertyNames(Object.prototype))('refuses a property named %s with ERR_INVALID_TOOL', (name) => {
    expect(() => dtoInput(dtoWith(name))).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_TOOL', message: expect.stringContaining(`Dto.${name}: `) }),
    );
  });

  it('lists the Object.prototype members and accessors, __proto__ included', () => {
    for (const name of [
      'valueOf',
      'toString',
      'hasOwnProperty',
      'constructor',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
      '__defineGetter__',
      '__lookupGetter__',
      '__proto__',
    ]) {
      expect(PROTOTYPE_MEMBER_NAMES.has(name)).toBe(true);
    }
  });

  it('decodes and encodes the renamed form: {"valueOf":"x"} reaches the property value', async () => {
    const input = dtoInput(ProtoRenamed);
    const decoded = input.decode({ valueOf: 'x' } as JsonValue);
    expect(decoded.value).toBe('x');
    expect(input.encode(decoded)).toEqual({ valueOf: 'x' });
    expect(() => input.decode({ valueOf: 1 } as JsonValue)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_INVOCATION',
        issues: [expect.objectContaining({ path: ['valueOf'] })],
      }),
    );
    const seen: string[] = [];
    const ran: ProtoRenamed[] = [];
    const tool = FuncTool.create(
      { name: 'p', inputSchema: input.inputSchema, decode: input.decode },
      (dto: ProtoRenamed) => ran.push(dto),
    );
    const binding = bind(new Guard({ tool, authorizer: (a: Authorization) => seen.push(a.arguments) > 0 }));
    await binding.call(binding.contract.prepare({ name: 'p', arguments: '{"valueOf":"x"}' }));
    expect(seen).toEqual(['{"valueOf":"x"}']);
    expect(ran.map((d) => d.value)).toEqual(['x']);
  });
});
