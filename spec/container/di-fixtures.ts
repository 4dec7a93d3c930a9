/**
 * A toolset and a policy class with constructor dependencies, left undecorated for any container:
 * each DI spec applies its container's decorators to them. The manifest describes the toolset.
 */
import 'reflect-metadata';
import { IsString, Length } from 'class-validator';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import type { Authorization, CallOptions, Registry, Result } from '../../lib/protocol';
import { entry, manifest } from './fixtures';

export class TitleInput {
  @IsString() @Length(1, 40) title!: string;
}

/** The repository the toolset writes to. */
export class NotesStore {
  readonly titles: string[] = [];
}

/** The policy's own dependency: who may write. */
export class Directory {
  readonly writers = new Set(['alice']);
}

/** A policy class with a dependency, reading the caller from CallOptions.context. */
export class WritersOnly {
  constructor(readonly directory: Directory) {}

  authorize(_authorization: Authorization, options: CallOptions): boolean {
    const user = (options.context as { user?: string } | undefined)?.user;
    return user !== undefined && this.directory.writers.has(user);
  }
}

@Toolset()
@Authorize(WritersOnly)
export class NotesTools {
  constructor(readonly store: NotesStore) {}

  @Tool({ name: 'add_note' })
  addNote(input: TitleInput, call: ToolCall): string {
    this.store.titles.push(input.title);
    return `added ${input.title} for ${(call.context as { user: string }).user}`;
  }
}

export const NOTES_MANIFEST = manifest(
  entry('add_note', 'NotesTools', 'addNote', 'TitleInput', {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1, maxLength: 40 } },
    required: ['title'],
    additionalProperties: false,
  }),
);

/** Prepares and runs one call; returns the output text, or the error thrown. */
export async function run(registry: Registry, args: string, context: unknown): Promise<string | unknown> {
  const binding = registry.resolve('add_note')!;
  try {
    const result: Result = await binding.call(binding.contract.prepare({ name: 'add_note', arguments: args }), {
      context,
    });
    return 'output' in result ? result.output.asText() : result;
  } catch (e) {
    return e;
  }
}
