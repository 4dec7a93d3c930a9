/**
 * Bind a tool to its frozen Contract, and run invocations that Contract admitted. Ports `Bind` and
 * `Binding`.
 */
import { MAX_WRAPPERS, capability, isWrappingTool } from './capability';
import { Guard } from './authorization';
import { DEFAULT_TIMEOUT_MS, callWithin, checkTimeout, isDeadlineTool, thenOf } from './deadline';
import type { Contract, InputValidator } from './contract';
import { createContract, ownerOf } from './contract';
import { snapshotDefinition } from './definition';
import { rewrap } from './detail';
import { ToolError, goQuote, instanceOf, messageOf } from './errors';
import type { AdmissionIssue } from './errors';
import { admitJson } from './json';
import type { Invocation } from './contract';
import { InputValidatorError, isInputValidatingTool } from './input';
import type { Result } from './result';
import { validateResult } from './result';
import type { CompiledSchema } from './schema';
import { compileSchemaValue } from './schema';
import type { CallOptions, Tool } from './tool';
import { callNow, isToolShaped } from './tool';

const TOKEN = Symbol('binding');

/**
 * Options of bind.
 * - `timeoutMs`: the deadline of every call of the binding, in milliseconds: a whole number from 1
 *   to MAX_TIMEOUT_MS (2,147,483,647), or Infinity for no deadline. It replaces the deadline the
 *   tool declares (DeadlineTool); without either, DEFAULT_TIMEOUT_MS (60,000 ms) applies.
 */
export interface BindOptions {
  readonly timeoutMs?: number;
}

/**
 * One frozen Contract paired with the tool that executes it. Ports Binding.
 * - `contract`: what admission uses; holding it does not keep the tool alive.
 * - `timeoutMs`: the deadline of its calls (ms, or Infinity), fixed at bind.
 * - `call(invocation, options)`: runs an invocation prepared by this very contract instance.
 */
export class Binding {
  readonly #contract: Contract;
  readonly #tool: Tool;
  readonly #timeoutMs: number;
  readonly #outputSchema: CompiledSchema | undefined;

  /** @internal use bind(tool) */
  constructor(
    token: symbol,
    contract: Contract,
    tool: Tool,
    timeoutMs: number = DEFAULT_TIMEOUT_MS,
    outputSchema?: CompiledSchema,
  ) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_TOOL', 'use bind(tool) to create a Binding');
    this.#contract = contract;
    this.#tool = tool;
    this.#timeoutMs = timeoutMs;
    this.#outputSchema = outputSchema;
    Object.freeze(this);
  }

  /**
   * The deadline of every call, in milliseconds (Infinity: none): `bind(tool, { timeoutMs })`, else
   * the tool's DeadlineTool declaration, else DEFAULT_TIMEOUT_MS (60,000).
   */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** The frozen contract. */
  get contract(): Contract {
    return this.#contract;
  }

  /**
   * Whether some Guard of the tool's wrapping chain has a listing check (Authorizer.canList), so
   * that `listedFor` can hide the tool from some callers.
   */
  get hasListingCheck(): boolean {
    return guardsOf(this.#tool).some((g) => g.hasListingCheck);
  }

  /**
   * Whether the caller of `options` may see this tool: every Guard of the wrapping chain, outermost
   * first, is asked its listing check (Guard.listedFor); the first `false` hides the tool. A tool
   * without listing checks is listed. Used by Registry.definitions(caller) and Registry.visibleTo.
   * @throws the abort reason when `options.signal` aborts
   */
  async listedFor(options?: CallOptions): Promise<boolean> {
    for (const guard of guardsOf(this.#tool)) {
      if (!(await guard.listedFor(options))) return false;
    }
    return true;
  }

  /**
   * Runs `invocation` on the tool. No abort check of its own (the Guard and the tool do that).
   * Errors the tool throws pass through unchanged (same object). Ports Binding.Call (docs/architecture.md section 3.8).
   *
   * Deadline (no seed counterpart): the smaller of `binding.timeoutMs` and `options.timeoutMs`
   * (ms). Under a finite deadline the tool gets `{ signal, context, idempotencyKey }`: `context` and
   * `idempotencyKey` unchanged, a signal
   * that aborts with the caller's reason when `options.signal` aborts, or with a DOMException
   * `TimeoutError` when the deadline passes. At the deadline the call ends at once, whether or not
   * the policy or tool ever settles, with a Failure of kind `failed` whose output the model reads:
   * `error: tool "NAME" timed out after N ms` (the TimeoutError is its diagnosticCause; a caller's
   * abort keeps its own reason). A result that settled before the deadline is never replaced, and
   * no timer outlives the call. With Infinity the options pass to the tool unchanged. The tool's
   * `options.signal` is a getter that makes the AbortSignal on first read: a wrapper tool passes
   * `options` on as is, or `{ signal: options.signal, context: options.context }`, since
   * `{ ...options }` copies own members only and would drop the signal.
   * Output contract (added): when the definition declares an `outputSchema`, every Output must hold
   * JSON details that the schema (compiled once, at bind) accepts; otherwise the call throws
   * ToolError ERR_OUTPUT_MISMATCH, whose `issues` give the JSON Pointer of each violation (at most
   * 10) for the developer. It is the tool's failure: renderOutcome shows the model only
   * `error: tool "NAME" failed`, never the details. An InputRequest is not checked.
   * @returns the tool's Result, validated, as a fresh frozen object
   * @throws ToolError ERR_INVALID_INVOCATION (`invocation does not belong to binding`) for an
   *   invocation prepared by another contract instance, or (`call options: timeoutMs is ...`) for
   *   a timeoutMs that is not a whole number from 1 to MAX_TIMEOUT_MS or Infinity (the tool is not
   *   called), or (`call options: idempotencyKey is ...`) for an idempotencyKey that is not a
   *   string (the tool is not called); ERR_INVALID_RESULT when the tool resolves to something that
   *   is not a valid Result; ERR_OUTPUT_MISMATCH when an Output breaks the declared output schema;
   *   Failure (kind `failed`) when the deadline passes
   */
  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    // Not an async function: one reaction on the tool's promise validates its Result (an async
    // function costs its own promise and turns on top). Everything thrown here, the tool's
    // synchronous throws included, becomes the returned promise's rejection, as before.
    try {
      if (ownerOf(invocation) !== this.#contract) {
        throw new ToolError(
          'ERR_INVALID_INVOCATION',
          `invocation does not belong to binding ${goQuote(this.#contract.name)}; prepare it with this binding's contract`,
        );
      }
      const key: unknown = options?.idempotencyKey;
      if (key !== undefined && typeof key !== 'string') {
        throw new ToolError(
          'ERR_INVALID_INVOCATION',
          `call options: idempotencyKey is ${key === null ? 'null' : typeof key}; pass a string or leave it out`,
        );
      }
      let timeoutMs = this.#timeoutMs;
      const asked: unknown = options?.timeoutMs;
      if (asked !== undefined) {
        timeoutMs = Math.min(timeoutMs, checkTimeout(asked, 'ERR_INVALID_INVOCATION', 'call options: timeoutMs'));
      }
      const tool = this.#tool;
      // callNow: the Result itself when a Guard and FuncTool settled at once (no promise, no turn),
      // else a native promise (another tool's call adopted as `await` adopts it).
      if (timeoutMs === Infinity) {
        const settled = callNow(tool, invocation, options);
        return settled instanceof Promise ? thenOf(settled, this.#check) : Promise.resolve(this.#check(settled));
      }
      // Under a deadline the Result is validated in the reaction that settles the call (one promise
      // and one turn fewer than a `.then` on the deadline's promise), or at once.
      return callWithin(
        this.#contract.name,
        timeoutMs,
        options,
        (scope) => callNow(tool, invocation, scope),
        this.#check,
      );
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Validates what the tool resolved to (bound once, at construction). */
  readonly #check = (result: unknown): Result => {
    let valid: Result;
    try {
      valid = validateResult(result);
    } catch (e) {
      throw rewrap('ERR_INVALID_RESULT', e, `tool ${goQuote(this.#contract.name)}`);
    }
    if (this.#outputSchema !== undefined && 'output' in valid) {
      checkOutput(this.#contract.name, this.#outputSchema, valid.output.details);
    }
    return valid;
  };
}

/**
 * Checks an Output's details against the tool's compiled output schema.
 * @throws ToolError ERR_OUTPUT_MISMATCH (see outputMismatch)
 */
function checkOutput(name: string, schema: CompiledSchema, details: string | undefined): void {
  if (details === undefined) throw outputMismatch(name, []);
  const admitted = admitJson(details);
  // Output.create admitted the details already; a failure here would be a defect of Output.
  const issues = admitted.ok ? schema.validate(admitted.value) : [admitted.issue];
  if (issues.length > 0) throw outputMismatch(name, issues);
}

/**
 * `tool: output does not match its output schema: tool "NAME": ` then either `the output has no
 * JSON details; return a JSON value ...` (no issues) or `details ` and the first issue's message (its
 * JSON Pointer and rule: `details /count: must be integer`); every issue travels on `issues`.
 * @internal
 */
export function outputMismatch(name: string, issues: readonly AdmissionIssue[]): ToolError {
  const what =
    issues.length === 0
      ? 'the output has no JSON details; return a JSON value (Output.json, Output.create({ details }))'
      : `details ${issues[0].message}`;
  return new ToolError('ERR_OUTPUT_MISMATCH', `tool ${goQuote(name)}: ${what}`, { issues });
}

/** The Guards of a wrapping chain, outermost first (at most MAX_WRAPPERS links are followed). */
function guardsOf(tool: Tool): Guard[] {
  const guards: Guard[] = [];
  let current: unknown = tool;
  for (let depth = 0; depth <= MAX_WRAPPERS && isWrappingTool(current); depth++) {
    if (current instanceof Guard) guards.push(current);
    current = current.unwrap();
  }
  return guards;
}

function declareValidator(tool: Tool): InputValidator | undefined {
  let declared: unknown;
  try {
    const provider = capability(tool, isInputValidatingTool);
    if (provider === undefined) return undefined;
    declared = provider.inputValidator();
  } catch (e) {
    if (instanceOf(e, ToolError)) throw rewrap('ERR_INVALID_TOOL', e, 'input validation');
    throw rewrap('ERR_INVALID_TOOL', new InputValidatorError(e), 'input validation declaration');
  }
  if (declared === undefined || declared === null) return undefined;
  if (typeof declared !== 'function') {
    throw new ToolError(
      'ERR_INVALID_TOOL',
      `input validation: inputValidator() returned ${typeof declared}; return a function or undefined`,
    );
  }
  return declared as InputValidator;
}

/**
 * Binds a tool: reads `definition()` exactly once, validates and snapshots it, compiles the input
 * schema (and the output schema, when there is one), declares the input validator once through the wrapping chain (outermost wins), then
 * freezes a Contract that keeps no reference to the tool; then the deadline: `options.timeoutMs`,
 * else the outermost DeadlineTool's `timeoutMs()` (read once), else DEFAULT_TIMEOUT_MS (60,000 ms).
 * Ports Bind.
 * @throws ToolError ERR_INVALID_TOOL: `tool is nil` (not a Tool), `definition: ...` (wrapping
 *   ERR_INVALID_DEFINITION or the thrown error), `input schema of "NAME": ...` / `output schema of
 *   "NAME": ...` (wrapping ERR_INVALID_SCHEMA),
 *   `input validation: ...` (wrapping ERR_INVALID_WRAPPING_CHAIN), `input validation declaration:
 *   ...` (wrapping InputValidatorError), `timeoutMs is ...` / `timeoutMs() of the tool is ...` (not
 *   a whole number of ms from 1 to MAX_TIMEOUT_MS, nor Infinity), `timeoutMs declaration: ...` (the
 *   wrapping chain or `timeoutMs()` threw)
 */
export function bind(tool: Tool, options?: BindOptions): Binding {
  if (!isToolShaped(tool)) {
    throw new ToolError('ERR_INVALID_TOOL', 'tool is nil; pass an object with definition() and call()');
  }
  let definition;
  try {
    definition = snapshotDefinition(tool.definition());
  } catch (e) {
    throw rewrap(
      'ERR_INVALID_TOOL',
      instanceOf(e, ToolError) ? e : new Error(messageOf(e), { cause: e }),
      'definition',
    );
  }
  let schema: CompiledSchema;
  try {
    schema = compileSchemaValue(definition.inputSchema);
  } catch (e) {
    throw rewrap('ERR_INVALID_TOOL', e, `input schema of ${goQuote(definition.name)}`);
  }
  let outputSchema: CompiledSchema | undefined;
  if (definition.outputSchema !== undefined) {
    try {
      outputSchema = compileSchemaValue(definition.outputSchema);
    } catch (e) {
      throw rewrap('ERR_INVALID_TOOL', e, `output schema of ${goQuote(definition.name)}`);
    }
  }
  const validator = declareValidator(tool);
  const contract = createContract(definition, schema, validator);
  return new Binding(TOKEN, contract, tool, declareTimeout(tool, options), outputSchema);
}

/** The binding's deadline: `options.timeoutMs`, else the tool's DeadlineTool declaration, else the default. */
function declareTimeout(tool: Tool, options: BindOptions | undefined): number {
  const given: unknown = options?.timeoutMs;
  if (given !== undefined) return checkTimeout(given, 'ERR_INVALID_TOOL', 'timeoutMs');
  let declared: unknown;
  try {
    declared = capability(tool, isDeadlineTool)?.timeoutMs();
  } catch (e) {
    throw rewrap(
      'ERR_INVALID_TOOL',
      instanceOf(e, ToolError) ? e : new Error(messageOf(e), { cause: e }),
      'timeoutMs declaration',
    );
  }
  if (declared === undefined) return DEFAULT_TIMEOUT_MS;
  return checkTimeout(declared, 'ERR_INVALID_TOOL', 'timeoutMs() of the tool');
}
