import { MAX_WRAPPERS, ToolError, capability, isError, isWrappingTool, type Tool } from '../../lib/protocol';
import { FakeTool, Wrapper, thrownBy } from './helpers';

class Target extends FakeTool {
  readonly special = true;
}
const isTarget = (value: unknown): value is Target => value instanceof Target;

function wrap(tool: Tool, times: number): Tool {
  let current = tool;
  for (let i = 0; i < times; i++) current = new Wrapper(current);
  return current;
}

describe('capability', () => {
  it('finds the tool itself', () => {
    const target = new Target();
    expect(capability(target, isTarget)).toBe(target);
  });

  it('finds a capability after 64 wrappers', () => {
    const target = new Target();
    expect(MAX_WRAPPERS).toBe(64);
    expect(capability(wrap(target, 64), isTarget)).toBe(target);
  });

  it('refuses a chain of 65 wrappers with ERR_INVALID_WRAPPING_CHAIN', () => {
    const err = thrownBy(() => capability(wrap(new Target(), 65), isTarget)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_WRAPPING_CHAIN');
    expect(err.message).toBe(
      'tool: invalid wrapping chain: Wrapper exceeds 64 wrappers; shorten the chain or break its cycle',
    );
  });

  it('ends without error after 64 wrappers around a tool without the capability', () => {
    expect(capability(wrap(new FakeTool(), 64), isTarget)).toBeUndefined();
  });

  it('returns the outermost match', () => {
    const inner = new Target();
    const outer = Object.assign(new Target(), { unwrap: () => inner });
    expect(capability(outer, isTarget)).toBe(outer);
  });

  it('catches a cycle by the depth limit', () => {
    const a = new Wrapper(new FakeTool());
    a.inner = a;
    expect((thrownBy(() => capability(a, isTarget)) as ToolError).code).toBe('ERR_INVALID_WRAPPING_CHAIN');
  });

  it('ends the search on null, undefined and an unwrap() returning null', () => {
    expect(capability(null, isTarget)).toBeUndefined();
    expect(capability(undefined, isTarget)).toBeUndefined();
    expect(capability(new Wrapper(null as never), isTarget)).toBeUndefined();
  });

  it('turns a throwing unwrap() into ERR_INVALID_WRAPPING_CHAIN with the thrown error as cause', () => {
    const boom = new Error('boom');
    const bad = Object.assign(new FakeTool(), {
      unwrap: () => {
        throw boom;
      },
    });
    const err = thrownBy(() => capability(bad, isTarget)) as ToolError;
    expect(err.code).toBe('ERR_INVALID_WRAPPING_CHAIN');
    expect(err.message).toContain('unwrap() threw at depth 0: boom');
    expect(isError(err, boom)).toBe(true);
  });

  it('recognizes wrapping tools', () => {
    expect(isWrappingTool(new Wrapper(new FakeTool()))).toBe(true);
    expect(isWrappingTool(new FakeTool())).toBe(false);
  });
});
