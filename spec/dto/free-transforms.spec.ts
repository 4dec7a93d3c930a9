/**
 * `@Transform` on free-form members (`@IsObject()`, `Record`, `unknown`) and arrays of primitives,
 * which dtoInput keeps away from class-transformer (deep values would overflow its recursion) and
 * copies instead: the member's transforms run on the copy, as plainToInstance runs them, so the
 * policy, the check and the tool all see the transformed value; a member without a transform is
 * still copied (no recursion).
 */
import 'reflect-metadata';
import { Expose, Transform } from 'class-transformer';
import { Allow, IsArray, IsIn, IsObject, IsOptional } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { FuncTool, Guard, bind, isAdmissionRefusal } from '../../lib/protocol';
import type { Authorization, JsonObject, JsonValue } from '../../lib/protocol';

class Meta {
  @Transform(({ value }) =>
    Object.fromEntries(Object.entries(value as Record<string, string>).filter(([k]) => k !== 'admin')),
  )
  @IsObject()
  meta!: Record<string, string>;
}

class Scopes {
  @Transform(({ value }) => (value as string[]).map((s) => s.toLowerCase()))
  @IsArray()
  @IsIn(['read', 'write'], { each: true })
  scopes!: string[];
}

/** A transform that reads its arguments: key, the plain object holding the member, the options. */
class Renamed {
  @Expose({ name: 'labels' })
  @Transform(({ value, key, obj, options }) => ({ value, key, obj, implicit: options.enableImplicitConversion }))
  @IsObject()
  l!: unknown;
  @IsOptional() @Allow() other?: unknown;
}

class Plain {
  @IsOptional() @Allow() anything?: unknown;
}

const META_SCHEMA: JsonObject = {
  type: 'object',
  properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } },
  required: ['meta'],
  additionalProperties: false,
};
const SCOPES_SCHEMA: JsonObject = {
  type: 'object',
  properties: { scopes: { type: 'array', items: { type: 'string' } } },
  required: ['scopes'],
  additionalProperties: false,
};

function guarded<T extends object>(dto: new () => T, schema: JsonObject) {
  const ran: T[] = [];
  const seen: string[] = [];
  const input = dtoInput(dto, { inputSchema: schema });
  const tool = FuncTool.create({ name: 't', inputSchema: schema, decode: input.decode }, (value: T) => {
    ran.push(value);
    return {};
  });
  const policy = (a: Authorization): boolean => {
    seen.push(a.arguments);
    return true;
  };
  return { binding: bind(new Guard({ tool, authorizer: policy })), ran, seen };
}

describe('@Transform on a free-form or primitive-array member', () => {
  it('runs on {"meta":{"admin":"yes","a":"b"}}: the policy and the tool get {"meta":{"a":"b"}}', async () => {
    const { binding, ran, seen } = guarded(Meta, META_SCHEMA);
    const invocation = binding.contract.prepare({ name: 't', arguments: '{"meta":{"admin":"yes","a":"b"}}' });
    expect(invocation.normalizedArguments).toBe('{"meta":{"a":"b"}}');
    await binding.call(invocation);
    expect(seen).toEqual(['{"meta":{"a":"b"}}']);
    expect(ran).toHaveLength(1);
    expect(ran[0].meta).toEqual({ a: 'b' });
  });

  it('admits {"scopes":["READ"]} as ["read"]: the check sees the transformed value', async () => {
    const { binding, ran, seen } = guarded(Scopes, SCOPES_SCHEMA);
    const invocation = binding.contract.prepare({ name: 't', arguments: '{"scopes":["READ"]}' });
    expect(isAdmissionRefusal(invocation)).toBe(false);
    await binding.call(invocation);
    expect(seen).toEqual(['{"scopes":["read"]}']);
    expect(ran[0].scopes).toEqual(['read']);
  });

  it('still refuses a value the transform leaves outside the check', () => {
    expect(() => dtoInput(Scopes).decode({ scopes: ['READ', 'admin'] })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_INVOCATION',
        issues: [expect.objectContaining({ code: 'dto', path: ['scopes'] })],
      }),
    );
  });

  it('gets the arguments plainToInstance gives it: the lossless value, the property name, the plain object, the options', () => {
    const raw = { labels: { toString: 'x', k: 1 }, other: 2 } as JsonValue;
    const decoded = dtoInput(Renamed).decode(raw);
    expect(decoded.l).toEqual({ value: { toString: 'x', k: 1 }, key: 'l', obj: raw, implicit: true });
  });

  it('copies a member without a transform, so a value 10,000 levels deep still decodes', () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const decoded = dtoInput(Plain).decode({ anything: deep });
    let depth = 0;
    for (let v: unknown = decoded.anything; Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBe(10_000);
  });
});
