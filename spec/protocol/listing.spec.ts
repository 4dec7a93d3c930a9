/**
 * Issue 14 row 3 in the protocol: per-caller tool lists. A policy's listing check
 * (Authorizer.canList, asked without arguments) decides what `Registry.definitions(caller)` and
 * `Registry.visibleTo(caller)` show; a hidden tool is refused through the view exactly as an
 * unknown one.
 */
import {
  FuncTool,
  Guard,
  Registry,
  callerAuthorizer,
  type Authorizer,
  type CallOptions,
  type Definition,
  type JsonValue,
  type ToolError,
} from '../../lib/protocol';
import { prepareToolCall } from '../../lib/providers';
import { rejectionOf, thrownBy } from './helpers';

const inputSchema = { type: 'object' };
const func = (name: string, readOnlyHint: boolean) =>
  FuncTool.create({ name, inputSchema, annotations: { readOnlyHint }, decode: (v: JsonValue) => v }, () => 'ran');

/** Admins see and call everything; everyone else only the read-only tools. */
const roles = callerAuthorizer(
  (definition: Definition, options: CallOptions) =>
    (options.context as { role?: string } | undefined)?.role === 'admin' ||
    definition.annotations?.readOnlyHint === true,
);

function registry(...extra: Guard[]): Registry {
  return new Registry(
    new Guard({ tool: func('read_note', true), authorizer: roles }),
    new Guard({ tool: func('delete_note', false), authorizer: roles }),
    ...extra,
  );
}

const names = (definitions: Definition[]) => definitions.map((d) => d.name);

describe('Registry.definitions(caller)', () => {
  it('lists what the caller may see, sorted; without a caller, everything', async () => {
    const r = registry();
    expect(names(await r.definitions({ context: { role: 'admin' } }))).toEqual(['delete_note', 'read_note']);
    expect(names(await r.definitions({ context: { role: 'guest' } }))).toEqual(['read_note']);
    expect(names(r.definitions())).toEqual(['delete_note', 'read_note']);
  });

  it('keeps a tool whose policy has no listing check (it needs the arguments)', async () => {
    const byArguments = new Guard({ tool: func('search', false), authorizer: () => true });
    expect(names(await registry(byArguments).definitions({ context: { role: 'guest' } }))).toEqual([
      'read_note',
      'search',
    ]);
  });

  it('hides a tool whose listing check throws, rejects or decides a non-boolean (fail closed)', async () => {
    const broken = (canList: Authorizer['canList']): Guard =>
      new Guard({
        tool: func(`t${Math.random().toString(36).slice(2, 8)}`, true),
        authorizer: { authorize: () => true, canList },
      });
    const r = new Registry(
      broken(() => {
        throw new Error('boom');
      }),
      broken(() => Promise.reject(new Error('boom'))),
      broken(() => 'yes' as never),
    );
    expect(await r.definitions({})).toEqual([]);
  });

  it('asks every Guard of the chain, outermost first; one refusal hides the tool', async () => {
    const asked: string[] = [];
    const check = (label: string, verdict: boolean): Authorizer => ({
      authorize: () => true,
      canList: () => (asked.push(label), verdict),
    });
    const inner = new Guard({ tool: func('x', true), authorizer: check('inner', true) });
    const r = new Registry(new Guard({ tool: inner, authorizer: check('outer', false) }));
    expect(await r.definitions({})).toEqual([]);
    expect(asked).toEqual(['outer']);
  });

  it('rejects with the abort reason when the caller is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    expect(await rejectionOf(registry().definitions({ signal: controller.signal }))).toBe(reason);
  });
});

describe('Registry.visibleTo(caller)', () => {
  it('refuses a hidden tool exactly as an unknown one: same code, same message, only visible names', async () => {
    const view = await registry().visibleTo({ context: { role: 'guest' } });
    const call = (name: string) => () => prepareToolCall(view, { id: '1', request: { name, arguments: '{}' } });
    const hidden = thrownBy(call('delete_note')) as ToolError;
    const unknown = thrownBy(call('no_such_tool')) as ToolError;
    expect(hidden.code).toBe(unknown.code);
    expect(hidden.issues[0].code).toBe('unknown_tool');
    expect(hidden.message.replace('delete_note', 'X')).toBe(unknown.message.replace('no_such_tool', 'X'));
    expect(hidden.issues[0].params?.availableTools).toEqual(['read_note']);
  });

  it('shares the bindings: an invocation prepared through the view runs through it', async () => {
    const r = registry();
    const view = await r.visibleTo({ context: { role: 'guest' } });
    expect(view.resolve('read_note')).toBe(r.resolve('read_note'));
    const { binding, invocation } = prepareToolCall(view, { id: '1', request: { name: 'read_note', arguments: '{}' } });
    const result = await binding.call(invocation, { context: { role: 'guest' } });
    expect('output' in result && result.output.asText()).toBe('ran');
  });

  it('reports whether any tool has a listing check', () => {
    expect(registry().hasListingChecks).toBe(true);
    expect(new Registry(func('plain', true)).hasListingChecks).toBe(false);
  });
});

describe('callerAuthorizer', () => {
  it('decides calls by the same rule as the listing', async () => {
    const r = registry();
    const binding = r.resolve('delete_note')!;
    const invocation = binding.contract.prepare({ name: 'delete_note', arguments: '{}' });
    const refused = await rejectionOf(binding.call(invocation, { context: { role: 'guest' } }));
    expect((refused as { kind?: string }).kind).toBe('rejected');
    const ran = await binding.call(invocation, { context: { role: 'admin' } });
    expect('output' in ran).toBe(true);
  });

  it('refuses something that is not a function', () => {
    expect((thrownBy(() => callerAuthorizer(null as never)) as ToolError).code).toBe('ERR_INVALID_TOOL');
  });
});
