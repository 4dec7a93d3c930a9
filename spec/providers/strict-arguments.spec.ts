import 'reflect-metadata';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { dtoInput } from '../../lib/dto';
import { FuncTool, Registry, ToolError } from '../../lib/protocol';
import type { Definition, JsonObject } from '../../lib/protocol';
import {
  exportOpenAIChatTools,
  prepareToolCall,
  restoreOptionalMembers,
  restoreStrictToolCall,
} from '../../lib/providers';

class Place {
  @IsString() city!: string;
  @IsOptional() @IsString() region?: string;
}

class WeatherInput {
  @IsString() location!: string;
  @IsOptional() @IsString() unit?: string;
  @IsOptional() @IsInt() days?: number;
  @IsOptional() @ValidateNested() @Type(() => Place) near?: Place;
}

function weatherRegistry(seen: WeatherInput[]): Registry {
  const input = dtoInput(WeatherInput);
  const tool = FuncTool.create(
    { name: 'get_weather', inputSchema: input.inputSchema, decode: input.decode },
    (value: WeatherInput) => {
      seen.push(value);
      return 'ok';
    },
  );
  return new Registry(tool);
}

describe('restoreStrictToolCall with a DTO whose members are optional', () => {
  const seen: WeatherInput[] = [];
  const registry = weatherRegistry(seen);
  const definition = registry.definitions()[0];

  it('exports the DTO in strict mode with the optional members nullable and required', () => {
    const { tools } = exportOpenAIChatTools([definition], { strict: true });
    const parameters = tools[0].function.parameters as JsonObject;
    expect(parameters.required).toEqual(['location', 'unit', 'days', 'near']);
    expect(parameters.additionalProperties).toBe(false);
  });

  async function run(args: string): Promise<{ admitted: string; value: WeatherInput }> {
    const call = restoreStrictToolCall(registry, { id: 'c1', request: { name: 'get_weather', arguments: args } });
    const { binding, invocation } = prepareToolCall(registry, call);
    await binding.call(invocation);
    return { admitted: invocation.arguments, value: seen[seen.length - 1] };
  }

  it('admits null optional members as absent, at every depth', async () => {
    const { admitted, value } = await run(
      '{"location":"Paris","unit":null,"days":null,"near":{"city":"Lyon","region":null}}',
    );
    expect(admitted).toBe(JSON.stringify({ location: 'Paris', near: { city: 'Lyon' } }));
    expect(value).toBeInstanceOf(WeatherInput);
    expect('unit' in value).toBe(false);
    expect(value.near).toEqual(Object.assign(new Place(), { city: 'Lyon' }));
  });

  it('admits present optional members unchanged, keeping the very same text', async () => {
    const args = '{ "location": "Paris", "unit": "celsius", "days": 3, "near": null }';
    const { admitted, value } = await run(args);
    expect(admitted).toBe(JSON.stringify({ location: 'Paris', unit: 'celsius', days: 3 }));
    expect(value.days).toBe(3);
    const untouched = '{ "location": "Paris", "unit": "celsius" }';
    expect(restoreOptionalMembers(definition, untouched)).toBe(untouched);
  });

  it('admits absent optional members (the model may still omit them)', async () => {
    const { admitted } = await run('{"location":"Paris"}');
    expect(admitted).toBe('{"location":"Paris"}');
  });

  it('never drops a required member: a null location is refused by admission', () => {
    const call = restoreStrictToolCall(registry, {
      id: 'c1',
      request: { name: 'get_weather', arguments: '{"location":null}' },
    });
    expect(call.request.arguments).toBe('{"location":null}');
    expect(() => prepareToolCall(registry, call)).toThrow(ToolError);
  });

  it('returns unknown tools, incomplete calls and inadmissible text as they are', () => {
    const unknown = { id: 'x', request: { name: 'nope', arguments: '{"a":null}' } };
    expect(restoreStrictToolCall(registry, unknown)).toBe(unknown);
    const cut = {
      id: 'x',
      request: { name: 'get_weather', arguments: '{"location":"P","unit":null' },
      complete: false,
    };
    expect(restoreStrictToolCall(registry, cut)).toBe(cut);
    for (const text of ['', '  ', '[1]', '{"unit":null,"unit":null}', '{"days":1e400,"unit":null}']) {
      expect(restoreOptionalMembers(definition, text)).toBe(text);
    }
  });
});

describe('restoreOptionalMembers', () => {
  const nullable: Definition = {
    name: 'note',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        body: { type: ['string', 'null'] },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
      },
      required: ['title'],
      $defs: {
        Tag: {
          type: 'object',
          properties: { label: { type: 'string' }, color: { type: 'string' } },
          required: ['label'],
        },
      },
    },
  };

  it('keeps null for an optional member whose own schema accepts null', () => {
    expect(restoreOptionalMembers(nullable, '{"title":"t","body":null}')).toBe('{"title":"t","body":null}');
  });

  it('follows array items and local references', () => {
    expect(
      restoreOptionalMembers(nullable, '{"title":"t","tags":[{"label":"a","color":null},{"label":"b","color":"red"}]}'),
    ).toBe(JSON.stringify({ title: 't', tags: [{ label: 'a' }, { label: 'b', color: 'red' }] }));
  });

  it('keeps a member named __proto__ as data while rewriting', () => {
    const open: Definition = {
      name: 'p',
      inputSchema: { type: 'object', properties: { a: { type: 'string' }, ['__proto__']: { type: 'string' } } },
    };
    expect(restoreOptionalMembers(open, '{"__proto__":"x","a":null}')).toBe('{"__proto__":"x"}');
  });

  it('refuses a definition that cannot be exported in strict mode, as the export does', () => {
    const loose: Definition = { name: 'loose', inputSchema: { type: 'object', properties: { m: { type: 'object' } } } };
    expect(() => restoreOptionalMembers(loose, '{}')).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_DEFINITION',
        message: expect.stringContaining('tool "loose": /properties/m'),
      }),
    );
  });
});

describe('restoreStrictToolCall keeps a null the contract admits', () => {
  const P = require('../../lib/protocol') as typeof import('../../lib/protocol');
  const V = require('../../lib/providers') as typeof import('../../lib/providers');

  it('does not drop a member whose null is accepted behind a $ref the restore cannot follow', async () => {
    const inputSchema = {
      type: 'object',
      properties: { n: { $ref: 'n.json' } },
      $defs: { N: { $id: 'n.json', type: ['string', 'null'] } },
      additionalProperties: false,
    } as import('../../lib/protocol').JsonObject;
    const seen: unknown[] = [];
    const registry = new P.Registry(
      P.FuncTool.create({ name: 'n_tool', inputSchema, decode: (v) => v }, (input) => {
        seen.push(input);
        return 'ok';
      }),
    );
    const call = { id: 'c', request: { name: 'n_tool', arguments: '{"n":null}' } };
    const restored = V.restoreStrictToolCall(registry, call);
    expect(restored.request.arguments).toBe('{"n":null}');
    const { binding, invocation } = V.prepareToolCall(registry, restored);
    await binding.call(invocation);
    expect(seen).toEqual([{ n: null }]);
  });
});

describe('restoreOptionalMembers keeps every other value admissible', () => {
  const V = require('../../lib/providers') as typeof import('../../lib/providers');
  const P = require('../../lib/protocol') as typeof import('../../lib/protocol');
  const definition = {
    name: 'nums',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, o: { type: 'string' }, s: { type: 'string' } },
      additionalProperties: false,
    },
  } as import('../../lib/protocol').Definition;

  it('writes numbers JSON.stringify would turn into unsafe integer literals in exponent form', () => {
    const s = '1e20 and 100000000000000000000'; // a string that looks like the numbers stays as sent
    const restored = V.restoreOptionalMembers(definition, `{"a":1e20,"o":null,"s":"${s}"}`);
    expect(restored).toBe(`{"a":1e+20,"s":"${s}"}`);
    expect(P.admitJson(restored).ok).toBe(true);
    expect(JSON.parse(restored).a).toBe(1e20);
    const negative = V.restoreOptionalMembers(definition, '{"a":-9007199254740993.5,"o":null}');
    expect(P.admitJson(negative).ok).toBe(true);
    expect(JSON.parse(negative).a).toBe(-9007199254740993.5);
  });
});
