/**
 * The typed function adapter: a JSON Schema, a strict decoder and a function become a Tool. Ports
 * `Func`, `NewFunc` and `FuncConfig` (schema-first: TypeScript has no reflection).
 */
import type { Continuation, InputRequest } from './input';
import { isInputRequest } from './input';
import type { Invocation } from './contract';
import type { ValueForm } from './contract';
import { NOT_PREPARED, admittedArguments, declareValueForm, isInvocation, takePrepared } from './contract';
import type { CompiledSchema } from './schema';
import type { Definition, ToolAnnotations } from './definition';
import { snapshotDefinition } from './definition';
import { detailOf, rewrap } from './detail';
import { ToolError, instanceOf, messageOf, wrappedText } from './errors';
import type { JsonObject, JsonValue } from './json';
import { admitJson } from './json';
import { argumentsRefused, needsInvocation } from './messages';
import { toJsonText } from './json-data';
import { Output, isOutput, jsonOutputOf } from './output';
import type { Result } from './result';
import type { CallOptions, SyncForm, Tool } from './tool';
import { declareSyncForm, promiseOf } from './tool';
import { abortReasonOf, funcCallOf, isCallAborted } from './deadline';
import type { InputValidatingTool } from './input';

/** The prefixes of the errors a FuncTool's encoder and decoder failures become. */
const ENCODE_ARGS_FAILED = 'tool: encode function arguments';
const DECODE_FAILED = 'tool: decode function arguments';

/**
 * Configuration of a FuncTool. Ports FuncConfig plus the derived schema.
 * - `name`, `description`: as in Definition.
 * - `inputSchema`: a JSON Schema object with `type: "object"` (additionalProperties false and
 *   `required` recommended).
 * - `decode(value)`: the strict decoder from an admitted JSON value to the input; it reports
 *   invalid input by throwing a ToolError (ERR_INVALID_INVOCATION with `issues`). It is both the
 *   input validator (at prepare) and the decoder (at call), so both accept exactly the same input.
 *   The input decoded at prepare (from a value nothing else holds) is what the invocation's first
 *   call runs with; a later call of the same invocation (a retry) decodes the arguments afresh.
 * - `encode(input)` (optional): states a decoded input as JSON, the arguments as the function
 *   receives them (defaults applied, values normalized). Contract.prepare encodes the input it has
 *   just decoded, once, into Invocation.normalizedArguments, which is what a Guard's policy sees
 *   (Authorization.arguments), so a policy judges the value the function runs with. It must return a
 *   JSON object (Dates and other values with toJSON() are encoded through it; class instances by
 *   their own members) and be deterministic: a later call of the same invocation decodes afresh. A
 *   throw, or a value JSON cannot carry exactly, is a defect of the tool (prepare throws
 *   ERR_INVALID_INVOCATION wrapping InputValidatorError), never a refusal of the model's arguments.
 *   When absent, the decoder's own encoder is used (every dtoInput decoder has one); without either,
 *   the policy sees the admitted text.
 * - `title`, `outputSchema`, `annotations` (optional, added): as in Definition. With an
 *   `outputSchema`, the function must return a JSON value (an object the schema accepts) or an
 *   Output with such details: Binding.call refuses any other Output with ERR_OUTPUT_MISMATCH.
 */
export interface FuncConfig<In> {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly title?: string;
  readonly outputSchema?: JsonObject;
  readonly annotations?: ToolAnnotations;
  readonly decode: (value: JsonValue) => In;
  readonly encode?: (input: In) => JsonValue;
}

/**
 * What the function receives beside its input: the execution signal, caller context, continuation,
 * and the call's idempotency key (CallOptions.idempotencyKey: the same on the first run and on every
 * resume of one call; undefined when the caller names none).
 */
export interface FuncCall {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly continuation?: Continuation;
  readonly idempotencyKey?: string;
}

/** The adapted function: it may return a value or a Promise; what it throws passes unchanged. */
export type Func<In, Out> = (input: In, call: FuncCall) => Out | Promise<Out>;

/**
 * Decoders with a validated form, by decoder: `form(value, validatedBy)` decodes exactly as
 * `decode(value)` does, given that `value` already passed the compiled schema `validatedBy` (the
 * contract's), so it may skip a schema check of its own that `validatedBy` makes redundant.
 */
const validatedForms = new WeakMap<Function, (value: JsonValue, validatedBy: CompiledSchema) => unknown>();

/**
 * Declares the validated form of a decoder (see validatedForms). FuncTool's prepare-time decoding
 * uses it; a call that decodes afresh uses `decode` itself. @internal (dtoInput)
 */
export function declareValidatedForm<In>(
  decode: (value: JsonValue) => In,
  form: (value: JsonValue, validatedBy: CompiledSchema) => In,
): void {
  validatedForms.set(decode, form);
}

/** Encoders of decoders (see declareEncoder): the FuncTool's encoder when its config names none. */
const encoders = new WeakMap<Function, (input: never) => JsonValue>();

/**
 * Declares the encoder that states what `decode` returns as JSON (see FuncConfig.encode), so a
 * FuncTool built with that decoder alone (the container's method tools) encodes with it. @internal (dtoInput)
 */
export function declareEncoder<In>(decode: (value: JsonValue) => In, encode: (input: In) => JsonValue): void {
  encoders.set(decode, encode);
}

/**
 * The normalized arguments text of a decoded input (see FuncConfig.encode): compact JSON object text
 * that passes RFC 7493 admission.
 * @throws Error `tool: encode function arguments: ...` (never a ToolError: the encoder's failure is a
 *   defect of the tool, which Contract.prepare must not mark as the model's), the encoder's error as cause
 */
function encodeArguments<In>(encode: (input: In) => JsonValue, input: In): string {
  let encoded: ReturnType<typeof toJsonText>;
  try {
    encoded = toJsonText(encode(input), ARGUMENTS_OPTIONS);
  } catch (e) {
    throw new Error(`${ENCODE_ARGS_FAILED}: ${wrappedText(ENCODE_ARGS_FAILED, e)}`, { cause: e });
  }
  let reason: string | undefined;
  if (!encoded.ok) reason = encoded.reason;
  else if (!encoded.text.startsWith('{'))
    reason = `the encoder must return a JSON object, got ${encoded.text.slice(0, 40)}`;
  // Admitted by construction (JsonText.admitted: exactNumbers leaves no number admission refuses).
  if (reason !== undefined) throw new Error(`tool: encode function arguments: ${reason}`);
  return (encoded as { readonly text: string }).text;
}

function decodeArguments<In>(decode: (value: JsonValue) => In, argumentsJson: string): In {
  const admitted = admitJson(argumentsJson);
  if (!admitted.ok) {
    throw argumentsRefused([admitted.issue]);
  }
  return decode(admitted.value);
}

/** The synchronous form of FuncTool.call (set in its static block). */
let funcNow: SyncForm;

/** Awaits what the function returned, then encodes it. */
async function encodeAwaited(returned: unknown): Promise<Result> {
  return encodeResult(await returned);
}

/** How a function's result becomes JSON: toJSON() honored (Date), class instances by own members. */
const ENCODE_OPTIONS = Object.freeze({ callToJSON: true, allowInstances: true });

/**
 * How a decoded input becomes its normalized arguments: as a result, but every number as admission
 * reads it back (JsonDataOptions.exactNumbers), so the text the policy judges holds the value the tool
 * runs with. Regression: the model's `{"n":1e16}`, admitted, failed as a defect of the tool
 * (re-encoded as the integer literal 10000000000000000), and `-0` reached the policy as `0`.
 */
const ARGUMENTS_OPTIONS = Object.freeze({ ...ENCODE_OPTIONS, exactNumbers: true });

/**
 * Encodes a function's return value as a Result. A string gives a text output (`""` gives
 * Output.empty); undefined gives Output.empty; an Output or an InputRequest is returned as is (a
 * TypeScript extension for the decorator layer); anything else becomes JSON details, refusing what
 * JSON cannot carry exactly (NaN, Infinity, BigInt, cycles, functions, symbols, Map, Set).
 */
function encodeResult(value: unknown): Result {
  if (isOutput(value)) return { output: value };
  if (isInputRequest(value)) return { inputRequest: value as InputRequest };
  if (value === undefined) return { output: Output.empty };
  try {
    if (typeof value === 'string') return { output: Output.text(value) };
    const data = toJsonText(value, ENCODE_OPTIONS);
    if (!data.ok) throw new ToolError('ERR_INVALID_OUTPUT', data.reason);
    return { output: jsonOutputOf(data.text, data.admitted) };
  } catch (e) {
    const inner = instanceOf(e, ToolError) ? e : new ToolError('ERR_INVALID_OUTPUT', messageOf(e), { cause: e });
    // eslint-disable-next-line preserve-caught-error -- the cause is inner, the ToolError that holds e
    throw new Error(`tool: encode function result: ${detailOf(inner)}`, { cause: inner });
  }
}

/**
 * A typed function as a Tool and an InputValidatingTool. Immutable. Ports Func.
 */
export class FuncTool<In, Out> implements Tool, InputValidatingTool {
  readonly #definition: Definition;
  readonly #decode: (value: JsonValue) => In;
  readonly #fn: Func<In, Out>;
  /**
   * The decoder as a value form (see declareValueForm): prepare decodes the admitted value with it,
   * and the invocation's first call takes that input instead of decoding the same text again.
   */
  readonly #valueForm: ValueForm;

  private constructor(
    definition: Definition,
    decode: (value: JsonValue) => In,
    encode: ((input: In) => JsonValue) | undefined,
    fn: Func<In, Out>,
  ) {
    this.#definition = definition;
    this.#decode = decode;
    this.#fn = fn;
    const validated = validatedForms.get(decode);
    // The input decoded here, at prepare, is what the invocation's first call runs with: the very
    // input the encoder stated as the normalized arguments the policy judges (FuncConfig.encode), so
    // what was judged is what runs, and the first call neither parses nor decodes the text again.
    // The value the decoder reads is fresh from admission and dropped after prepare; a later call of
    // the same invocation decodes afresh. A dtoInput decoder (declareValidatedForm) also skips the
    // schema pass the contract's compiled schema has just made.
    this.#valueForm = (value, validatedBy) => {
      const input = validated === undefined ? decode(value) : (validated(value, validatedBy) as In);
      return { input, normalized: encode === undefined ? undefined : encodeArguments(encode, input) };
    };
    Object.freeze(this);
  }

  /**
   * Adapts `fn`. Order: the function, the decoder, the encoder, then the definition (name rules, object schema).
   * The schema is compiled by bind. Ports NewFunc.
   * @throws ToolError ERR_INVALID_TOOL: `function is nil`, `decode must be a function`, `encode must
   *   be a function`, `definition: ...` (wrapping ERR_INVALID_DEFINITION)
   */
  static create<In, Out>(config: FuncConfig<In>, fn: Func<In, Out>): FuncTool<In, Out> {
    if (typeof fn !== 'function')
      throw new ToolError('ERR_INVALID_TOOL', 'function is nil; pass the function to adapt');
    if (typeof config !== 'object' || config === null || typeof config.decode !== 'function') {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        'decode must be a function (value) => input that throws a ToolError on invalid input',
      );
    }
    const encode: unknown = config.encode ?? encoders.get(config.decode);
    if (encode !== undefined && typeof encode !== 'function') {
      throw new ToolError('ERR_INVALID_TOOL', 'encode must be a function (input) => JSON value, or left out');
    }
    let definition: Definition;
    try {
      definition = snapshotDefinition({
        name: config.name,
        description: config.description,
        inputSchema: config.inputSchema,
        title: config.title,
        outputSchema: config.outputSchema,
        annotations: config.annotations,
      });
    } catch (e) {
      throw rewrap('ERR_INVALID_TOOL', e, 'definition');
    }
    return new FuncTool(definition, config.decode, encode as ((input: In) => JsonValue) | undefined, fn);
  }

  /** The definition snapshot (deep-frozen; authored member order). */
  definition(): Definition {
    return this.#definition;
  }

  /**
   * The strict decoder as an input validator: admits the arguments text and runs `decode` on the
   * value. It captures only the decoder, never this tool or its function.
   */
  inputValidator(): (argumentsJson: string) => void {
    const decode = this.#decode;
    const validator = (argumentsJson: string): void => {
      decodeArguments(decode, argumentsJson);
    };
    // Contract.prepare has the admitted value already: it runs `decode` on it directly (the same
    // value this text form would parse), instead of scanning and parsing the text a second time,
    // and keeps the decoded input for the invocation's first call.
    declareValueForm(validator, this.#valueForm);
    return validator;
  }

  /**
   * Runs the function. Order: an aborted signal throws its reason (function not called); take the
   * input: the first call of an invocation prepared by this tool's contract takes the input decoded
   * there (once: the input the policy's normalized arguments state); a later call decodes the
   * arguments afresh (`tool: decode function arguments: ...`, the decoder's error as cause); check the
   * signal again (an abort during decoding: the function is never entered); call the function (what it throws passes unchanged; cancellation never replaces its completed result);
   * encode the returned value. Ports Func.Call (docs/architecture.md section 3.10).
   * @throws the abort reason; Error `tool: decode function arguments: ...`; the function's error;
   *   Error `tool: encode function result: ...` (ERR_INVALID_OUTPUT inside)
   */
  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    return promiseOf(funcNow, this, invocation, options);
  }

  static {
    funcNow = (tool, invocation, options) => (tool as FuncTool<unknown, unknown>).#now(invocation, options);
    declareSyncForm(FuncTool.prototype.call, funcNow);
  }

  /**
   * The synchronous form of call (see SyncForm): the Result when the function returns a plain
   * value, a promise of it when it returns a promise or another thenable; throws what call rejects with.
   */
  #now(invocation: Invocation, options: CallOptions | undefined): unknown {
    // Read through isCallAborted: a Binding's CallScope makes its AbortSignal only when something
    // reads `signal` (lib/protocol/deadline.ts), which a function that returns at once never does.
    if (isCallAborted(options)) throw abortReasonOf(options);
    if (!isInvocation(invocation)) {
      throw needsInvocation('FuncTool.call');
    }
    let input: In;
    const prepared = takePrepared(invocation, this.#valueForm);
    if (prepared !== NOT_PREPARED) {
      input = prepared as In;
    } else {
      try {
        // A genuine Invocation's text was admitted by its Contract's prepare (RFC 7493, an object) and
        // is immutable: parsing it gives the value admitJson would give, so only the scan is skipped.
        // The decoder runs on a fresh value of its own.
        input = this.#decode(JSON.parse(admittedArguments(invocation)) as JsonValue);
      } catch (e) {
        throw new Error(`${DECODE_FAILED}: ${wrappedText(DECODE_FAILED, e)}`, { cause: e });
      }
      // Checked again right before the function: a signal aborted while decoding ran (a slow
      // decoder or validator) must not let the function start. The input decoded at prepare ran
      // no code since the check above.
      if (isCallAborted(options)) throw abortReasonOf(options);
    }
    const call: FuncCall = funcCallOf(options, invocation.continuation);
    const returned: unknown = this.#fn(input, call);
    // A promise is awaited (its own `then` is not consulted, as with `await`); any other thenable's
    // `then` is read once, here, and adopted as `await` adopts it; a plain value is encoded as soon
    // as the function returns.
    if (returned instanceof Promise) return encodeAwaited(returned);
    if ((typeof returned === 'object' && returned !== null) || typeof returned === 'function') {
      const then: unknown = (returned as { then?: unknown }).then;
      if (typeof then === 'function') {
        return encodeAwaited({
          then: (ok: (v: unknown) => void, fail: (e: unknown) => void) => then.call(returned, ok, fail),
        });
      }
    }
    return encodeResult(returned);
  }
}
