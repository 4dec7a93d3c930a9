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
import type { Definition } from './definition';
import { snapshotDefinition } from './definition';
import { detailOf, rewrap } from './detail';
import { ToolError, instanceOf, messageOf } from './errors';
import type { JsonObject, JsonValue } from './json';
import { admitJson } from './json';
import { toJsonText } from './json-data';
import { Output, isOutput, jsonOutputOf } from './output';
import type { Result } from './result';
import type { CallOptions, Tool } from './tool';
import type { InputValidatingTool } from './input';

/**
 * Configuration of a FuncTool. Ports FuncConfig plus the derived schema.
 * - `name`, `description`: as in Definition.
 * - `inputSchema`: a JSON Schema object with `type: "object"` (additionalProperties false and
 *   `required` recommended).
 * - `decode(value)`: the strict decoder from an admitted JSON value to the input; it reports
 *   invalid input by throwing a ToolError (ERR_INVALID_INVOCATION with `issues`). It is both the
 *   input validator (at prepare) and the decoder (at call), so both accept exactly the same input.
 */
export interface FuncConfig<In> {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly decode: (value: JsonValue) => In;
}

/** What the function receives beside its input: the execution signal, caller context, continuation. */
export interface FuncCall {
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly continuation?: Continuation;
}

/** The adapted function: it may return a value or a Promise; what it throws passes unchanged. */
export type Func<In, Out> = (input: In, call: FuncCall) => Out | Promise<Out>;

/**
 * Decoders with a validated form, by decoder: `form(value, validatedBy)` decodes exactly as
 * `decode(value)` does, given that `value` already passed the compiled schema `validatedBy` (the
 * contract's), so it may skip a schema check of its own that `validatedBy` makes redundant. Such a
 * decoder is pure: it keeps no reference to the value it reads nor to the input it returns, so the
 * input it decodes at prepare is handed to the invocation's first call instead of decoding again.
 */
const validatedForms = new WeakMap<Function, (value: JsonValue, validatedBy: CompiledSchema) => unknown>();

/**
 * Declares the validated form of a decoder (see validatedForms). FuncTool's prepare-time decoding
 * uses it; a call that decodes afresh uses `decode` itself. @internal (dtoInput)
 */
export function declareValidatedForm<In>(decode: (value: JsonValue) => In, form: (value: JsonValue, validatedBy: CompiledSchema) => In): void {
  validatedForms.set(decode, form);
}

/** Reads `signal.aborted` afresh (a function, so the compiler does not narrow it across the decode). */
function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}

function decodeArguments<In>(decode: (value: JsonValue) => In, argumentsJson: string): In {
  const admitted = admitJson(argumentsJson);
  if (!admitted.ok) {
    throw new ToolError('ERR_INVALID_INVOCATION', `arguments: ${admitted.issue.message}`, { issues: [admitted.issue] });
  }
  return decode(admitted.value);
}

/** Awaits what the function returned, then encodes it. */
async function encodeAwaited(returned: unknown): Promise<Result> {
  return encodeResult(await returned);
}

/** How a function's result becomes JSON: toJSON() honored (Date), class instances by own members. */
const ENCODE_OPTIONS = Object.freeze({ callToJSON: true, allowInstances: true });

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

  private constructor(definition: Definition, decode: (value: JsonValue) => In, fn: Func<In, Out>) {
    this.#definition = definition;
    this.#decode = decode;
    this.#fn = fn;
    const validated = validatedForms.get(decode);
    // Only a decoder of this library (declareValidatedForm: dtoInput's, which keeps no reference to
    // what it reads or returns) hands its prepare-time input to the call. A caller's decoder runs
    // again at call on a fresh parse, as the port's Call does: whatever it kept or changed at
    // prepare cannot reach the function.
    this.#valueForm = validated === undefined
      ? (value) => {
          decode(value);
          return NOT_PREPARED;
        }
      : (value, validatedBy) => validated(value, validatedBy);
    Object.freeze(this);
  }

  /**
   * Adapts `fn`. Order: the function, the decoder, then the definition (name rules, object schema).
   * The schema is compiled by bind. Ports NewFunc.
   * @throws ToolError ERR_INVALID_TOOL: `function is nil`, `decode must be a function`,
   *   `definition: ...` (wrapping ERR_INVALID_DEFINITION)
   */
  static create<In, Out>(config: FuncConfig<In>, fn: Func<In, Out>): FuncTool<In, Out> {
    if (typeof fn !== 'function') throw new ToolError('ERR_INVALID_TOOL', 'function is nil; pass the function to adapt');
    if (typeof config !== 'object' || config === null || typeof config.decode !== 'function') {
      throw new ToolError('ERR_INVALID_TOOL', 'decode must be a function (value) => input that throws a ToolError on invalid input');
    }
    let definition: Definition;
    try {
      definition = snapshotDefinition({ name: config.name, description: config.description, inputSchema: config.inputSchema });
    } catch (e) {
      throw rewrap('ERR_INVALID_TOOL', e, 'definition');
    }
    return new FuncTool(definition, config.decode, fn);
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
   * Runs the function. Order: an aborted signal throws its reason (function not called); decode
   * the arguments (`tool: decode function arguments: ...`, the decoder's error as cause), except on
   * the first call of an invocation whose contract ran a dtoInput decoder of this tool at prepare:
   * that call takes the input decoded there (once, on a value nothing else held); check the
   * signal again (an abort during decoding: the function is never entered); call the function (what it throws passes unchanged; cancellation never replaces its completed result);
   * encode the returned value. Ports Func.Call (DESIGN.md 3.10).
   * @throws the abort reason; Error `tool: decode function arguments: ...`; the function's error;
   *   Error `tool: encode function result: ...` (ERR_INVALID_OUTPUT inside)
   */
  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    // Not an async function: a function that returns a plain value costs no microtask turn of its
    // own. Everything thrown here becomes the returned promise's rejection.
    try {
      const signal = options?.signal;
      if (signal?.aborted === true) throw signal.reason;
      if (!isInvocation(invocation)) {
        throw new ToolError('ERR_INVALID_INVOCATION', 'FuncTool.call needs an Invocation from Contract.prepare()');
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
          throw new Error(`tool: decode function arguments: ${messageOf(e)}`, { cause: e });
        }
      }
      // Checked again right before the function: a signal aborted while decoding ran (a slow decoder
      // or validator) must not let the function start.
      if (isAborted(signal)) throw signal.reason;
      const call: FuncCall = Object.freeze({ signal, context: options?.context, continuation: invocation.continuation });
      const returned: unknown = this.#fn(input, call);
      // A promise is awaited (its own `then` is not consulted, as with `await`); any other thenable's
      // `then` is read once, here, and adopted as `await` adopts it; a plain value is encoded as soon
      // as the function returns.
      if (returned instanceof Promise) return encodeAwaited(returned);
      if ((typeof returned === 'object' && returned !== null) || typeof returned === 'function') {
        const then: unknown = (returned as { then?: unknown }).then;
        if (typeof then === 'function') {
          return encodeAwaited({ then: (ok: (v: unknown) => void, fail: (e: unknown) => void) => then.call(returned, ok, fail) });
        }
      }
      return Promise.resolve(encodeResult(returned));
    } catch (e) {
      return Promise.reject(e);
    }
  }
}
