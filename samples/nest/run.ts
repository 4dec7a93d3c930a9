/**
 * The NestJS sample: the main sample's assistant as a Nest application. Its ToolRegistry replays the
 * same recorded provider calls (samples/transcript.ts) and prints the same kind of transcript.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ToolRegistry } from 'scope-tool/nest';
import { NotesStore } from '../assistant/notes-store';
import { runTranscript } from '../transcript';
import type { TranscriptOptions } from '../transcript';
import { AppModule } from './app.module';

/**
 * Starts the application, replays every recorded call through its ToolRegistry, and closes it.
 * @returns the number of calls replayed
 */
export async function runNestSample(
  options: Pick<TranscriptOptions, 'fixturesDir' | 'manifestPath' | 'write'>,
): Promise<number> {
  const app = await NestFactory.createApplicationContext(AppModule.withManifest(options.manifestPath), {
    logger: false,
  });
  try {
    return await runTranscript({
      ...options,
      registry: app.get(ToolRegistry),
      notes: app.get(NotesStore),
      title: 'scope-tool NestJS sample: the weather and notes assistant as a Nest application',
    });
  } finally {
    await app.close();
  }
}
