/**
 * `dtoInput()`: a class-validator DTO as a tool input, `{ inputSchema, decode }` for
 * `FuncTool.create` (or the container). Decoding is strict (docs/architecture.md section 4).
 */
import { plainToInstance } from 'class-transformer';
import { compileSchemaValue } from '../protocol';
import type { CompiledSchema, JsonObject, JsonValue } from '../protocol';
import { declareEncoder, declareValidatedForm } from '../protocol/func';
import { sameValidation } from '../protocol/schema';
import type { DtoClass } from './reflection';
import { planOf } from './plan';
import { PLAIN_TO_INSTANCE_OPTIONS } from './reflection';
import type { ClassPlan } from './plan';
import { findForbiddenMember } from './forbidden';
import { checkStructure } from './structure';
import { validateInstance } from './validation';
import { repairInstance, transformable } from './repair';
import { deriveSchema, EMPTY_INPUT_SCHEMA } from './derive-schema';
import { invalidInput, IssueSink, sinkError } from './issues';
import { encodeInstance } from './encode';
import { compileDecoder, NOT_FAST } from './fast';
import type { CompiledDecoder } from './fast';
import { dtoNotClass, notObject, unknownMemberOfEmpty } from './messages';

/** Options of dtoInput. */
export interface DtoInputOptions {
  /**
   * The input schema the model is shown (the generator's, from the manifest). When given, decode
   * first validates the value against it (compiled once, here), and a `null` it admits is accepted
   * by the decoder too. When absent, a conservative schema is derived from the DTO's metadata.
   */
  readonly inputSchema?: JsonObject;
}

/**
 * A tool input: the schema shown to the model, the strict decoder that agrees with it, and the
 * encoder that states a decoded input as JSON (what a Guard's policy sees, FuncConfig.encode).
 */
export interface DtoInput<T> {
  /** The input schema (a JSON Schema object). */
  readonly inputSchema: JsonObject;
  /**
   * Decodes one admitted JSON value into an instance of the DTO.
   * @throws ToolError ERR_INVALID_INVOCATION with `issues` (codes `schema`, `forbidden_member`,
   *   `unknown_member`, `dto`, `too_deep`) for invalid input
   * @throws whatever a validator or transformer throws (a defect, not invalid input), unchanged;
   *   Contract.prepare wraps it in InputValidatorError, so the model sees the tool's failure
   */
  readonly decode: (value: JsonValue) => T;
  /**
   * States an input `decode` returned as a JSON object: the members the instance holds (defaults of
   * absent members included, `undefined` left out) under their wire names (`@Expose({ name })`), in
   * the DTO's declared order (base class members first), nested DTOs (members and array items)
   * through their own plans, Dates as RFC 3339 strings (`toJSON()`), anything else (free-form
   * members, `@Transform` results) as the instance holds it. Only the DTO's members appear, so
   * nothing the decoder dropped reappears. It never changes the instance. FuncTool uses it without
   * being told (the decoder declares it), so a policy sees `Authorization.arguments` as the tool's
   * input. Pure: throws only when reading the instance throws (a getter). (A method signature, so a
   * DtoInput of a narrower input, emptyInput's, is a DtoInput<object>.)
   *
   * What it states of a default is what the decode that built the instance computed: property
   * initializers must be deterministic (no counters, `new Date()`, `randomUUID()`). The first call
   * of an invocation runs with the very instance the policy judged; a later call of the same
   * invocation decodes again, so a non-deterministic default there differs from what was judged.
   */
  encode(input: T): JsonObject;
}

/**
 * Makes a tool input of a class-validator DTO. The DTO's plan is built and checked here, once.
 *
 * Decoding, in order: the input schema (when given); `__proto__` / `constructor` / `prototype`
 * anywhere; unknown members at every depth (the first one and a count); JSON kinds against
 * `design:type` (no coercion: `"2024"` is not a number); `null` refused unless the schema admitted
 * it; Date members as RFC 3339 date-time strings; then class-transformer `plainToInstance`
 * and class-validator `validateSync` (whitelist, forbidNonWhitelisted, forbidUnknownValues), with
 * string lengths in code points and numeric enums by value only. Given an input schema, a DTO that
 * class-transformer would only build and assign is built by a decoder compiled from its plan instead
 * (the same instance), and when the schema states every decorator, class-validator is not run either
 * (the same verdict; lib/dto/fast.ts). Issue messages read
 * `/title: must be shorter than or equal to 120 characters (maxLength)`, one line each, at most 10.
 * DTO objects nested more than 100 levels (MAX_DTO_DEPTH, lib/dto/structure.ts; only a recursive
 * DTO can) are a `too_deep` issue; free-form values are copied iteratively, so no admitted value
 * (up to 10,000 levels) overflows the decoder. A validator or transformer that throws (a custom
 * constraint whose service is down) is a defect: its error passes through unchanged.
 *
 * `encode` states a decoded instance as JSON (see DtoInput.encode); a FuncTool built with `decode`
 * uses it for Invocation.normalizedArguments, the text a Guard's policy sees, so a policy judges the
 * defaults and normalizations the tool runs with.
 *
 * Property initializers (the defaults) must be deterministic: no counters (`seq = ++counter`), no
 * `new Date()`, no `randomUUID()`. The first call of an invocation runs with the very input the
 * policy judged; a later call of the same invocation (a retry) decodes again, and the policy text
 * stays the one from prepare, so a non-deterministic default would run with a value nobody judged.
 *
 * @param dto - the DTO class (constructible without arguments for defaults to apply)
 * @throws ToolError ERR_INVALID_TOOL naming `Class.property` for an asynchronous class-validator
 *   constraint (admission is synchronous), for a `@Matches` pattern RE2 cannot run in linear time
 *   (lookaround, backreferences; lib/protocol/regex.ts), for a DTO with properties but no class-validator metadata
 *   (likely two copies of class-validator), for two properties with one wire name, or for a property
 *   named after an Object.prototype member (`valueOf`, `toString`, `hasOwnProperty`, ...: class-validator
 *   would fail every call; rename it, keeping the wire name with `@Expose({ name: 'valueOf' })`)
 * @throws ToolError ERR_INVALID_SCHEMA when the given inputSchema does not compile
 */
export function dtoInput<T extends object>(dto: DtoClass<T>, options: DtoInputOptions = {}): DtoInput<T> {
  return dtoInputOf(dto, options, true);
}

/**
 * How a dtoInput decoder builds and checks an instance, after the schema and the structural check:
 * - `proven`: the fast path of a proven DTO: built by the decoder compiled from its plan, and nothing
 *   else to check (the schema entails every decorator; no class-transformer, no class-validator);
 * - `built`: built by the compiled decoder, then class-validator (a decorator the schema cannot
 *   state, such as `@IsEmail`; no class-transformer);
 * - `transformed`: class-transformer `plainToInstance`, then class-validator (a `@Transform`,
 *   `@Exclude`, a class strategy..., no input schema given, or the fast paths turned off).
 * @internal
 */
export type DecodePath = 'proven' | 'built' | 'transformed';

/** The decoders compiled from their plans (lib/dto/fast.ts): proven or built. */
const decodePaths = new WeakMap<Function, DecodePath>();

/** The path of `input` (a dtoInput), see DecodePath. @internal */
export function decodePathOf(input: DtoInput<object>): DecodePath {
  return decodePaths.get(input.decode) ?? 'transformed';
}

/** Whether `input` takes the fast path of a proven DTO (decodePathOf is `proven`). @internal */
export function usesFastPath(input: DtoInput<object>): boolean {
  return decodePathOf(input) === 'proven';
}

/**
 * dtoInput, with the fast path of a proven DTO allowed or not (`fast`: false keeps every value on the
 * class-validator path, the reference the fast path is proven equal to in spec/dto/fast-path.spec.ts). @internal
 */
export function dtoInputOf<T extends object>(dto: DtoClass<T>, options: DtoInputOptions, fast: boolean): DtoInput<T> {
  if (typeof dto !== 'function') {
    throw dtoNotClass();
  }
  const plan = planOf(dto);
  const compiled = options.inputSchema === undefined ? undefined : compileSchemaValue(options.inputSchema);
  const inputSchema = options.inputSchema ?? deriveSchema(plan);
  // Only against a given schema (the manifest's): a derived one states too little to prove anything.
  const built =
    fast && compiled !== undefined && options.inputSchema !== undefined
      ? compileDecoder(plan, compiled.value as JsonObject)
      : undefined;
  const decode = (value: JsonValue): T => guarded(() => decodeWith(plan, compiled, value, false, built) as T);
  if (built !== undefined) decodePaths.set(decode, built.proven ? 'proven' : 'built');
  // A FuncTool decodes at prepare a value its contract has just validated against the contract's
  // input schema: when that schema validates exactly as this decoder's own does, the second pass is
  // skipped (the decoder's every other check still runs).
  declareValidatedForm(decode, (value, validatedBy) =>
    guarded(
      () =>
        decodeWith(plan, compiled, value, compiled !== undefined && sameValidation(compiled, validatedBy), built) as T,
    ),
  );
  const encode = (input: T): JsonObject => encodeInstance(plan, input);
  declareEncoder(decode, encode);
  return Object.freeze({ inputSchema, decode, encode });
}

/**
 * The input of a tool that takes none: schema `{"type":"object","properties":{},"additionalProperties":false}`,
 * decoding only `{}` (to an empty frozen object), encoding every input as `{}`.
 * @throws ToolError ERR_INVALID_SCHEMA when the given inputSchema does not compile
 */
export function emptyInput(options: DtoInputOptions = {}): DtoInput<Record<string, never>> {
  const compiled = options.inputSchema === undefined ? undefined : compileSchemaValue(options.inputSchema);
  const decode = (value: JsonValue): Record<string, never> =>
    guarded(() => {
      if (compiled !== undefined) schemaCheck(compiled, value);
      const sink = new IssueSink();
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        sink.add({ code: 'dto', path: [], constraint: 'type', message: notObject() });
      } else {
        const keys = Object.keys(value);
        if (keys.length > 0) {
          sink.add({ code: 'unknown_member', path: [keys[0]], message: unknownMemberOfEmpty(keys[0], keys.length) });
        }
      }
      if (!sink.empty) throw sinkError(sink);
      return Object.freeze({}) as Record<string, never>;
    });
  const encode = (): JsonObject => ({});
  declareEncoder(decode, encode);
  return Object.freeze({ inputSchema: options.inputSchema ?? EMPTY_INPUT_SCHEMA, decode, encode });
}

/**
 * Decodes one value. `validated`: the value already passed a schema that validates exactly as
 * `compiled` (sameValidation), so the schema check is not repeated. `fast`: the decoder compiled from
 * the plan (lib/dto/fast.ts), which builds the instance instead of class-transformer; when `compiled`
 * proves every decorator, a value that passed the schema and the structural check passes
 * class-validator too, so class-validator does not run either (see DecodePath).
 */
function decodeWith(
  plan: ClassPlan,
  compiled: CompiledSchema | undefined,
  value: JsonValue,
  validated: boolean,
  fast: CompiledDecoder | undefined,
): object {
  // Forbidden names first: the most precise report, and nothing else has walked the value yet.
  const forbidden = findForbiddenMember(value);
  if (forbidden !== undefined) throw invalidInput([forbidden]);
  if (compiled !== undefined && !validated) schemaCheck(compiled, value);
  const sink = new IssueSink();
  checkStructure(value, plan, sink, { nullSanctioned: compiled !== undefined });
  if (!sink.empty) throw sinkError(sink);
  if (fast !== undefined) {
    const instance = fast.build(value);
    if (instance !== NOT_FAST) {
      if (!fast.proven) {
        validateInstance(instance, plan, sink);
        if (!sink.empty) throw sinkError(sink);
      }
      return instance;
    }
  }
  // The kinds were checked above, so implicit conversion only instantiates nested DTOs and Dates;
  // it never turns a string into a number. It gets the value without its free-form members
  // (repair.ts transformable), which it would walk recursively; repairInstance copies them.
  const shape = transformable(value, plan) as object;
  const instance = plainToInstance(plan.dto as new () => object, shape, PLAIN_TO_INSTANCE_OPTIONS) as object;
  repairInstance(instance, value, plan);
  validateInstance(instance, plan, sink);
  if (!sink.empty) throw sinkError(sink);
  return instance;
}

function schemaCheck(compiled: CompiledSchema, value: JsonValue): void {
  const issues = compiled.validate(value);
  if (issues.length > 0) throw invalidInput(issues.slice(0, 10), issues.length);
}

/**
 * Runs a decode step. Invalid input is a ToolError with issues, thrown by the step itself; any
 * other throw is a defect of a validator or transformer (a custom constraint whose database is
 * down, a RangeError of user code), never the model's mistake: it passes through unchanged, and
 * Contract.prepare reports it as the tool's failure (ERR_INVALID_INVOCATION wrapping
 * InputValidatorError, not an admission refusal). No admitted value overflows the decoder's own
 * recursion: it follows DTO nesting only, bounded by MAX_DTO_DEPTH (structure.ts).
 */
function guarded<T>(step: () => T): T {
  return step();
}
