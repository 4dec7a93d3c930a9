/**
 * Shared by the fixture-project specs of spec/schema: reading a generation result by codes and places
 * (the sentences are spec/schema/messages.spec.ts's), and comparing the verdicts of the emitted schema
 * and of the DTO decoder.
 */
import type { GenerationResult, GeneratorMessage } from '../../lib/schema';
import {
  compileSchemaValue,
  ToolError,
  type AdmissionIssue,
  type JsonObject,
  type JsonValue,
} from '../../lib/protocol';
import { dtoInput } from '../../lib/dto';

/**
 * A generator message as specs compare it: `Class.member: code`, and ` @Decorator` when it names one
 * (`ListMismatch.tags: each_missing @IsIn`).
 */
export function reported(m: Pick<GeneratorMessage, 'where' | 'code' | 'decorator'>): string {
  return `${m.where}: ${m.code}${m.decorator === undefined ? '' : ` @${m.decorator}`}`;
}

/** Readers over the generation result `current()` returns (set in a beforeAll). */
export function generated(current: () => GenerationResult) {
  const schemaOf = (name: string): JsonObject => {
    const tool = current().manifest.tools.find((t) => t.name === name);
    if (tool === undefined) throw new Error(`tool ${name} not generated`);
    return tool.definition.input_schema;
  };
  return {
    schemaOf,
    /** The errors of one tool, as `reported` renders them. */
    errorsOf: (tool: string): string[] =>
      current()
        .errors.filter((e) => e.tool === tool)
        .map(reported),
    /** The warnings of one tool, as `reported` renders them. */
    warningsOf: (tool: string): string[] =>
      current()
        .warnings.filter((e) => e.tool === tool)
        .map(reported),
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

/** A generator message with its place in the sources, as specs compare it (`reported` for the text). */
export function located(m: GeneratorMessage): { tool?: string; reported: string; file?: string; line?: number } {
  return {
    ...(m.tool === undefined ? {} : { tool: m.tool }),
    reported: reported(m),
    ...(m.file === undefined ? {} : { file: m.file }),
    ...(m.line === undefined ? {} : { line: m.line }),
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

/**
 * The decoder's verdict without a generated schema, by fields: 'accepted', or the refusal's code and
 * issues (the sentences are spec/dto/messages.spec.ts's).
 */
export function decoderRefusal(
  dto: new () => object,
  json: string,
): 'accepted' | { code: string; issues: readonly AdmissionIssue[] } {
  try {
    dtoInput(dto).decode(JSON.parse(json) as JsonValue);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return { code: (e as ToolError).code, issues: (e as ToolError).issues };
  }
}
