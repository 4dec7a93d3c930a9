import 'reflect-metadata';
import { Authorize, isPolicy, readPolicies, Tool } from '../../lib/decorators';
import type { Authorization } from '../../lib/protocol';
import { refusedBy } from './support';

const allowAll = (): boolean => true;
class ScopePolicy {
  authorize(_a: Authorization): boolean {
    return true;
  }
}
const objectPolicy = { authorize: () => true };

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
    expect(readPolicies(NotesTools.prototype, 'method', 'createNote')).toEqual([objectPolicy, second]);
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
    }).toThrow(refusedBy('@Authorize()', 'NotesTools.createNote', 'policy 2 '));
    expect(() => {
      @Authorize(class Nope {} as never)
      class NotesTools {}
      return NotesTools;
    }).toThrow(refusedBy('@Authorize()', 'NotesTools', 'policy 1 '));
  });

  it('refuses an empty policy list', () => {
    expect(() => {
      @Authorize()
      class NotesTools {}
      return NotesTools;
    }).toThrow(refusedBy('@Authorize()', 'NotesTools', 'at least one policy'));
  });
});
