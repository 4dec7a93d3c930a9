/**
 * The decorator DTO path of each bench tool, from the raw arguments text to the completed result
 * through an allow-all Guard, decoded three ways in the same run: the fast path of a proven DTO
 * (lib/dto/fast.ts: the schema alone, the instance built from the plan), the class-validator path the
 * fast path replaces (`plainToInstance` + `validateSync`, as before issue 16), and a DTO with a
 * decoder-only member (`@IsEmail`), which keeps the class-validator path. Beside them the floor
 * (`JSON.parse` + Ajv + call) and raw class-validator.
 */
import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { plainToInstance } from 'class-transformer';
import { IsEmail, IsOptional, validateSync } from 'class-validator';
import { bind, FuncTool, Guard } from '../../lib/protocol';
import type { JsonObject } from '../../lib/protocol';
import { dtoInputOf } from '../../lib/dto/dto-input';
import type { DtoClass } from '../../lib/dto';
import type { BenchTool } from '../fixtures';
import { AddDto, allowAll, NoteDto } from '../note-dto';
import { workload } from '../workload';
import type { Workload } from '../workload';

const STRICT = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/** `create_note` with a decoder-only member: the same input, and an `@IsEmail` the schema cannot state. */
class MailedNoteDto extends NoteDto {}
/** `add` with a decoder-only member. */
class MailedAddDto extends AddDto {}

function withEmail(dto: DtoClass): void {
  // `@IsEmail()` on `title`/`a` would refuse the bench arguments; an optional extra member keeps them valid.
  IsOptional()(dto.prototype as object, 'owner');
  IsEmail()(dto.prototype as object, 'owner');
}
withEmail(MailedNoteDto);
withEmail(MailedAddDto);

function guardedDto(tool: BenchTool, dto: DtoClass, schema: JsonObject, fast: boolean) {
  const fn = tool.fn as (input: unknown) => object;
  const input = dtoInputOf(dto as DtoClass<object>, { inputSchema: schema }, fast);
  const func = FuncTool.create(
    { name: tool.name, description: tool.description, inputSchema: schema, decode: input.decode },
    (value) => fn(value),
  );
  return bind(new Guard({ tool: func, authorizer: allowAll }));
}

/** The DTO rows of one bench tool. */
export function dtoPathWorkloads(tool: BenchTool): Workload[] {
  const group = `dto/${tool.name}`;
  const fn = tool.fn as (input: unknown) => object;
  const args = tool.args;
  const request = { name: tool.name, arguments: args };
  const validate = new Ajv2020({ strict: true }).compile(tool.schema);
  const dto: DtoClass = tool.name === 'add' ? AddDto : NoteDto;
  const mailed: DtoClass = tool.name === 'add' ? MailedAddDto : MailedNoteDto;
  const mailedSchema: JsonObject = {
    ...tool.schema,
    properties: { ...(tool.schema.properties as JsonObject), owner: { type: 'string' } },
  };
  const fast = guardedDto(tool, dto, tool.schema, true);
  const slow = guardedDto(tool, dto, tool.schema, false);
  const decoderOnly = guardedDto(tool, mailed, mailedSchema, true);
  return [
    workload(group, 'floor: JSON.parse + Ajv + call', 'floor', () => {
      const value: unknown = JSON.parse(args);
      if (!validate(value)) throw new Error(`bench: Ajv refused ${args}`);
      return fn(value);
    }),
    workload(group, 'decorator DTO, fast path (Guard)', 'scope', () => fast.call(fast.contract.prepare(request))),
    workload(group, 'decorator DTO, class-validator path (Guard)', 'reference', () =>
      slow.call(slow.contract.prepare(request)),
    ),
    workload(group, 'decorator DTO with a decoder-only member (Guard)', 'reference', () =>
      decoderOnly.call(decoderOnly.contract.prepare(request)),
    ),
    workload(group, 'raw plainToInstance + validateSync + call', 'reference', () => {
      const instance = plainToInstance(dto as new () => object, JSON.parse(args) as object);
      if (validateSync(instance, STRICT).length > 0) throw new Error(`bench: class-validator refused ${args}`);
      return fn(instance);
    }),
  ];
}
