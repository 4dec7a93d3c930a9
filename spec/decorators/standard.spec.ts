/**
 * Compiled without `experimentalDecorators`, TypeScript (and esbuild) call decorators the standard
 * (TC39) way, `(value, context)`: every scope-tool decorator refuses that at start-up with the
 * error that says which settings to set (issue 15 item 1). The calls below are the ones
 * TypeScript's standard decorator emit makes; spec/package/dist.spec.ts runs a consumer compiled so.
 */
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { standardDecorator } from '../../lib/decorators/messages';

class IssueTools {
  create(): string {
    return 'created';
  }
}

const methodContext = { kind: 'method', name: 'create', static: false, private: false, metadata: {} };
const classContext = { kind: 'class', name: 'IssueTools', metadata: {} };

/** Calls a decorator as the standard emit does; the untyped call is the point. */
function callStandard(decorator: unknown, value: unknown, context: object): () => void {
  return () => (decorator as (value: unknown, context: object) => void)(value, context);
}

describe('a decorator compiled as a standard (TC39) decorator', () => {
  it('@Tool() refuses, saying to enable experimental decorators', () => {
    expect(callStandard(Tool(), IssueTools.prototype.create, methodContext)).toThrow(
      standardDecorator('@Tool()', 'create'),
    );
  });

  it('@Toolset() refuses, naming the class', () => {
    expect(callStandard(Toolset(), IssueTools, classContext)).toThrow(standardDecorator('@Toolset()', 'IssueTools'));
  });

  it('@Authorize() refuses on a class and on a method', () => {
    const policy = () => true;
    expect(callStandard(Authorize(policy), IssueTools, classContext)).toThrow(
      standardDecorator('@Authorize()', 'IssueTools'),
    );
    expect(callStandard(Authorize(policy), IssueTools.prototype.create, methodContext)).toThrow(
      standardDecorator('@Authorize()', 'create'),
    );
  });

  it('an experimental decorator call is unaffected', () => {
    const descriptor = Object.getOwnPropertyDescriptor(IssueTools.prototype, 'create');
    expect(() => Tool()(IssueTools.prototype, 'create', descriptor!)).not.toThrow();
    expect(() => Toolset()(IssueTools)).not.toThrow();
  });
});
