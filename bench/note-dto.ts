/**
 * The decorator form of the bench tools: class-validator DTOs, a `@Toolset` with `@Tool` methods
 * behind an allow-all `@Authorize` policy (so calls go through a Guard, as in the FuncTool row),
 * and the manifest entry `scope-tool generate` would write for them (kept equal by
 * spec/bench/manifest.spec.ts).
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNumber,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Authorize, Tool, Toolset } from '../lib/decorators';
import type { Manifest, ManifestTool } from '../lib/container';
import { ADD_SCHEMA, add, createNote, NOTE_SCHEMA } from './fixtures';
import type { JsonObject } from '../lib/protocol';

/** Input of `add`. */
export class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

/** One checklist item. */
export class ChecklistItemDto {
  @IsString() @Length(1, 200) text!: string;
  @IsBoolean() done!: boolean;
}

/** Input of `create_note`. */
export class NoteDto {
  @IsString() @Length(1, 120) title!: string;
  @IsString() @MaxLength(10000) body!: string;
  @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) @Length(1, 32, { each: true }) tags!: string[];
  @IsInt() @Min(1) @Max(5) priority!: number;
  @IsBoolean() pinned!: boolean;
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ChecklistItemDto)
  checklist!: ChecklistItemDto[];
}

/** The policy of every bench tool: permit (peers have no authorization step). */
export function allowAll(): boolean {
  return true;
}

/** The bench tools as a decorated toolset. */
@Toolset()
@Authorize(allowAll)
export class BenchTools {
  /** Add two numbers. */
  @Tool({ name: 'add' })
  add(input: AddDto): { sum: number } {
    return add(input);
  }

  /** Create a note with tags and a checklist. */
  @Tool({ name: 'create_note' })
  createNote(input: NoteDto): { id: string; items: number } {
    return createNote(input);
  }
}

function entry(name: string, method: string, input: string, description: string, schema: JsonObject): ManifestTool {
  return {
    name,
    definition: { name, description, input_schema: schema },
    source: { file: 'bench/note-dto.ts', class: 'BenchTools', method, input },
    fingerprint: 'sha256:0',
    warnings: [],
  };
}

/** The manifest of BenchTools, written by hand (the generator is not run at bench time). */
export const BENCH_MANIFEST: Manifest = {
  version: 1,
  tools: [
    entry('add', 'add', 'AddDto', 'Add two numbers.', ADD_SCHEMA),
    entry('create_note', 'createNote', 'NoteDto', 'Create a note with tags and a checklist.', NOTE_SCHEMA),
  ],
};
