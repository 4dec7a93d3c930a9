/**
 * The seed's four documented examples, with their exact printed outputs (`fmt.Println` lines).
 */
import {
  FuncTool,
  Failure,
  Guard,
  InputRequest,
  Output,
  Registry,
  bind,
  classifyFailure,
  isError,
  type JsonValue,
} from '../../lib/protocol';

function decodeAddInput(value: JsonValue): { a: number; b: number } {
  const { a, b } = value as { a: number; b: number };
  return { a, b };
}

describe('seed examples', () => {
  it('package example prints "add" then "5"', async () => {
    const printed: string[] = [];
    const add = FuncTool.create(
      {
        name: 'add',
        description: 'add two integers',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'integer' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        decode: decodeAddInput,
      },
      (value) => value.a + value.b,
    );
    const registry = new Registry(add);
    printed.push(registry.definitions()[0].name);
    const binding = registry.resolve('add');
    if (binding === undefined) throw new Error('missing add');
    const invocation = binding.contract.prepare({ name: 'add', arguments: '{"a":2,"b":3}' }, null);
    const result = await binding.call(invocation);
    if (!('output' in result)) throw new Error('expected an output');
    printed.push(result.output.asText() ?? '');
    expect(printed).toEqual(['add', '5']);
  });

  it('NewFailure example prints "rejected this operation is not permitted" then "false"', () => {
    const printed: string[] = [];
    const failure = new Failure({
      kind: 'rejected',
      cause: new Error('internal authorization diagnostic'),
      output: Output.text('this operation is not permitted'),
    });
    const wrapped = new Error(`tool call: ${failure.message}`, { cause: failure });
    const result = classifyFailure(wrapped);
    if (result === undefined) throw new Error('missing definite outcome');
    printed.push(`${result.kind} ${result.output.asText() ?? ''}`);
    printed.push(String(isError(wrapped, result.diagnosticCause)));
    expect(printed).toEqual(['rejected this operation is not permitted', 'false']);
  });

  it('NewGuard example prints "rejected"', async () => {
    const executable = FuncTool.create(
      { name: 'inspect', inputSchema: { type: 'object' }, decode: () => ({}) },
      () => 'inspected',
    );
    const guard = new Guard({ tool: executable, authorizer: () => false });
    const binding = bind(guard);
    const invocation = binding.contract.prepare({ name: 'inspect', arguments: '{}' }, null);
    const err = await binding.call(invocation).then(
      () => undefined,
      (e: unknown) => e,
    );
    const failure = classifyFailure(err);
    if (failure === undefined) throw err;
    expect([failure.kind]).toEqual(['rejected']);
  });

  it('NewInputRequest example prints {"record":"draft"} true', () => {
    const request = InputRequest.create({
      prompt: '"Approve the write?"',
      responseSchema: { type: 'boolean' },
      continuationState: '{"record":"draft"}',
    });
    const result = { inputRequest: request };
    const continuation = result.inputRequest.continuation('true');
    expect(`${continuation.state} ${continuation.response}`).toBe('{"record":"draft"} true');
  });
});
