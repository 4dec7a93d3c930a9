/**
 * The input class of a tool method (lib/container/method-tool.ts inputClassOf): `@Tool({ input })`
 * where the compiler emits no `design:paramtypes` (tsx, esbuild, Vitest, SWC without decorator
 * metadata), the metadata where there is no option, and a refusal at createRegistry when both exist
 * and disagree or when neither does. The toolsets without metadata are decorated by hand, as those
 * compilers' output does (a decorator call, no `design:*` keys).
 */
import 'reflect-metadata';
import { IsString, Length } from 'class-validator';
import { Authorize, readParamTypes, Tool, Toolset } from '../../lib/decorators';
import type { ToolCall, ToolOptions } from '../../lib/decorators';
import { createRegistry } from '../../lib/container';
import type { Binding, Registry, ToolError } from '../../lib/protocol';
import { inputMismatch, inputNotAClass, noInputClass, staleEntry, staleInput } from '../../lib/container/messages';
import { entry, manifest } from './fixtures';

/** Matches a thrown error with the code and the message of `expected` (built by lib/container/messages.ts). */
const refusal = (expected: ToolError) => expect.objectContaining({ code: expected.code, message: expected.message });

class CreateIssueInput {
  @IsString() @Length(1, 80) title!: string;
}
class OtherInput {
  @IsString() body!: string;
}
const ISSUE_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1, maxLength: 80 } },
  required: ['title'],
  additionalProperties: false,
};

/**
 * A toolset class whose methods are decorated as an esbuild-style compiler leaves them: `@Tool(options)`
 * applied by a call, `@Authorize` and `@Toolset` on the class, and no `design:paramtypes`.
 */
function toolsetWithoutMetadata(
  methods: Record<string, (this: unknown, input: unknown, call: ToolCall) => unknown>,
  options: Record<string, ToolOptions>,
): new () => object {
  class IssueTools {}
  for (const [key, method] of Object.entries(methods)) {
    Object.defineProperty(IssueTools.prototype, key, { value: method, writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(IssueTools.prototype, key);
    Tool(options[key])(IssueTools.prototype, key, descriptor as PropertyDescriptor);
  }
  Authorize(() => true)(IssueTools);
  Toolset()(IssueTools);
  return IssueTools;
}

function binding(registry: Registry, name: string): Binding {
  const b = registry.resolve(name);
  if (b === undefined) throw new Error(`${name} not registered`);
  return b;
}

describe('@Tool({ input }) without design:paramtypes', () => {
  const received: unknown[] = [];
  const Tools = toolsetWithoutMetadata(
    {
      create(input) {
        received.push(input);
        return 'created';
      },
      count() {
        return '0';
      },
    },
    { create: { name: 'create_issue', input: CreateIssueInput }, count: { name: 'count', input: null } },
  );
  const MANIFEST = manifest(
    entry('create_issue', 'IssueTools', 'create', 'CreateIssueInput', ISSUE_SCHEMA),
    entry('count', 'IssueTools', 'count', null),
  );

  it('emits no metadata for the hand-decorated methods', () => {
    expect(readParamTypes(Tools.prototype, 'create')).toBeUndefined();
    expect(readParamTypes(Tools.prototype, 'count')).toBeUndefined();
  });

  it('decodes the arguments into the given class and completes a guarded call', async () => {
    const registry = createRegistry({ manifest: MANIFEST, toolsets: [new Tools()] });
    const b = binding(registry, 'create_issue');
    const result = await b.call(b.contract.prepare({ name: 'create_issue', arguments: '{"title":"Crash"}' }));
    expect('output' in result && result.output.asText()).toBe('created');
    expect(received.at(-1)).toBeInstanceOf(CreateIssueInput);
    expect(received.at(-1)).toEqual(Object.assign(new CreateIssueInput(), { title: 'Crash' }));
  });

  it("refuses arguments the given class refuses, at prepare, with the DTO's issues", () => {
    const registry = createRegistry({ manifest: MANIFEST, toolsets: [new Tools()] });
    const prepare = (args: string) =>
      binding(registry, 'create_issue').contract.prepare({ name: 'create_issue', arguments: args });
    expect(() => prepare('{"title":""}')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }));
    expect(() => prepare('{"title":"x","extra":1}')).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }),
    );
  });

  it('takes input: null as a method without input ({} arguments only)', async () => {
    const registry = createRegistry({ manifest: MANIFEST, toolsets: [new Tools()] });
    const b = binding(registry, 'count');
    const result = await b.call(b.contract.prepare({ name: 'count', arguments: '{}' }));
    expect('output' in result && result.output.asText()).toBe('0');
    expect(() => b.contract.prepare({ name: 'count', arguments: '{"a":1}' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_INVOCATION' }),
    );
  });

  it('still compares the given class with the manifest', () => {
    const stale = manifest(
      entry('create_issue', 'IssueTools', 'create', 'OtherInput', ISSUE_SCHEMA),
      entry('count', 'IssueTools', 'count', null),
    );
    expect(() => createRegistry({ manifest: stale, toolsets: [new Tools()] })).toThrow(
      refusal(staleEntry('create_issue', 'IssueTools.create', staleInput('CreateIssueInput', 'OtherInput'))),
    );
  });

  it('refuses a tool with neither input nor metadata, naming the tool and Class.method', () => {
    const Bare = toolsetWithoutMetadata({ create: () => 'created' }, { create: { name: 'create_issue' } });
    expect(() => createRegistry({ manifest: MANIFEST, toolsets: [new Bare()] })).toThrow(
      refusal(noInputClass('create_issue', 'IssueTools.create')),
    );
  });

  it('refuses a built-in type given as input (String has no run-time shape)', () => {
    const Built = toolsetWithoutMetadata(
      { create: () => 'created' },
      { create: { name: 'create_issue', input: String as unknown as ToolOptions['input'] } },
    );
    expect(() => createRegistry({ manifest: MANIFEST, toolsets: [new Built()] })).toThrow(
      refusal(inputNotAClass('IssueTools.create', 'String')),
    );
  });
});

describe('@Tool({ input }) with design:paramtypes', () => {
  @Toolset()
  class IssueTools {
    @Tool({ name: 'create_issue', input: CreateIssueInput })
    create(input: CreateIssueInput): string {
      return input.title;
    }
  }

  it('binds when the option and the metadata name the same class', async () => {
    expect(readParamTypes(IssueTools.prototype, 'create')?.[0]).toBe(CreateIssueInput);
    const registry = createRegistry({
      manifest: manifest(entry('create_issue', 'IssueTools', 'create', 'CreateIssueInput', ISSUE_SCHEMA)),
      toolsets: [new IssueTools()],
    });
    const b = binding(registry, 'create_issue');
    const result = await b.call(b.contract.prepare({ name: 'create_issue', arguments: '{"title":"Crash"}' }));
    expect('output' in result && result.output.asText()).toBe('Crash');
  });

  it('refuses another class than the parameter type at start-up, naming the tool and both classes', () => {
    @Toolset()
    class MismatchTools {
      @Tool({ name: 'create_issue', input: OtherInput })
      create(input: CreateIssueInput): string {
        return input.title;
      }
    }
    const tools = manifest(entry('create_issue', 'MismatchTools', 'create', 'CreateIssueInput', ISSUE_SCHEMA));
    expect(() => createRegistry({ manifest: tools, toolsets: [new MismatchTools()] })).toThrow(
      refusal(inputMismatch('create_issue', 'MismatchTools.create', 'OtherInput', 'CreateIssueInput')),
    );
  });

  it('refuses a class for a method without parameters, and null for a method with one', () => {
    @Toolset()
    class CountTools {
      @Tool({ name: 'count', input: CreateIssueInput })
      count(): string {
        return '0';
      }
    }
    @Toolset()
    class CloseTools {
      @Tool({ name: 'close', input: null })
      close(input: CreateIssueInput): string {
        return input.title;
      }
    }
    expect(() =>
      createRegistry({ manifest: manifest(entry('count', 'CountTools', 'count', null)), toolsets: [new CountTools()] }),
    ).toThrow(refusal(inputMismatch('count', 'CountTools.count', 'CreateIssueInput', null)));
    expect(() =>
      createRegistry({
        manifest: manifest(entry('close', 'CloseTools', 'close', 'CreateIssueInput', ISSUE_SCHEMA)),
        toolsets: [new CloseTools()],
      }),
    ).toThrow(refusal(inputMismatch('close', 'CloseTools.close', null, 'CreateIssueInput')));
  });
});
