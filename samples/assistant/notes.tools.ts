import { ArrayMaxSize, IsArray, IsString, Length, Matches, MaxLength } from 'class-validator';
import { InputRequest, Output } from 'scope-tool';
import { Authorize, Tool, ToolCall, Toolset } from 'scope-tool/decorators';
import { NotesStore } from './notes-store';
import { requireScope } from './policies';

/** A text file to create in the caller's notes. */
export class MakeFileInput {
  /** File name, e.g. taxes.txt */
  @IsString() @Matches(/^[\w.-]{1,64}$/) filename!: string;
  /** The file's lines, in order. */
  @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) @MaxLength(2000, { each: true }) lines_of_text!: string[];
}

/** An analysis to file as a note. */
export class SubmitAnalysisInput {
  /** The analysis text. */
  @IsString() @Length(1, 5000) summary!: string;
}

@Toolset()
@Authorize(requireScope('notes:write'))
export class NotesTools {
  constructor(private readonly store: NotesStore) {}

  /** Create a text file in the caller's notes. */
  @Tool({ name: 'write_note_file' })
  makeFile(input: MakeFileInput): { id: string; lines: number } {
    const id = this.store.save(input.filename, input.lines_of_text.join('\n'));
    return { id, lines: input.lines_of_text.length };
  }

  /**
   * File an analysis as a note, after the user confirms. The first call suspends with an
   * InputRequest; the call resumed with the user's validated answer completes.
   */
  @Tool({ name: 'save_analysis_note' })
  submitAnalysis(input: SubmitAnalysisInput, call: ToolCall): InputRequest | Output | string {
    if (call.continuation === undefined) {
      return InputRequest.create({
        prompt: JSON.stringify(`File this ${input.summary.length}-character analysis as a note?`),
        responseSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean' }, title: { type: 'string', minLength: 1, maxLength: 80 } },
          required: ['approve'],
          additionalProperties: false,
        },
        continuationState: JSON.stringify({ step: 'confirm' }),
      });
    }
    const answer = JSON.parse(call.continuation.response) as { approve: boolean; title?: string };
    if (!answer.approve) return Output.text('The user declined; nothing was filed.');
    const id = this.store.save(answer.title ?? 'analysis', input.summary);
    return `Filed the analysis as ${id}.`;
  }
}
