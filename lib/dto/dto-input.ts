/**
 * `dtoInput()`: a class-validator DTO as a tool input, `{ inputSchema, decode }` for
 * `FuncTool.create` (or the container). Decoding is strict (DESIGN.md section 4).
 */
import { plainToInstance } from 'class-transformer';
import { ToolError, compileSchemaValue } from '../protocol';
import type { CompiledSchema, JsonObject, JsonValue } from '../protocol';
import { declareValidatedForm } from '../protocol/func';
import { sameValidation } from '../protocol/schema';
import type { DtoClass } from './reflection';
import { planOf } from './plan';
import type { ClassPlan } from './plan';
import { findForbiddenMember } from './forbidden';
import { checkStructure } from './structure';
import { validateInstance } from './validation';
import { repairInstance } from './repair';
import { deriveSchema, EMPTY_INPUT_SCHEMA } from './derive-schema';
import { invalidInput, IssueSink, sinkError } from './issues';

/** Options of dtoInput. */
export interface DtoInputOptions {
  /**
   * The input schema the model is shown (the generator's, from the manifest). When given, decode
   * first validates the value against it (compiled once, here), and a `null` it admits is accepted
   * by the decoder too. When absent, a conservative schema is derived from the DTO's metadata.
   */
  readonly inputSchema?: JsonObject;
}

/** A tool input: the schema shown to the model and the strict decoder that agrees with it. */
export interface DtoInput<T> {
  /** The input schema (a JSON Schema object). */
  readonly inputSchema: JsonObject;
  /**
   * Decodes one admitted JSON value into an instance of the DTO.
   * @throws ToolError ERR_INVALID_INVOCATION with `issues` (codes `schema`, `forbidden_member`,
   *   `unknown_member`, `dto`, `too_deep`); never anything else
   */
  readonly decode: (value: JsonValue) => T;
}

/**
 * Makes a tool input of a class-validator DTO. The DTO's plan is built and checked here, once.
 *
 * Decoding, in order: the input schema (when given); `__proto__` / `constructor` / `prototype`
 * anywhere; unknown members at every depth (the first one and a count); JSON kinds against
 * `design:type` (no coercion: `"2024"` is not a number); `null` refused unless the schema admitted
 * it; Date members as RFC 3339 date-time strings; then class-transformer `plainToInstance`
 * and class-validator `validateSync` (whitelist, forbidNonWhitelisted, forbidUnknownValues), with
 * string lengths in code points and numeric enums by value only. Issue messages read
 * `/title: must be shorter than or equal to 120 characters (maxLength)`, one line each, at most 10.
 * Nesting that overflows the stack (class-transformer recurses) is a `too_deep` issue.
 *
 * @param dto - the DTO class (constructible without arguments for defaults to apply)
 * @throws ToolError ERR_INVALID_TOOL naming `Class.property` for an asynchronous class-validator
 *   constraint (admission is synchronous), for a DTO with properties but no class-validator metadata
 *   (likely two copies of class-validator), or for two properties with one wire name
 * @throws ToolError ERR_INVALID_SCHEMA when the given inputSchema does not compile
 */
export function dtoInput<T extends object>(dto: DtoClass<T>, options: DtoInputOptions = {}): DtoInput<T> {
  if (typeof dto !== 'function') {
    throw new ToolError('ERR_INVALID_TOOL', 'dtoInput(): the DTO must be a class; pass the class itself, not an instance');
  }
  const plan = planOf(dto);
  const compiled = options.inputSchema === undefined ? undefined : compileSchemaValue(options.inputSchema);
  const inputSchema = options.inputSchema ?? deriveSchema(plan);
  const decode = (value: JsonValue): T => guarded(() => decodeWith(plan, compiled, value, false) as T);
  // A FuncTool decodes at prepare a value its contract has just validated against the contract's
  // input schema: when that schema validates exactly as this decoder's own does, the second pass is
  // skipped (the decoder's every other check still runs).
  declareValidatedForm(decode, (value, validatedBy) =>
    guarded(() => decodeWith(plan, compiled, value, compiled !== undefined && sameValidation(compiled, validatedBy)) as T),
  );
  return Object.freeze({ inputSchema, decode });
}

/**
 * The input of a tool that takes none: schema `{"type":"object","properties":{},"additionalProperties":false}`,
 * decoding only `{}` (to an empty frozen object).
 * @throws ToolError ERR_INVALID_SCHEMA when the given inputSchema does not compile
 */
export function emptyInput(options: DtoInputOptions = {}): DtoInput<Record<string, never>> {
  const compiled = options.inputSchema === undefined ? undefined : compileSchemaValue(options.inputSchema);
  const decode = (value: JsonValue): Record<string, never> =>
    guarded(() => {
      if (compiled !== undefined) schemaCheck(compiled, value);
      const sink = new IssueSink();
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        sink.add({ code: 'dto', path: [], constraint: 'type', message: 'must be an object' });
      } else {
        const keys = Object.keys(value);
        if (keys.length > 0) {
          const more = keys.length > 1 ? ` (and ${keys.length - 1} more unknown members)` : '';
          sink.add({ code: 'unknown_member', path: [keys[0]], message: `unknown member "${keys[0]}"${more}; this tool takes no arguments, send {}` });
        }
      }
      if (!sink.empty) throw sinkError(sink);
      return Object.freeze({}) as Record<string, never>;
    });
  return Object.freeze({ inputSchema: options.inputSchema ?? EMPTY_INPUT_SCHEMA, decode });
}

/**
 * Decodes one value. `validated`: the value already passed a schema that validates exactly as
 * `compiled` (sameValidation), so the schema check is not repeated.
 */
function decodeWith(plan: ClassPlan, compiled: CompiledSchema | undefined, value: JsonValue, validated: boolean): object {
  // Forbidden names first: the most precise report, and nothing else has walked the value yet.
  const forbidden = findForbiddenMember(value);
  if (forbidden !== undefined) throw invalidInput([forbidden]);
  if (compiled !== undefined && !validated) schemaCheck(compiled, value);
  const sink = new IssueSink();
  checkStructure(value, plan, sink, { nullSanctioned: compiled !== undefined });
  if (!sink.empty) throw sinkError(sink);
  // The kinds were checked above, so implicit conversion only instantiates nested DTOs and Dates;
  // it never turns a string into a number.
  const instance = plainToInstance(plan.dto as new () => object, value as object, { enableImplicitConversion: true }) as object;
  repairInstance(instance, value, plan);
  validateInstance(instance, plan, sink);
  if (!sink.empty) throw sinkError(sink);
  return instance;
}

function schemaCheck(compiled: CompiledSchema, value: JsonValue): void {
  const issues = compiled.validate(value);
  if (issues.length > 0) throw invalidInput(issues.slice(0, 10), issues.length);
}

/** Runs a decode step so that nothing but a ToolError ever escapes. */
function guarded<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof ToolError) throw e;
    if (e instanceof RangeError) {
      throw invalidInput([{ code: 'too_deep', path: [], message: 'the arguments are nested too deeply to decode; flatten them' }]);
    }
    // A defect in a validator or transformer: keep it as the (diagnostic) cause, out of the message.
    throw new ToolError('ERR_INVALID_INVOCATION', 'the arguments could not be decoded: a validator or transformer threw', { cause: e });
  }
}
