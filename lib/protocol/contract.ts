/**
 * The immutable trust boundary from an untrusted Request to an Invocation. Ports `Contract`,
 * `Contract.Prepare` and `Invocation`.
 */
import type { AdmissionIssue } from './errors';
import { ToolError, goQuote, instanceOf, wrapError } from './errors';
import { rewrap } from './detail';
import type { Definition } from './definition';
import type { Continuation } from './input';
import { InputValidatorError, isContinuation } from './input';
import { admitJson, isBlank } from './json';
import type { JsonValue } from './json';
import { isJsonObject } from './json-data';
import type { Request } from './request';
import { readRequest } from './request';
import { argumentsRefused } from './messages';
import { markRefusal } from './refusal';
import type { CompiledSchema } from './schema';

const TOKEN = Symbol('contract');

/** The input validator a Contract freezes (see InputValidatingTool). */
export type InputValidator = (argumentsJson: string) => void;

/**
 * What a value form returns for one admitted value.
 * - `input`: the input to hand to the invocation's first call (see takePrepared), or NOT_PREPARED
 *   when the call must decode again.
 * - `normalized`: the arguments as the tool receives them, as JSON text (defaults applied, values
 *   transformed, wire names; see FuncConfig.encode), or undefined when they are the admitted text.
 */
export interface PreparedInput {
  readonly input: unknown;
  readonly normalized: string | undefined;
}

/**
 * The value form of an input validator: decodes an admitted value that has passed `validatedBy` (the
 * contract's compiled input schema), or throws as the text form would (a ToolError refuses the
 * arguments; anything else is a defect of the validator or its encoder, never the model's).
 */
export type ValueForm = (value: JsonValue, validatedBy: CompiledSchema) => PreparedInput;

/**
 * Value forms of input validators, by validator. A validator registered here (FuncTool's) is the
 * text form `(text) => valueForm(admitJson(text).value)`; prepare, which has just admitted the text
 * into a fresh value that nothing else holds, hands that value to the value form instead of letting
 * the validator scan and parse the same text again, and keeps what it decoded for the invocation's
 * first call (see takePrepared). Module-private registry: only the protocol's own validators are
 * registered (see declareValueForm), never a caller's.
 */
const valueForms = new WeakMap<InputValidator, ValueForm>();

/**
 * Declares that `validator(text)` is exactly `valueForm(<the admitted value of text>)`, and that it
 * refuses nothing else (the text it is given was admitted by prepare). @internal (FuncTool)
 */
export function declareValueForm(validator: InputValidator, valueForm: ValueForm): void {
  valueForms.set(validator, valueForm);
}

/** What takePrepared returns when the invocation holds no decoded input for that value form. */
export const NOT_PREPARED: unique symbol = Symbol('not prepared');

/** Reads the owner of a genuine Invocation (private-field brand check; set in a static block). */
let ownerSlot: (value: object) => Contract | undefined = () => undefined;
/** Reads the admitted arguments text of a genuine Invocation (see admittedArguments). */
let argumentsSlot: (invocation: Invocation) => string = () => '';
/** Reads the normalized arguments text of a genuine Invocation (see normalizedArguments). */
let normalizedSlot: (invocation: Invocation) => string = () => '';
/** Takes the decoded input a genuine Invocation holds for one value form (see takePrepared). */
let preparedSlot: (invocation: Invocation, form: ValueForm) => unknown = () => NOT_PREPARED;

/**
 * Arguments admitted by one exact Contract. Only `Contract.prepare` creates one, and only the
 * Binding of that same Contract instance runs it. Ports Invocation.
 * - `arguments`: the admitted JSON object text, exactly as received (`{}` for blank arguments).
 * - `normalizedArguments`: the arguments as the tool receives them (what a Guard's policy sees).
 * - `continuation`: the answer supplied for a suspended call, or undefined for a new call.
 */
export class Invocation {
  readonly #owner: Contract;
  readonly #arguments: string;
  readonly #normalized: string;
  readonly #continuation: Continuation | undefined;
  /** The value form that decoded the arguments at prepare, until the first call takes its input. */
  #preparedBy: ValueForm | undefined;
  #prepared: unknown;

  static {
    ownerSlot = (value) => (#owner in value ? (value as Invocation).#owner : undefined);
    argumentsSlot = (invocation) => invocation.#arguments;
    normalizedSlot = (invocation) => invocation.#normalized;
    preparedSlot = (invocation, form) => {
      if (form === undefined || !(#preparedBy in invocation) || invocation.#preparedBy !== form) return NOT_PREPARED;
      const input = invocation.#prepared;
      invocation.#preparedBy = undefined;
      invocation.#prepared = undefined;
      return input;
    };
  }

  /** @internal only Contract.prepare creates invocations */
  constructor(
    token: symbol,
    owner: Contract,
    args: string,
    continuation: Continuation | undefined,
    preparedBy?: ValueForm,
    prepared?: PreparedInput,
  ) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_INVOCATION', 'only Contract.prepare() creates an Invocation');
    this.#owner = owner;
    this.#arguments = args;
    this.#normalized = prepared?.normalized ?? args;
    this.#continuation = continuation;
    this.#preparedBy = prepared === undefined || prepared.input === NOT_PREPARED ? undefined : preparedBy;
    this.#prepared = this.#preparedBy === undefined ? undefined : prepared?.input;
    Object.freeze(this);
  }

  /** The admitted arguments JSON text, exactly as received. */
  get arguments(): string {
    return this.#arguments;
  }

  /**
   * The arguments as the tool receives them, as compact JSON object text: for a FuncTool with an
   * encoder (every dtoInput decoder has one), its decoded input encoded back (defaults of absent
   * members applied, `@Transform` results, `@Expose` wire names, nested DTOs, Dates as RFC 3339
   * strings; members in the DTO's declared order; nothing the decoder dropped); for any other tool,
   * the admitted text itself (`arguments`). Computed once, at prepare. A Guard's policy sees this text
   * (Authorization.arguments).
   */
  get normalizedArguments(): string {
    return this.#normalized;
  }

  /** The continuation supplied explicitly to prepare, or undefined for a new call. */
  get continuation(): Continuation | undefined {
    return this.#continuation;
  }
}

/**
 * The Contract that prepared `invocation`, or undefined for anything else (a private-field brand
 * check: an object made with `Object.create(Invocation.prototype)` or a Proxy is not an Invocation,
 * and no trap runs). @internal
 */
export function ownerOf(invocation: unknown): Contract | undefined {
  return typeof invocation === 'object' && invocation !== null ? ownerSlot(invocation) : undefined;
}

/** Reports whether `value` is an Invocation prepared by some Contract. @internal */
export function isInvocation(value: unknown): value is Invocation {
  return ownerOf(value) !== undefined;
}

/**
 * The arguments text of a genuine Invocation (check isInvocation first), read from its private
 * field, never through the (patchable) prototype getter. Every such text passed RFC 7493 admission
 * in Contract.prepare (the only constructor of invocations), is an object, and can never change, so
 * `JSON.parse` of it gives exactly the value admitJson would give, without scanning it again. @internal
 */
export function admittedArguments(invocation: Invocation): string {
  return argumentsSlot(invocation);
}

/**
 * The normalized arguments text of a genuine Invocation (check isInvocation first; see
 * Invocation.normalizedArguments), read from its private field, never through the prototype getter.
 * @internal (Guard)
 */
export function normalizedArguments(invocation: Invocation): string {
  return normalizedSlot(invocation);
}

/**
 * Takes, once, the input that `form` decoded from this invocation's arguments at prepare: the value
 * the form returned, which nothing else has held (prepare drops the admitted value after decoding it).
 * The first call of an invocation gets it; later calls, and any other value form, get NOT_PREPARED
 * and decode the arguments afresh. The slot is cleared when taken, so the invocation keeps nothing
 * alive after its first call. @internal (FuncTool)
 */
export function takePrepared(invocation: Invocation, form: ValueForm): unknown {
  return preparedSlot(invocation, form);
}

/** Refuses the arguments: the first issue's message (it already names its place and fix) and all issues. */
function refuse(issues: readonly AdmissionIssue[]): ToolError {
  return argumentsRefused(issues);
}

/**
 * The frozen admission contract of one bound tool: its definition snapshot, compiled input schema
 * and optional input validator. It keeps no reference to the executable tool, so a policy or a
 * planner can hold it safely. Immutable. Only bind() creates one. Ports Contract.
 */
export class Contract {
  readonly #definition: Definition;
  readonly #schema: CompiledSchema;
  readonly #validator: InputValidator | undefined;
  /** The validator's value form (FuncTool's), or undefined: then the validator gets the text. */
  readonly #valueForm: ValueForm | undefined;

  /** @internal use bind() */
  constructor(token: symbol, definition: Definition, schema: CompiledSchema, validator: InputValidator | undefined) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_TOOL', 'use bind(tool) to create a Contract');
    this.#definition = definition;
    this.#schema = schema;
    this.#validator = validator;
    this.#valueForm = validator === undefined ? undefined : valueForms.get(validator);
    Object.freeze(this);
  }

  /** The frozen tool name. Ports Contract.Name. */
  get name(): string {
    return this.#definition.name;
  }

  /**
   * The frozen definition: a deep-frozen snapshot, in the member order the tool authored
   * (docs/architecture.md section 3.6), and the very value that was compiled. Ports Contract.Definition.
   */
  definition(): Definition {
    return this.#definition;
  }

  /**
   * Admits a proposed call through this contract, synchronously. Order
   * (docs/reference-semantics.md section 7.3): request shape and size (MAX_INPUT_BYTES UTF-8 bytes,
   * checked before parsing); exact name; blank arguments (Go unicode.IsSpace) become `{}`; RFC 7493
   * admission; top-level object; input
   * schema; input validator (never after a schema failure; a FuncTool's decoder also states the
   * normalized arguments here, see Invocation.normalizedArguments); continuation. Never calls the tool
   * or an authorizer. Ports Contract.Prepare; RFC 7493.
   * @param request - tool name and raw JSON arguments
   * @param continuation - the answer to this call's InputRequest; undefined or null starts a new call
   * @returns an Invocation that only this contract's Binding will run
   * @throws ToolError ERR_INVALID_INVOCATION, wrapping ERR_INVALID_REQUEST for a malformed or
   *   oversized request (a refusal), or what reading the request threw (a getter, a Proxy trap: not a
   *   refusal, the caller's defect); `call name ... does not match`; `arguments: <pointer>: <rule>` with
   *   `issues` for JSON or schema violations; the validator's ToolError (invalid input) or an
   *   InputValidatorError (a validator defect, or a FuncTool encoder that failed) as cause;
   *   ERR_INVALID_INPUT_REQUEST inside for a
   *   continuation that is not one
   */
  prepare(request: Request, continuation?: Continuation | null): Invocation {
    let read: Request;
    try {
      read = readRequest(request);
    } catch (e) {
      // A rule the request breaks is a refusal; anything else thrown while reading it (a getter, a
      // Proxy trap) is the caller's defect, not the model's: unmarked, so its text never reaches the
      // model (regression: a throwing `arguments` getter was rendered to the model as a refusal).
      const wrapped = wrapError('ERR_INVALID_INVOCATION', e);
      throw instanceOf(e, ToolError) ? markRefusal(wrapped) : wrapped;
    }
    const name = this.#definition.name;
    if (read.name !== name) {
      // The runtime's mistake (the wrong contract), not the model's: not a refusal.
      throw new ToolError(
        'ERR_INVALID_INVOCATION',
        `call name ${goQuote(read.name)} does not match bound tool ${goQuote(name)}; prepare with the contract of the named tool`,
      );
    }
    const admitted = this.#admit(read.arguments);
    if (continuation !== undefined && continuation !== null && !isContinuation(continuation)) {
      const inner = new ToolError(
        'ERR_INVALID_INPUT_REQUEST',
        'continuation must come from InputRequest.continuation()',
      );
      throw wrapError('ERR_INVALID_INVOCATION', inner);
    }
    return new Invocation(TOKEN, this, admitted.text, continuation ?? undefined, this.#valueForm, admitted.prepared);
  }

  /**
   * The arguments part of prepare (blank normalization, RFC 7493, object, schema, validator):
   * returns the admitted text, or throws a refusal the model can act on (marked, see refusal.ts).
   * Validator defects are not marked: they are ours, not the model's.
   */
  #admit(text: string): { readonly text: string; readonly prepared: PreparedInput | undefined } {
    const args = isBlank(text) ? '{}' : text;
    const admitted = admitJson(args);
    if (!admitted.ok) throw markRefusal(refuse([admitted.issue]));
    if (!isJsonObject(admitted.value)) {
      const got =
        admitted.value === null ? 'null' : Array.isArray(admitted.value) ? 'an array' : `a ${typeof admitted.value}`;
      const message = `(root): must be a JSON object, received ${got}; send the arguments as one JSON object`;
      throw markRefusal(refuse([{ code: 'schema', path: [], message, keyword: 'type', params: { type: 'object' } }]));
    }
    const issues = this.#schema.validate(admitted.value);
    if (issues.length > 0) throw markRefusal(refuse(issues));
    return { text: args, prepared: this.#runValidator(args, admitted.value) };
  }

  /**
   * Runs the input validator on the admitted text; a validator with a value form (FuncTool's) gets
   * the admitted value instead: the same value its text form would parse (the schema check does not
   * change it), fresh from this prepare and dropped after it, so no scan or parse is repeated.
   * @returns what the value form prepared (input for the first call, normalized text), else undefined
   */
  #runValidator(args: string, value: JsonValue): PreparedInput | undefined {
    const validator = this.#validator;
    if (validator === undefined) return undefined;
    let returned: unknown;
    try {
      const valueForm = this.#valueForm;
      if (valueForm !== undefined) return valueForm(value, this.#schema);
      returned = validator(args);
    } catch (e) {
      if (instanceOf(e, ToolError)) throw markRefusal(rewrap('ERR_INVALID_INVOCATION', e, 'arguments'));
      throw wrapError('ERR_INVALID_INVOCATION', new InputValidatorError(e), 'arguments');
    }
    if (typeof (returned as { then?: unknown } | undefined)?.then === 'function') {
      (returned as Promise<unknown>).then(undefined, () => undefined);
      const defect = new InputValidatorError(
        'input validator returned a Promise; input validators must be synchronous',
      );
      throw wrapError('ERR_INVALID_INVOCATION', defect, 'arguments');
    }
    return undefined;
  }
}

/** Creates a Contract (bind only). @internal */
export function createContract(
  definition: Definition,
  schema: CompiledSchema,
  validator: InputValidator | undefined,
): Contract {
  return new Contract(TOKEN, definition, schema, validator);
}
