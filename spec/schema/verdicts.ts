/**
 * Shared by the fixture-project specs of issue 7 (fidelity, review, constraints): reading a
 * generation result and comparing the verdicts of the emitted schema and of the DTO decoder.
 */
import type { GenerationResult } from '../../lib/schema';
import { compileSchemaValue, ToolError, type JsonObject, type JsonValue } from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';

/** Readers over the generation result `current()` returns (set in a beforeAll). */
export function generated(current: () => GenerationResult) {
  const schemaOf = (name: string): JsonObject => {
    const tool = current().manifest.tools.find((t) => t.name === name);
    if (tool === undefined) throw new Error(`tool ${name} not generated`);
    return tool.definition.input_schema;
  };
  return {
    schemaOf,
    /** The error messages of one tool. */
    errorsOf: (tool: string): string[] =>
      current()
        .errors.filter((e) => e.tool === tool)
        .map((e) => e.message),
    /** The warning messages of one tool. */
    warningsOf: (tool: string): string[] =>
      current()
        .warnings.filter((e) => e.tool === tool)
        .map((e) => e.message),
    /** Whether a tool is absent from the manifest. */
    missing: (tool: string): boolean => !current().manifest.tools.some((t) => t.name === tool),
    /**
     * The schema's and the decoder's verdicts on one argument (a value, or JSON text). A decoder
     * refusal must be a ToolError for invalid input, never a validator defect.
     */
    verdicts(
      name: string,
      dto: new () => object,
      argument: JsonValue | { readonly json: string },
    ): { schema: boolean; decoder: boolean } {
      const schema = schemaOf(name);
      const value = isJsonText(argument) ? (JSON.parse(argument.json) as JsonValue) : argument;
      const schemaOk = compileSchemaValue(schema).validate(value).length === 0;
      try {
        dtoInput(dto, { inputSchema: schema }).decode(value);
        return { schema: schemaOk, decoder: true };
      } catch (e) {
        expect(e).toBeInstanceOf(ToolError);
        expect((e as ToolError).message).not.toMatch(/validator or transformer threw/);
        return { schema: schemaOk, decoder: false };
      }
    },
  };
}

function isJsonText(argument: unknown): argument is { readonly json: string } {
  return (
    typeof argument === 'object' &&
    argument !== null &&
    !Array.isArray(argument) &&
    typeof (argument as { json?: unknown }).json === 'string' &&
    Object.keys(argument).length === 1
  );
}

/** The decoder's verdict without a generated schema (for shapes the generator refuses): 'accepted' or its message. */
export function decoderAlone(dto: new () => object, json: string): string {
  try {
    dtoInput(dto).decode(JSON.parse(json) as JsonValue);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return (e as ToolError).message;
  }
}
