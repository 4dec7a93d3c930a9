import { hasErrorCode } from '../../lib/protocol';
import { notARegistry, notAToolCall, shapeOf, unreadableMember } from '../../lib/providers/messages';

// The one place the providers layer's developer sentences are pinned; other specs assert codes.
describe('providers messages', () => {
  it('a call of another shape names the expected shape, what was given and the readers', () => {
    const err = notAToolCall('an object with members id, name, arguments');
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(hasErrorCode(err, 'ERR_INVALID_REQUEST')).toBe(true);
    expect(err.message).toBe(
      "tool: invalid invocation: invalid request: prepareToolCall: the call must be { id, request: { name, arguments } }, name the tool name and arguments the model's JSON text (a string), but it is an object with members id, name, arguments; pass a call as the provider readers return it (openAIChatToolCalls, anthropicToolCalls, geminiFunctionCalls, ...) or build that shape",
    );
  });

  it('a registry that is not one names what was given; a thrown getter is the cause, not the text', () => {
    const thrown = new Error('boom');
    const err = notARegistry(unreadableMember('resolve or definitions method'), thrown);
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect((err.cause as Error).cause).toBe(thrown);
    expect(err.message).toBe(
      'tool: invalid invocation: invalid request: prepareToolCall: the registry must be a Registry (with resolve and definitions methods), but it is an object whose resolve or definitions method could not be read (reading it threw; the thrown value is the cause); pass the Registry holding the tools the model was offered',
    );
  });

  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'undefined'],
    ['x', 'a string'],
    [1, 'a number'],
    [[], 'an array'],
    [{}, 'an empty object'],
    [{ id: 1 }, 'an object with member id'],
    [{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }, 'an object with members a, b, c, d, e and 2 more'],
    [{ ['k'.repeat(40)]: 1 }, `an object with member ${'k'.repeat(32)}...`],
  ])('shapeOf(%p) is %s', (value, text) => {
    expect(shapeOf(value)).toBe(text);
  });
});
