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
import { isJsonObject } from './json-data';
import type { Request } from './request';
import { validateRequest } from './request';
import { markRefusal } from './refusal';
import type { CompiledSchema } from './schema';

const TOKEN = Symbol('contract');
const owners = new WeakMap<Invocation, Contract>();

/** The input validator a Contract freezes (see InputValidatingTool). */
export type InputValidator = (argumentsJson: string) => void;

/**
 * Arguments admitted by one exact Contract. Only `Contract.prepare` creates one, and only the
 * Binding of that same Contract instance runs it. Ports Invocation.
 * - `arguments`: the admitted JSON object text, exactly as received (`{}` for blank arguments).
 * - `continuation`: the answer supplied for a suspended call, or undefined for a new call.
 */
export class Invocation {
  readonly #arguments: string;
  readonly #continuation: Continuation | undefined;

  /** @internal only Contract.prepare creates invocations */
  constructor(token: symbol, owner: Contract, args: string, continuation: Continuation | undefined) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_INVOCATION', 'only Contract.prepare() creates an Invocation');
    this.#arguments = args;
    this.#continuation = continuation;
    owners.set(this, owner);
    Object.freeze(this);
  }

  /** The admitted arguments JSON text, exactly as received. */
  get arguments(): string {
    return this.#arguments;
  }

  /** The continuation supplied explicitly to prepare, or undefined for a new call. */
  get continuation(): Continuation | undefined {
    return this.#continuation;
  }
}

/** The Contract that prepared `invocation`, or undefined for anything else. @internal */
export function ownerOf(invocation: unknown): Contract | undefined {
  return typeof invocation === 'object' && invocation !== null ? owners.get(invocation as Invocation) : undefined;
}

/** Reports whether `value` is an Invocation prepared by some Contract. @internal */
export function isInvocation(value: unknown): value is Invocation {
  return ownerOf(value) !== undefined;
}

/** Refuses the arguments: the first issue's message (it already names its place and fix) and all issues. */
function refuse(issues: readonly AdmissionIssue[]): ToolError {
  return new ToolError('ERR_INVALID_INVOCATION', `arguments: ${issues[0].message}`, { issues });
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

  /** @internal use bind() */
  constructor(token: symbol, definition: Definition, schema: CompiledSchema, validator: InputValidator | undefined) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_TOOL', 'use bind(tool) to create a Contract');
    this.#definition = definition;
    this.#schema = schema;
    this.#validator = validator;
    Object.freeze(this);
  }

  /** The frozen tool name. Ports Contract.Name. */
  get name(): string {
    return this.#definition.name;
  }

  /**
   * The frozen definition: a deep-frozen snapshot, in the member order the tool authored
   * (DESIGN.md 3.6), and the very value that was compiled. Ports Contract.Definition.
   */
  definition(): Definition {
    return this.#definition;
  }

  /**
   * Admits a proposed call through this contract, synchronously. Order (reference 7.3): request
   * shape and size (MAX_INPUT_BYTES UTF-8 bytes, checked before parsing); exact name; blank
   * arguments (Go unicode.IsSpace) become `{}`; RFC 7493 admission; top-level object; input
   * schema; input validator (never after a schema failure); continuation. Never calls the tool or
   * an authorizer. Ports Contract.Prepare; RFC 7493.
   * @param request - tool name and raw JSON arguments
   * @param continuation - the answer to this call's InputRequest; undefined or null starts a new call
   * @returns an Invocation that only this contract's Binding will run
   * @throws ToolError ERR_INVALID_INVOCATION, wrapping ERR_INVALID_REQUEST for a malformed or
   *   oversized request; `call name ... does not match`; `arguments: <pointer>: <rule>` with
   *   `issues` for JSON or schema violations; the validator's ToolError (invalid input) or an
   *   InputValidatorError (validator defect) as cause; ERR_INVALID_INPUT_REQUEST inside for a
   *   continuation that is not one
   */
  prepare(request: Request, continuation?: Continuation | null): Invocation {
    try {
      validateRequest(request);
    } catch (e) {
      throw markRefusal(wrapError('ERR_INVALID_INVOCATION', e));
    }
    const name = this.#definition.name;
    if (request.name !== name) {
      // The runtime's mistake (the wrong contract), not the model's: not a refusal.
      throw new ToolError(
        'ERR_INVALID_INVOCATION',
        `call name ${goQuote(request.name)} does not match bound tool ${goQuote(name)}; prepare with the contract of the named tool`,
      );
    }
    const args = this.#admit(request.arguments);
    if (continuation !== undefined && continuation !== null && !isContinuation(continuation)) {
      const inner = new ToolError('ERR_INVALID_INPUT_REQUEST', 'continuation must come from InputRequest.continuation()');
      throw wrapError('ERR_INVALID_INVOCATION', inner);
    }
    return new Invocation(TOKEN, this, args, continuation ?? undefined);
  }

  /**
   * The arguments part of prepare (blank normalization, RFC 7493, object, schema, validator):
   * returns the admitted text, or throws a refusal the model can act on (marked, see refusal.ts).
   * Validator defects are not marked: they are ours, not the model's.
   */
  #admit(text: string): string {
    const args = isBlank(text) ? '{}' : text;
    const admitted = admitJson(args);
    if (!admitted.ok) throw markRefusal(refuse([admitted.issue]));
    if (!isJsonObject(admitted.value)) {
      const got = admitted.value === null ? 'null' : Array.isArray(admitted.value) ? 'an array' : `a ${typeof admitted.value}`;
      const message = `(root): must be a JSON object, received ${got}; send the arguments as one JSON object`;
      throw markRefusal(refuse([{ code: 'schema', path: [], message, keyword: 'type', params: { type: 'object' } }]));
    }
    const issues = this.#schema.validate(admitted.value);
    if (issues.length > 0) throw markRefusal(refuse(issues));
    this.#runValidator(args);
    return args;
  }

  #runValidator(args: string): void {
    const validator = this.#validator;
    if (validator === undefined) return;
    let returned: unknown;
    try {
      returned = validator(args);
    } catch (e) {
      if (instanceOf(e, ToolError)) throw markRefusal(rewrap('ERR_INVALID_INVOCATION', e, 'arguments'));
      throw wrapError('ERR_INVALID_INVOCATION', new InputValidatorError(e), 'arguments');
    }
    if (typeof (returned as { then?: unknown } | undefined)?.then === 'function') {
      (returned as Promise<unknown>).then(undefined, () => undefined);
      const defect = new InputValidatorError('input validator returned a Promise; input validators must be synchronous');
      throw wrapError('ERR_INVALID_INVOCATION', defect, 'arguments');
    }
  }
}

/** Creates a Contract (bind only). @internal */
export function createContract(definition: Definition, schema: CompiledSchema, validator: InputValidator | undefined): Contract {
  return new Contract(TOKEN, definition, schema, validator);
}
