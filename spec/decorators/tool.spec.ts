import 'reflect-metadata';
import { IsString } from 'class-validator';
import { readParamTypes, readTool, readTools, Tool } from '../../lib/decorators';
import type { ToolCall, ToolOptions } from '../../lib/decorators';
import type { ToolError } from '../../lib/protocol';
import { refusedBy } from './support';

class NoteInput {
  @IsString() title!: string;
}

describe('@Tool', () => {
  it('records the name (defaulting to the method name) and the input parameter type', () => {
    class NotesTools {
      @Tool({ name: 'create_note', description: 'Create a note' })
      createNote(input: NoteInput, call: ToolCall): string {
        return `${input.title}${call.context === undefined ? '' : '!'}`;
      }
      @Tool()
      listNotes(): string[] {
        return [];
      }
    }
    expect(readTools(NotesTools.prototype)).toEqual(['createNote', 'listNotes']);
    expect(readTool(NotesTools.prototype.createNote)).toEqual({ name: 'create_note', description: 'Create a note' });
    expect(readTool(NotesTools.prototype.listNotes)).toEqual({ name: 'listNotes' });
    expect(readParamTypes(NotesTools.prototype, 'createNote')?.[0]).toBe(NoteInput);
    expect(readParamTypes(NotesTools.prototype, 'listNotes')).toEqual([]);
  });

  it.each(['', 'has space', 'a'.repeat(65), 'dot.name', 'ünicode'])(
    'refuses the tool name %j when the decorator runs, naming class and method',
    (name) => {
      expect(() => {
        class NotesTools {
          @Tool({ name })
          createNote(): void {}
        }
        return NotesTools;
      }).toThrow(refusedBy('@Tool()', 'NotesTools.createNote', 'tool name'));
    },
  );

  it('accepts a 64-character name', () => {
    class T {
      @Tool({ name: 'a'.repeat(64) })
      m(): void {}
    }
    expect(readTool(T.prototype.m)?.name).toHaveLength(64);
  });

  it('refuses static methods and accessors', () => {
    expect(() => {
      class T {
        @Tool()
        static s(): void {}
      }
      return T;
    }).toThrow(refusedBy('@Tool()', 'T.s', 'static'));
    expect(() => {
      class T {
        @Tool()
        get g(): number {
          return 1;
        }
      }
      return T;
    }).toThrow(refusedBy('@Tool()', 'T.g', 'accessor'));
  });
});

describe('@Tool({ timeoutMs })', () => {
  it('keeps a valid deadline in the metadata', () => {
    class T {
      @Tool({ timeoutMs: 1500 })
      m(): void {}
    }
    expect(readTool(T.prototype.m)).toEqual({ name: 'm', timeoutMs: 1500 });
  });

  it.each([[-1], [0], [NaN], [0.5], [2 ** 31], ['100'], [null]])('refuses timeoutMs %p, naming the method', (value) => {
    let error: unknown;
    try {
      class T {
        @Tool({ timeoutMs: value as number })
        m(): void {}
      }
      void T;
    } catch (e) {
      error = e;
    }
    expect((error as ToolError).code).toBe('ERR_INVALID_TOOL');
    expect((error as ToolError).message).toContain('@Tool() on T.m: timeoutMs is ');
  });
});

describe('@Tool({ input })', () => {
  it('records the input class, and null for a method without input', () => {
    class T {
      @Tool({ input: NoteInput })
      create(input: NoteInput): string {
        return input.title;
      }
      @Tool({ input: null })
      count(): number {
        return 0;
      }
    }
    expect(readTool(T.prototype.create)).toEqual({ name: 'create', input: NoteInput });
    expect(readTool(T.prototype.count)).toEqual({ name: 'count', input: null });
  });

  it.each([['NoteInput'], [{}], [1], [() => NoteInput]])(
    'refuses input %p (not a class nor null) when the decorator runs, naming the method',
    (value) => {
      expect(() => {
        class T {
          @Tool({ input: value as unknown as ToolOptions['input'] })
          m(): void {}
        }
        return T;
      }).toThrow(refusedBy('@Tool()', 'T.m', 'input must be'));
    },
  );
});
