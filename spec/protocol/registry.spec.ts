import { Registry, ToolError, hasErrorCode, type Definition } from '../../lib/protocol';
import { FakeTool, thrownBy } from './helpers';

const tool = (name: string, description?: string) =>
  new FakeTool({ name, description, inputSchema: { type: 'object' } } as Definition);

describe('Registry', () => {
  it('registers a batch and resolves by exact name', () => {
    const registry = new Registry(tool('b'), tool('a'));
    expect(registry.resolve('a')?.contract.name).toBe('a');
    expect(registry.resolve('A')).toBeUndefined();
    expect(registry.resolve('c')).toBeUndefined();
  });

  it('treats an empty batch as a no-op', () => {
    const registry = new Registry();
    registry.register();
    expect(registry.definitions()).toEqual([]);
  });

  it('returns the same binding every time, so invocations prepared through one resolve run through another', async () => {
    const registry = new Registry(tool('a'));
    const invocation = registry.resolve('a')?.contract.prepare({ name: 'a', arguments: '{}' });
    await expect(registry.resolve('a')?.call(invocation as never)).resolves.toBeDefined();
  });

  it('refuses a duplicate inside a batch and registers nothing from it', () => {
    const registry = new Registry(tool('x'));
    const err = thrownBy(() => registry.register(tool('a'), tool('b'), tool('a'))) as ToolError;
    expect(err.code).toBe('ERR_DUPLICATE_TOOL');
    expect(err.message).toBe(
      'tool: duplicate tool: tools[2]: "a" appears more than once in batch (also tools[0]); give each tool a unique name',
    );
    expect(registry.resolve('a')).toBeUndefined();
    expect(registry.resolve('b')).toBeUndefined();
    expect(registry.definitions().map((d) => d.name)).toEqual(['x']);
  });

  it('refuses a name already registered and registers nothing from the batch', () => {
    const registry = new Registry(tool('a'));
    const err = thrownBy(() => registry.register(tool('b'), tool('a'))) as ToolError;
    expect(err.code).toBe('ERR_DUPLICATE_TOOL');
    expect(err.message).toBe('tool: duplicate tool: tools[1]: "a" is already registered; rename one of the tools');
    expect(registry.resolve('b')).toBeUndefined();
  });

  it('reports the first conflict in batch order, deterministically', () => {
    const registry = new Registry(tool('a'), tool('b'));
    for (let i = 0; i < 32; i++) {
      expect(() => registry.register(tool('c'), tool('b'), tool('a'))).toThrow('tools[1]: "b" is already registered');
    }
  });

  it('reports whichever problem comes at the lower index: bind error or duplicate', () => {
    const registry = new Registry();
    expect(() => registry.register(tool('a'), tool('a'), null as never)).toThrow(
      'tools[1]: "a" appears more than once',
    );
    const err = thrownBy(() => registry.register(tool('a'), null as never, tool('a'))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(err.message).toBe('tool: invalid tool: tools[1]: tool is nil; pass an object with definition() and call()');
  });

  it('keeps the cause of a bind failure reachable', () => {
    const err = thrownBy(() => new Registry(tool('bad name'))) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_DEFINITION')).toBe(true);
    expect(err.message).toMatch(/^tool: invalid tool: tools\[0\]: definition: /);
  });

  it('treats toString, __proto__ and constructor as ordinary names', () => {
    const empty = new Registry();
    expect(empty.resolve('__proto__')).toBeUndefined();
    expect(empty.resolve('toString')).toBeUndefined();
    const registry = new Registry(tool('toString'), tool('constructor'), tool('__proto__'));
    expect(registry.resolve('hasOwnProperty')).toBeUndefined();
    expect(registry.resolve('__proto__')?.contract.name).toBe('__proto__');
    expect(registry.definitions().map((d) => d.name)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(registry.resolve('toString')?.contract.name).toBe('toString');
    expect(registry.resolve('constructor')?.contract.name).toBe('constructor');
    expect(() => registry.register(tool('toString'))).toThrow(ToolError);
  });

  it('lists definitions sorted by name in code unit order, detached', () => {
    const registry = new Registry(tool('b'), tool('B'), tool('a_1'), tool('a'));
    const definitions = registry.definitions();
    expect(definitions.map((d) => d.name)).toEqual(['B', 'a', 'a_1', 'b']);
    definitions.pop();
    expect(registry.definitions()).toHaveLength(4);
    expect(Object.isFrozen(definitions[0])).toBe(true);
    expect(Object.isFrozen(definitions[0].inputSchema)).toBe(true);
  });

  it('snapshots definitions at registration', () => {
    const t = tool('a', 'first');
    const registry = new Registry(t);
    t.def = { name: 'a', description: 'changed', inputSchema: { type: 'object' } };
    expect(registry.definitions()[0].description).toBe('first');
  });
});
