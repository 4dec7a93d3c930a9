import { Module } from '@nestjs/common';
import { DiagnosticsTools } from '../assistant/diagnostics.tools';
import { NotesStore } from '../assistant/notes-store';
import { NotesTools } from '../assistant/notes.tools';
import { WeatherTools } from '../assistant/weather.tools';
import { GreeterTools } from '../readme-example';
import { CallerDirectory } from './caller-directory';
import { KnownCallerPolicy } from './known-caller.policy';

/** The main sample's toolsets as Nest providers: NotesTools gets the NotesStore repository injected. */
@Module({
  providers: [NotesStore, WeatherTools, NotesTools, DiagnosticsTools, GreeterTools, CallerDirectory, KnownCallerPolicy],
  exports: [NotesStore],
})
export class AssistantModule {}
