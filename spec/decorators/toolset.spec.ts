import 'reflect-metadata';
import { readToolset, Toolset } from '../../lib/decorators';
import { refusedBy } from './support';

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
    }).toThrow(refusedBy('@Toolset()', 'Bad', 'description'));
  });
});
