/**
 * Toolsets, policies and modules shared by the NestJS specs, plus a manifest that describes them
 * (hand-built, as in spec/container).
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { IsString, Length } from 'class-validator';
import type { Authorization, CallOptions, Registry, Result } from '../../lib/protocol';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import type { ModuleMetadata } from '@nestjs/common';
import { entry, manifest } from '../container/fixtures';
import { ScopeToolModuleError, ToolRegistry } from '../../lib/nest';

export class TitleInput {
  @IsString() @Length(1, 40) title!: string;
}
export const TITLE_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1, maxLength: 40 } },
  required: ['title'],
  additionalProperties: false,
};

/** A repository the notes toolset injects. */
@Injectable()
export class NotesRepository {
  readonly titles: string[] = [];
}

/** Who may do what: the policy's own dependency. */
@Injectable()
export class Directory {
  readonly writers = new Set(['alice']);
}

/** An `@Injectable()` policy with a dependency: permits callers the Directory lists as writers. */
@Injectable()
export class WritersOnly {
  constructor(private readonly directory: Directory) {}

  authorize(_authorization: Authorization, options: CallOptions): boolean {
    const user = (options.context as { user?: string } | undefined)?.user;
    return user !== undefined && this.directory.writers.has(user);
  }
}

@Toolset()
@Authorize(WritersOnly)
@Injectable()
export class NotesTools {
  constructor(private readonly repository: NotesRepository) {}

  @Tool({ name: 'add_note' })
  addNote(input: TitleInput, call: ToolCall): string {
    this.repository.titles.push(input.title);
    return `added ${input.title} for ${(call.context as { user: string }).user}`;
  }
}

@Toolset()
@Injectable()
export class ClockTools {
  @Tool({ name: 'now' })
  now(): string {
    return 'noon';
  }
}

@Module({ providers: [NotesRepository, Directory, WritersOnly, NotesTools] })
export class NotesModule {}

@Module({ providers: [ClockTools] })
export class ClockModule {}

export const MANIFEST = manifest(
  entry('add_note', 'NotesTools', 'addNote', 'TitleInput', TITLE_SCHEMA),
  entry('now', 'ClockTools', 'now', null),
);

/** Compiles and initializes (runs onModuleInit) a testing module, quietly. */
export async function start(metadata: ModuleMetadata): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule(metadata)
    .setLogger({ log() {}, error() {}, warn() {} })
    .compile();
  await moduleRef.init();
  return moduleRef;
}

/** Compiles and initializes a testing module expected to fail; returns the error (or fails the test). */
export async function startFailure(metadata: ModuleMetadata): Promise<Error & { code?: string }> {
  let moduleRef: TestingModule | undefined;
  try {
    moduleRef = await start(metadata);
  } catch (e) {
    return e as Error & { code?: string };
  } finally {
    await moduleRef?.close();
  }
  throw new Error('start-up succeeded but was expected to fail');
}

/** Prepares and runs one call through the registry. */
export async function call(registry: Registry, name: string, args: string, context?: unknown): Promise<Result> {
  const binding = registry.resolve(name);
  if (binding === undefined) throw new Error(`no tool ${name}`);
  return binding.call(binding.contract.prepare({ name, arguments: args }), { context });
}

/** Starts a testing module expected to fail with a ScopeToolModuleError; returns it (or fails the test). */
export async function startProblem(metadata: ModuleMetadata): Promise<ScopeToolModuleError> {
  const error = await startFailure(metadata);
  if (!(error instanceof ScopeToolModuleError)) throw error;
  return error;
}

/** The names of the tools an application's ToolRegistry holds. */
export function toolNames(app: TestingModule): string[] {
  return app
    .get(ToolRegistry)
    .definitions()
    .map((d) => d.name);
}
