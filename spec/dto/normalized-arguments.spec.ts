/**
 * The policy sees the value the tool runs with. A dtoInput decoder applies defaults,
 * @Transform, @Expose wire names, nested DTOs and Dates; Contract.prepare encodes the decoded input
 * (dtoInput's encode, through the DTO plan) into Invocation.normalizedArguments, and a Guard hands
 * that text to its policy as Authorization.arguments.
 */
import 'reflect-metadata';
import { Expose, Transform, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDate, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { createRegistry } from '../../lib/container';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { dtoInput } from '../../lib/dto';
import { entry, manifest } from '../container/fixtures';
import { Failure, FuncTool, Guard, bind, isAdmissionRefusal } from '../../lib/protocol';
import type { Authorization, JsonObject } from '../../lib/protocol';

class ListInput {
  @IsString() path!: string;
  @IsOptional() @IsBoolean() recursive = true;
}

const LIST_SCHEMA: JsonObject = {
  type: 'object',
  properties: { path: { type: 'string' }, recursive: { type: 'boolean' } },
  required: ['path'],
  additionalProperties: false,
};

/** The example: a policy that lets only an admin list recursively. */
function listBinding(admin: boolean) {
  const ran: ListInput[] = [];
  const seen: string[] = [];
  const input = dtoInput(ListInput, { inputSchema: LIST_SCHEMA });
  const tool = FuncTool.create({ name: 'list', inputSchema: LIST_SCHEMA, decode: input.decode }, (dto: ListInput) => {
    ran.push(dto);
    return { listed: dto.path };
  });
  const policy = (a: Authorization): boolean => {
    seen.push(a.arguments);
    return !(JSON.parse(a.arguments) as { recursive?: boolean }).recursive || admin;
  };
  return { binding: bind(new Guard({ tool, authorizer: policy })), ran, seen };
}

describe('a Guard policy over a dtoInput tool', () => {
  it('rejects {"path":"/data"} for a non-admin: the default recursive=true is what the policy judges', async () => {
    const { binding, ran, seen } = listBinding(false);
    const invocation = binding.contract.prepare({ name: 'list', arguments: '{"path":"/data"}' });
    expect(invocation.arguments).toBe('{"path":"/data"}');
    expect(invocation.normalizedArguments).toBe('{"path":"/data","recursive":true}');
    const failure = await binding.call(invocation).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Failure);
    expect((failure as Failure).kind).toBe('rejected');
    expect(seen).toEqual(['{"path":"/data","recursive":true}']);
    expect(ran).toHaveLength(0);
  });

  it('runs {"path":"/data","recursive":false} for a non-admin, with recursive false', async () => {
    const { binding, ran } = listBinding(false);
    const invocation = binding.contract.prepare({ name: 'list', arguments: '{"path":"/data","recursive":false}' });
    await binding.call(invocation);
    expect(ran).toHaveLength(1);
    expect(ran[0].recursive).toBe(false);
  });

  it('runs {"path":"/data"} for an admin, with the decoded instance (recursive true)', async () => {
    const { binding, ran, seen } = listBinding(true);
    const invocation = binding.contract.prepare({ name: 'list', arguments: ' {"path":"/data"} ' });
    await binding.call(invocation);
    expect(seen).toEqual(['{"path":"/data","recursive":true}']);
    expect(ran[0]).toBeInstanceOf(ListInput);
    expect(ran[0].recursive).toBe(true);
  });
});

describe('an @Authorize policy over a @Tool method (createRegistry: no encoder named anywhere)', () => {
  it('sees the default and rejects {"path":"/data"} for a non-admin; the method never runs', async () => {
    const seen: string[] = [];
    let ran = 0;
    const nonAdmin = (a: Authorization): boolean => {
      seen.push(a.arguments);
      return !(JSON.parse(a.arguments) as { recursive?: boolean }).recursive;
    };
    @Toolset()
    class Files {
      @Authorize(nonAdmin)
      @Tool()
      list(input: ListInput): string {
        ran += 1;
        return input.path;
      }
    }
    const registry = createRegistry({
      manifest: manifest(entry('list', 'Files', 'list', 'ListInput', LIST_SCHEMA)),
      toolsets: [Files],
    });
    const binding = registry.resolve('list');
    if (binding === undefined) throw new Error('list is not registered');
    const failure = await binding.call(binding.contract.prepare({ name: 'list', arguments: '{"path":"/data"}' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((failure as Failure).kind).toBe('rejected');
    expect(seen).toEqual(['{"path":"/data","recursive":true}']);
    expect(ran).toBe(0);
    await binding.call(binding.contract.prepare({ name: 'list', arguments: '{"path":"/data","recursive":false}' }));
    expect(ran).toBe(1);
  });
});

class Owner {
  @Expose({ name: 'user_id' }) @IsString() userId!: string;
  @IsOptional() @IsString() role = 'viewer';
}

class Tag {
  @IsString() label!: string;
  @IsOptional() @IsInt() weight = 1;
}

class ShareInput {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  path!: string;

  @ValidateNested() @Type(() => Owner) owner!: Owner;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
  @IsDate() @Type(() => Date) expires!: Date;
  @IsOptional() @IsString() note?: string;
}

async function policyText(dto: Parameters<typeof dtoInput>[0], args: string): Promise<string> {
  const input = dtoInput(dto);
  const seen: string[] = [];
  const tool = FuncTool.create({ name: 'share', inputSchema: input.inputSchema, decode: input.decode }, () => 'ok');
  const binding = bind(new Guard({ tool, authorizer: (a) => seen.push(a.arguments) > 0 }));
  await binding.call(binding.contract.prepare({ name: 'share', arguments: args }));
  return seen[0];
}

describe('Authorization.arguments of a dtoInput tool', () => {
  it('holds nested defaults, @Expose wire names, Dates as RFC 3339 and @Transform results, in declared order', async () => {
    const args =
      '{"expires":"2030-01-02T03:04:05+01:00","tags":[{"label":"a"},{"weight":5,"label":"b"}],' +
      '"owner":{"user_id":"u1"},"path":"  /Data/Reports "}';
    // The exact text, so the member order (declared order, not the order sent) is checked too.
    expect(await policyText(ShareInput, args)).toBe(
      JSON.stringify({
        path: '/data/reports',
        owner: { user_id: 'u1', role: 'viewer' },
        tags: [
          { label: 'a', weight: 1 },
          { label: 'b', weight: 5 },
        ],
        expires: '2030-01-02T02:04:05.000Z',
      }),
    );
  });

  it('is what dtoInput(...).encode states for a decoded instance, which it leaves unchanged', async () => {
    const input = dtoInput(ShareInput);
    const decoded = input.decode({
      path: 'X',
      owner: { user_id: 'u2', role: 'admin' },
      tags: [],
      expires: '2030-01-01T00:00:00Z',
    });
    expect(input.encode(decoded)).toEqual({
      path: 'x',
      owner: { user_id: 'u2', role: 'admin' },
      tags: [],
      expires: '2030-01-01T00:00:00.000Z',
    });
    expect(decoded.owner).toBeInstanceOf(Owner);
    expect(decoded.expires).toBeInstanceOf(Date);
  });
});

class ProtoNamed {
  @IsString() path!: string;
  @Expose({ name: 'valueOf' }) @IsOptional() @IsString() v?: string;
  @Expose({ name: 'toString' }) @IsOptional() @IsInt() n?: number = 7;
}

describe('a wire name of an Object.prototype method', () => {
  it('is left out when absent (never the inherited function), and kept with its default or its value', async () => {
    expect(await policyText(ProtoNamed, '{"path":"/p"}')).toBe('{"path":"/p","toString":7}');
    expect(await policyText(ProtoNamed, '{"valueOf":"v","path":"/p","toString":1}')).toBe(
      JSON.stringify({ path: '/p', valueOf: 'v', toString: 1 }),
    );
  });
});

class Transforming {
  // A transform whose result JSON cannot carry (a BigInt): the decoder accepts it, the encoder cannot.
  @Transform(() => BigInt(1))
  @IsOptional()
  value?: string;
}

describe('an encoder that cannot state the input as JSON', () => {
  it('is a defect of the tool (not a refusal of the arguments), and the tool never runs', () => {
    const input = dtoInput(Transforming);
    let ran = 0;
    const tool = FuncTool.create({ name: 'bad', inputSchema: input.inputSchema, decode: input.decode }, () => {
      ran += 1;
      return 'ok';
    });
    const binding = bind(new Guard({ tool, authorizer: () => true }));
    let thrown: unknown;
    try {
      binding.contract.prepare({ name: 'bad', arguments: '{"value":"1"}' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_INVOCATION' });
    expect((thrown as Error).cause).toMatchObject({ name: 'InputValidatorError' });
    expect(isAdmissionRefusal(thrown)).toBe(false);
    expect(ran).toBe(0);
  });
});
