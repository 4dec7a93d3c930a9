import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  Authorize,
  isPolicy,
  readParamTypes,
  readPolicies,
  readTool,
  readTools,
  readToolset,
  Tool,
  Toolset,
} from '../../lib/decorators';
import type { ToolCall } from '../../lib/decorators';
import type { Authorization } from '../../lib/protocol';

class NoteInput {
  @IsString() title!: string;
}

const allowAll = (): boolean => true;
class ScopePolicy {
  authorize(_a: Authorization): boolean {
    return true;
  }
}
const objectPolicy = { authorize: () => true };

describe('@Toolset', () => {
  it('stamps the class with its options', () => {
    @Toolset({ description: 'notes' })
    class NotesTools {}
    class Plain {}
    expect(readToolset(NotesTools)).toEqual({ description: 'notes' });
    expect(readToolset(Plain)).toBeUndefined();
  });

  it('refuses a description that is not a string, naming the class', () => {
    expect(() => {
      @Toolset({ description: 5 as unknown as string })
      class Bad {}
      return Bad;
    }).toThrow(/@Toolset\(\) on Bad: description must be a string/);
  });
});

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
      }).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_TOOL',
          message: expect.stringContaining('@Tool() on NotesTools.createNote: tool name'),
        }),
      );
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
    }).toThrow(/@Tool\(\) on T\.s: a tool must be an instance method, not static/);
    expect(() => {
      class T {
        @Tool()
        get g(): number {
          return 1;
        }
      }
      return T;
    }).toThrow(/@Tool\(\) on T\.g: a tool must be a method, not an accessor/);
  });
});

describe('@Authorize', () => {
  it('accepts Authorizer objects, functions and Authorizer classes', () => {
    expect(isPolicy(allowAll)).toBe(true);
    expect(isPolicy(ScopePolicy)).toBe(true);
    expect(isPolicy(objectPolicy)).toBe(true);
    expect(isPolicy(class NotAPolicy {})).toBe(false);
    expect(isPolicy({})).toBe(false);
    expect(isPolicy(null)).toBe(false);
  });

  it('appends at class and method level: two @Authorize both apply, in written order', () => {
    const second = (): boolean => true;
    @Authorize(allowAll)
    @Authorize(ScopePolicy, second)
    class NotesTools {
      @Authorize(objectPolicy)
      @Authorize(second)
      @Tool()
      createNote(): void {}
    }
    expect(readPolicies(NotesTools, 'class')).toEqual([allowAll, ScopePolicy, second]);
    expect(readPolicies(NotesTools.prototype.createNote, 'method')).toEqual([objectPolicy, second]);
  });

  it('inherits class policies, base class first', () => {
    const base = (): boolean => true;
    const derived = (): boolean => true;
    @Authorize(base)
    class Base {}
    @Authorize(derived)
    class Derived extends Base {}
    expect(readPolicies(Derived, 'class')).toEqual([base, derived]);
  });

  it('refuses a policy that is not an Authorizer, function or class, naming its position and place', () => {
    expect(() => {
      class NotesTools {
        @Authorize(allowAll, 'admin' as never)
        @Tool()
        createNote(): void {}
      }
      return NotesTools;
    }).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_TOOL',
        message: expect.stringContaining(
          '@Authorize() on NotesTools.createNote: policy 2 is not an Authorizer, function or class',
        ),
      }),
    );
    expect(() => {
      @Authorize(class Nope {} as never)
      class NotesTools {}
      return NotesTools;
    }).toThrow(/@Authorize\(\) on NotesTools: policy 1 is not/);
  });

  it('refuses an empty policy list', () => {
    expect(() => {
      @Authorize()
      class NotesTools {}
      return NotesTools;
    }).toThrow(/@Authorize\(\) on NotesTools: give at least one policy/);
  });
});
