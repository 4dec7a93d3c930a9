/**
 * Issue 14 rows 1 and 2 in the protocol: a Definition's title, annotations and output schema
 * (validation, wire form), and Binding.call checking every Output against the output schema.
 */
import {
  Authorization,
  DEFINITION_SCHEMA,
  FuncTool,
  Guard,
  Output,
  Registry,
  ToolError,
  bind,
  compileSchemaValue,
  decodeDefinition,
  encodeDefinition,
  hasErrorCode,
  validateDefinition,
  type Definition,
  type JsonValue,
} from '../../lib/protocol';
import { outputMismatch } from '../../lib/protocol/binding';
import { renderOutcome } from '../../lib/providers';
import { FakeTool, rejectionOf, thrownBy } from './helpers';

const inputSchema = { type: 'object', properties: {}, additionalProperties: false };
const outputSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, count: { type: 'integer' } },
  required: ['id'],
  additionalProperties: false,
};

const full: Definition = {
  name: 'create_note',
  title: 'Create a note',
  description: 'Creates a note.',
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

function codeOf(fn: () => unknown): string {
  return (thrownBy(fn) as ToolError).code;
}

describe('Definition: title, annotations, output schema', () => {
  it('keeps them in the snapshot, frozen', () => {
    const tool = new FakeTool(full);
    const definition = bind(tool).contract.definition();
    expect(definition).toEqual(full);
    expect(Object.isFrozen(definition.annotations)).toBe(true);
    expect(Object.isFrozen(definition.outputSchema)).toBe(true);
  });

  it('drops an empty title and empty annotations', () => {
    const definition = bind(new FakeTool({ name: 'x', inputSchema, title: '', annotations: {} })).contract.definition();
    expect(definition).toEqual({ name: 'x', inputSchema });
  });

  it.each([
    ['an unknown annotation', { annotations: { readOnly: true } }],
    ['a non-boolean hint', { annotations: { readOnlyHint: 'yes' } }],
    ['a null hint', { annotations: { destructiveHint: null } }],
    ['annotations that are an array', { annotations: [] }],
    ['a title that is not a string', { title: 3 }],
    ['a title with a lone surrogate', { title: '\ud800' }],
    ['an output schema that is not an object', { outputSchema: [] }],
  ])('refuses %s with ERR_INVALID_DEFINITION', (_label, extra) => {
    expect(codeOf(() => validateDefinition({ name: 'x', inputSchema, ...extra }))).toBe('ERR_INVALID_DEFINITION');
  });

  it('names the unknown annotation and the members it accepts', () => {
    const err = thrownBy(() => validateDefinition({ name: 'x', inputSchema, annotations: { readOnly: true } }));
    expect((err as Error).message).toBe(
      'tool: invalid definition: tool "x": annotations: unknown member "readOnly"; expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint',
    );
    const typed = thrownBy(() => validateDefinition({ name: 'x', inputSchema, annotations: { openWorldHint: 1 } }));
    expect((typed as Error).message).toBe(
      'tool: invalid definition: tool "x": annotations.openWorldHint is number; it must be true or false',
    );
  });

  it('takes an output schema of any type (MCP 2026-07-28 allows arrays)', () => {
    const definition = bind(
      new FakeTool({ name: 'x', inputSchema, outputSchema: { type: 'array' } }),
    ).contract.definition();
    expect(definition.outputSchema).toEqual({ type: 'array' });
  });

  it('refuses an output schema that does not compile when binding', () => {
    const err = thrownBy(() =>
      bind(new FakeTool({ name: 'x', inputSchema, outputSchema: { type: 'object', minProperties: -1 } })),
    ) as ToolError;
    expect(err.code).toBe('ERR_INVALID_TOOL');
    expect(hasErrorCode(err, 'ERR_INVALID_SCHEMA')).toBe(true);
    expect(err.message).toContain('output schema of "x"');
  });
});

describe('Definition wire form', () => {
  it('writes title, output_schema and snake_case annotations, and reads them back', () => {
    const wire = encodeDefinition(full);
    expect(wire).toBe(
      '{"name":"create_note","title":"Create a note","description":"Creates a note.",' +
        `"input_schema":${JSON.stringify(inputSchema)},"output_schema":${JSON.stringify(outputSchema)},` +
        '"annotations":{"read_only_hint":false,"destructive_hint":false,"idempotent_hint":true,"open_world_hint":false}}',
    );
    expect(decodeDefinition(wire)).toEqual(full);
  });

  it('still reads the seed form, and writes it for a definition without the added members', () => {
    const wire = '{"name":"x","input_schema":{"type":"object"}}';
    expect(encodeDefinition(decodeDefinition(wire))).toBe(wire);
  });

  it('refuses unknown annotation members and mistyped title on the wire', () => {
    expect(
      codeOf(() =>
        decodeDefinition('{"name":"x","input_schema":{"type":"object"},"annotations":{"readOnlyHint":true}}'),
      ),
    ).toBe('ERR_INVALID_DEFINITION');
    expect(codeOf(() => decodeDefinition('{"name":"x","input_schema":{"type":"object"},"title":1}'))).toBe(
      'ERR_INVALID_DEFINITION',
    );
  });

  it('DEFINITION_SCHEMA accepts the new wire form and refuses an unknown hint', () => {
    const schema = compileSchemaValue(DEFINITION_SCHEMA);
    expect(schema.validate(JSON.parse(encodeDefinition(full)) as JsonValue)).toEqual([]);
    const bad = { name: 'x', input_schema: { type: 'object' }, annotations: { read_only: true } };
    expect(schema.validate(bad)).not.toEqual([]);
  });
});

describe('Binding.call checks the output contract', () => {
  function tool(result: () => unknown) {
    return FuncTool.create(
      { name: 'create_note', inputSchema, outputSchema, decode: (v: JsonValue) => v },
      result as () => never,
    );
  }

  async function callOf(result: () => unknown): Promise<unknown> {
    const binding = bind(tool(result));
    const invocation = binding.contract.prepare({ name: 'create_note', arguments: '{}' });
    return binding.call(invocation);
  }

  it('lets through details the schema accepts', async () => {
    const result = (await callOf(() => ({ id: 'n1', count: 2 }))) as { output: Output };
    expect(result.output.details).toBe('{"id":"n1","count":2}');
  });

  it('refuses details the schema refuses with ERR_OUTPUT_MISMATCH and the pointers', async () => {
    const err = (await rejectionOf(callOf(() => ({ id: 7, count: 1.5 }) as never))) as ToolError;
    expect(err.code).toBe('ERR_OUTPUT_MISMATCH');
    expect(err.issues.map((i) => [i.path, i.keyword])).toEqual([
      [['id'], 'type'],
      [['count'], 'type'],
    ]);
  });

  it('refuses an Output without details (a text) under an output schema', async () => {
    const err = (await rejectionOf(callOf(() => 'done'))) as ToolError;
    expect(err.code).toBe('ERR_OUTPUT_MISMATCH');
    expect(err.issues).toEqual([]);
  });

  it('does not check a tool without an output schema', async () => {
    const plain = FuncTool.create({ name: 'x', inputSchema, decode: (v: JsonValue) => v }, () => 'text');
    const binding = bind(plain);
    const result = await binding.call(binding.contract.prepare({ name: 'x', arguments: '{}' }));
    expect('output' in result && result.output.asText()).toBe('text');
  });

  it('is the tool failure the model sees as a generic failure, never the details', async () => {
    const error = await rejectionOf(callOf(() => ({ id: 'secret-value', extra: 'x' })));
    const rendered = renderOutcome('create_note', { error });
    expect(rendered.kind).toBe('error');
    expect(rendered.output.asText()).toBe('error: tool "create_note" failed');
  });

  it('words the mismatch with the tool, the pointer and the rule', () => {
    expect(outputMismatch('t', []).message).toBe(
      'tool: output does not match its output schema: tool "t": the output has no JSON details; return a JSON value (Output.json, Output.create({ details }))',
    );
    const issue = { code: 'schema' as const, path: ['count'], message: '/count: must be integer' };
    expect(outputMismatch('t', [issue]).message).toBe(
      'tool: output does not match its output schema: tool "t": details /count: must be integer',
    );
  });
});

describe('a policy reads the annotations', () => {
  it('auto-approves a read-only tool and refuses the rest', async () => {
    const readOnly = (a: Authorization): boolean => a.definition().annotations?.readOnlyHint === true;
    const make = (name: string, readOnlyHint: boolean): Guard =>
      new Guard({
        tool: FuncTool.create(
          { name, inputSchema, annotations: { readOnlyHint }, decode: (v: JsonValue) => v },
          () => 'ran',
        ),
        authorizer: readOnly,
      });
    const registry = new Registry(make('read', true), make('write', false));
    const run = async (name: string): Promise<unknown> => {
      const binding = registry.resolve(name)!;
      return binding.call(binding.contract.prepare({ name, arguments: '{}' })).catch((e: unknown) => e);
    };
    expect(await run('read')).toEqual({ output: Output.text('ran') });
    expect(renderOutcome('write', { error: await run('write') }).kind).toBe('rejected');
  });
});
