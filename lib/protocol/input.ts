/**
 * Suspension and input admission: InputRequest (a tool asks for external input), Continuation (the
 * validated answer), InputValidatingTool and InputValidatorError. Ports `InputRequest`,
 * `InputRequestConfig`, `Continuation`, `InputValidatingTool` and `InputValidationPanicError`.
 */
import { ToolError, goQuote, instanceOf, messageOf } from './errors';
import type { JsonObject, JsonValue } from './json';
import { MAX_INPUT_BYTES, admitJson, utf8Length } from './json';
import { isJsonObject, toJsonData } from './json-data';
import { missingJsonText, notJsonText, wireJsonRefused } from './messages';
import { deepFreeze } from './output';
import type { CompiledSchema } from './schema';
import { compileSchemaValue } from './schema';

const TOKEN = Symbol('input');
/** Brand checks: true only for objects the constructors initialized (set in static blocks). */
let hasContinuationBrand: (value: object) => boolean = () => false;
let hasInputRequestBrand: (value: object) => boolean = () => false;

/**
 * A tool that adds input admission rules JSON Schema cannot express. Ports InputValidatingTool.
 * `inputValidator()` returns a synchronous validator of the admitted arguments text, or undefined
 * when the schema is the whole contract. The validator reports invalid input by throwing a
 * ToolError; anything else it throws is a defect (InputValidatorError). It must not keep a
 * reference to the executable tool, nor mutate or keep its argument.
 */
export interface InputValidatingTool {
  inputValidator(): ((argumentsJson: string) => void) | undefined;
}

/** Reports whether `value` implements InputValidatingTool (has an `inputValidator` function). */
export function isInputValidatingTool(value: unknown): value is InputValidatingTool {
  return (
    typeof value === 'object' && value !== null && typeof (value as InputValidatingTool).inputValidator === 'function'
  );
}

/**
 * An input validator (or its declaration) threw something other than a ToolError: a defect in the
 * validator, not invalid caller input. Travels inside ERR_INVALID_INVOCATION (prepare) or
 * ERR_INVALID_TOOL (bind). Message `tool: input validation panicked: <value>`; an Error value is
 * the standard `cause`, so `isError(err, thrown)` holds. Ports InputValidationPanicError.
 */
export class InputValidatorError extends Error {
  /** The value the validator threw. */
  readonly thrown: unknown;

  constructor(thrown: unknown) {
    super(
      `tool: input validation panicked: ${messageOf(thrown)}`,
      instanceOf(thrown, Error) ? { cause: thrown } : undefined,
    );
    this.name = 'InputValidatorError';
    this.thrown = thrown;
  }
}

/**
 * The frozen checkpoint and validated answer of one logical call, passed explicitly to
 * `Contract.prepare(request, continuation)`. Only InputRequest.continuation creates one. Ports Continuation.
 * - `state`: the tool's checkpoint JSON text, exactly as given to InputRequest.create.
 * - `response`: the answer JSON text, exactly as given, valid against the request's response schema.
 */
export class Continuation {
  readonly #state: string;
  readonly #response: string;

  static {
    hasContinuationBrand = (value) => #response in value;
  }

  /** @internal use InputRequest.continuation */
  constructor(token: symbol, state: string, response: string) {
    if (token !== TOKEN)
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', 'use InputRequest.continuation() to build a Continuation');
    this.#state = state;
    this.#response = response;
    Object.freeze(this);
  }

  /** The tool's checkpoint (JSON text). */
  get state(): string {
    return this.#state;
  }

  /** The validated answer (JSON text). */
  get response(): string {
    return this.#response;
  }
}

/**
 * Reports whether `value` is a genuine Continuation (private-field brand check: an object made with
 * `Object.create(Continuation.prototype)` is not one). @internal
 */
export function isContinuation(value: unknown): value is Continuation {
  return typeof value === 'object' && value !== null && hasContinuationBrand(value);
}

/**
 * Configuration of InputRequest.create. Ports InputRequestConfig.
 * - `prompt`: JSON text shown to the person (for example `"Approve the write?"`), required; for
 *   plain text pass `JSON.stringify(text)` (a plain string is not taken as text: `42` or `true`
 *   would be ambiguous; docs/architecture.md section 3.20).
 * - `responseSchema`: JSON Schema (object or boolean) the answer must satisfy.
 * - `continuationState`: the tool's checkpoint as JSON text, required.
 * Each text at most MAX_INPUT_BYTES UTF-8 bytes; kept exactly as given.
 */
export interface InputRequestConfig {
  readonly prompt: string;
  readonly responseSchema: JsonObject | boolean;
  readonly continuationState: string;
}

/** Wire form: `{"prompt": <json>, "response_schema": <schema>, "continuation_state": <json>}`. */
export interface InputRequestWire {
  readonly prompt: JsonValue;
  readonly response_schema: JsonValue;
  readonly continuation_state: JsonValue;
}

function checkText(value: unknown, field: string): string {
  if (value === undefined) throw missingJsonText(field);
  if (typeof value !== 'string')
    throw new ToolError('ERR_INVALID_INPUT_REQUEST', `${field} must be a string of JSON text`);
  const size = utf8Length(value);
  if (size > MAX_INPUT_BYTES) {
    throw new ToolError(
      'ERR_INVALID_INPUT_REQUEST',
      `${field} is ${size} bytes, more than the ${MAX_INPUT_BYTES}-byte limit`,
    );
  }
  const admitted = admitJson(value);
  if (!admitted.ok) throw notJsonText(field, value, admitted.issue);
  return value;
}

/**
 * A tool's request for external (human) input: it suspends the call instead of completing it.
 * Immutable; built only by create or parse. Ports InputRequest.
 */
export class InputRequest {
  readonly #prompt: string;
  readonly #schema: CompiledSchema;
  readonly #schemaValue: JsonValue;
  readonly #state: string;

  static {
    hasInputRequestBrand = (value) => #schemaValue in value;
  }

  /** @internal use InputRequest.create */
  constructor(token: symbol, prompt: string, schema: CompiledSchema, schemaValue: JsonValue, state: string) {
    if (token !== TOKEN)
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', 'use InputRequest.create() to build an InputRequest');
    this.#prompt = prompt;
    this.#schema = schema;
    this.#schemaValue = schemaValue;
    this.#state = state;
    Object.freeze(this);
  }

  /**
   * Validates and freezes a checkpoint: prompt and state must each be one RFC 7493 JSON text of at
   * most MAX_INPUT_BYTES UTF-8 bytes; the response schema must compile. Ports NewInputRequest.
   * @throws ToolError ERR_INVALID_INPUT_REQUEST naming the field (schema errors stay reachable as
   *   cause); a text not given: `continuation state is missing; pass continuationState, ...`; a
   *   text that is not JSON: `prompt must be JSON text: <issue>; for plain text pass
   *   JSON.stringify("...")`
   */
  static create(config: InputRequestConfig): InputRequest {
    if (typeof config !== 'object' || config === null) {
      throw new ToolError(
        'ERR_INVALID_INPUT_REQUEST',
        'config must be an object { prompt, responseSchema, continuationState }',
      );
    }
    const prompt = checkText(config.prompt, 'prompt');
    const data = toJsonData(config.responseSchema);
    if (!data.ok || !(isJsonObject(data.value) || typeof data.value === 'boolean')) {
      const why = data.ok ? 'must be a JSON Schema object or boolean' : data.reason;
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', `response schema: ${why}`);
    }
    if (utf8Length(data.text) > MAX_INPUT_BYTES) {
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', `response schema exceeds ${MAX_INPUT_BYTES} bytes`);
    }
    let schema: CompiledSchema;
    try {
      schema = compileSchemaValue(data.value);
    } catch (e) {
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', `response schema: ${messageOf(e)}`, { cause: e });
    }
    const state = checkText(config.continuationState, 'continuation state');
    return new InputRequest(TOKEN, prompt, schema, data.value, state);
  }

  /**
   * Decodes the wire form strictly (RFC 7493, exactly the three members) through create's rules.
   * Prompt and state are re-encoded compactly from the admitted values. Ports UnmarshalJSON.
   * @throws ToolError ERR_INVALID_INPUT_REQUEST naming what is wrong
   */
  static parse(wireJson: string): InputRequest {
    const admitted = admitJson(String(wireJson));
    if (!admitted.ok) {
      throw wireJsonRefused('ERR_INVALID_INPUT_REQUEST', admitted.issue);
    }
    const wire = admitted.value;
    if (!isJsonObject(wire)) throw new ToolError('ERR_INVALID_INPUT_REQUEST', 'wire JSON must be an object');
    const fields = ['prompt', 'response_schema', 'continuation_state'];
    for (const key of Object.keys(wire)) {
      if (!fields.includes(key))
        throw new ToolError(
          'ERR_INVALID_INPUT_REQUEST',
          `unknown member ${goQuote(key)}; expected ${fields.join(', ')}`,
        );
    }
    for (const key of fields) {
      if (!Object.prototype.hasOwnProperty.call(wire, key))
        throw new ToolError('ERR_INVALID_INPUT_REQUEST', `missing member ${goQuote(key)}`);
    }
    const text = (value: JsonValue, field: string): string => {
      const data = toJsonData(value);
      if (!data.ok) throw new ToolError('ERR_INVALID_INPUT_REQUEST', `${field}: ${data.reason}`);
      return data.text;
    };
    return InputRequest.create({
      prompt: text(wire.prompt, 'prompt'),
      responseSchema: wire.response_schema as JsonObject | boolean,
      continuationState: text(wire.continuation_state, 'continuation state'),
    });
  }

  /** The prompt JSON text, exactly as given. */
  get prompt(): string {
    return this.#prompt;
  }

  /** The response schema as authored (deep-frozen JSON value). */
  get responseSchema(): JsonValue {
    return this.#schemaValue;
  }

  /** The tool's checkpoint JSON text, exactly as given. */
  get state(): string {
    return this.#state;
  }

  /**
   * Validates an answer against this exact request's response schema (RFC 7493 first, then the
   * schema) and freezes it with the state. Ports InputRequest.Continuation.
   * @param responseJson - the answer as JSON text, at most MAX_INPUT_BYTES UTF-8 bytes, kept exactly
   * @throws ToolError ERR_INVALID_INPUT_REQUEST (`response: <pointer>: <rule>`) with the issues attached
   */
  continuation(responseJson: string): Continuation {
    const response = checkText(responseJson, 'response');
    const admitted = admitJson(response);
    const issues = admitted.ok ? this.#schema.validate(admitted.value) : [];
    if (issues.length > 0) {
      throw new ToolError('ERR_INVALID_INPUT_REQUEST', `response: ${issues[0].message}`, { issues });
    }
    return new Continuation(TOKEN, this.#state, response);
  }

  /** The wire form for JSON.stringify, with prompt, schema and state as JSON values. */
  toJSON(): InputRequestWire {
    const value = (text: string): JsonValue => {
      const admitted = admitJson(text);
      return admitted.ok ? admitted.value : null;
    };
    return { prompt: value(this.#prompt), response_schema: this.#schemaValue, continuation_state: value(this.#state) };
  }
}

/**
 * Reports whether `value` is a genuine InputRequest (private-field brand check: an object made with
 * `Object.create(InputRequest.prototype)` is not one). @internal
 */
export function isInputRequest(value: unknown): value is InputRequest {
  return typeof value === 'object' && value !== null && hasInputRequestBrand(value);
}

/** JSON Schema (draft 2020-12) of the InputRequest wire form. Ports InputRequest.JSONSchemaModel. */
export const INPUT_REQUEST_SCHEMA: JsonObject = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    prompt: true,
    response_schema: { type: ['object', 'boolean'] },
    continuation_state: true,
  },
  required: ['prompt', 'response_schema', 'continuation_state'],
  additionalProperties: false,
}) as unknown as JsonObject;
