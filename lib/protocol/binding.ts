/**
 * Bind a tool to its frozen Contract, and run invocations that Contract admitted. Ports `Bind` and
 * `Binding`.
 */
import { capability } from './capability';
import type { Contract, InputValidator } from './contract';
import { createContract, ownerOf } from './contract';
import { snapshotDefinition } from './definition';
import { rewrap } from './detail';
import { ToolError, goQuote, instanceOf, messageOf } from './errors';
import type { Invocation } from './contract';
import { InputValidatorError, isInputValidatingTool } from './input';
import type { Result } from './result';
import { validateResult } from './result';
import type { CompiledSchema } from './schema';
import { compileSchemaValue } from './schema';
import type { CallOptions, Tool } from './tool';
import { isToolShaped } from './tool';

const TOKEN = Symbol('binding');

/**
 * One frozen Contract paired with the tool that executes it. Ports Binding.
 * - `contract`: what admission uses; holding it does not keep the tool alive.
 * - `call(invocation, options)`: runs an invocation prepared by this very contract instance.
 */
export class Binding {
  readonly #contract: Contract;
  readonly #tool: Tool;

  /** @internal use bind(tool) */
  constructor(token: symbol, contract: Contract, tool: Tool) {
    if (token !== TOKEN) throw new ToolError('ERR_INVALID_TOOL', 'use bind(tool) to create a Binding');
    this.#contract = contract;
    this.#tool = tool;
    Object.freeze(this);
  }

  /** The frozen contract. */
  get contract(): Contract {
    return this.#contract;
  }

  /**
   * Runs `invocation` on the tool. No abort check of its own (the Guard and the tool do that).
   * Errors the tool throws pass through unchanged (same object). Ports Binding.Call (DESIGN.md 3.8).
   * @returns the tool's Result, validated, as a fresh frozen object
   * @throws ToolError ERR_INVALID_INVOCATION (`invocation does not belong to binding`) for an
   *   invocation prepared by another contract instance (the tool is not called); ERR_INVALID_RESULT
   *   when the tool resolves to something that is not a valid Result
   */
  async call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    if (ownerOf(invocation) !== this.#contract) {
      throw new ToolError(
        'ERR_INVALID_INVOCATION',
        `invocation does not belong to binding ${goQuote(this.#contract.name)}; prepare it with this binding's contract`,
      );
    }
    const result = await this.#tool.call(invocation, options);
    try {
      return validateResult(result);
    } catch (e) {
      throw rewrap('ERR_INVALID_RESULT', e, `tool ${goQuote(this.#contract.name)}`);
    }
  }
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
    throw new ToolError('ERR_INVALID_TOOL', `input validation: inputValidator() returned ${typeof declared}; return a function or undefined`);
  }
  return declared as InputValidator;
}

/**
 * Binds a tool: reads `definition()` exactly once, validates and snapshots it, compiles the input
 * schema, declares the input validator once through the wrapping chain (outermost wins), then
 * freezes a Contract that keeps no reference to the tool. Ports Bind.
 * @throws ToolError ERR_INVALID_TOOL: `tool is nil` (not a Tool), `definition: ...` (wrapping
 *   ERR_INVALID_DEFINITION or the thrown error), `input schema: ...` (wrapping ERR_INVALID_SCHEMA),
 *   `input validation: ...` (wrapping ERR_INVALID_WRAPPING_CHAIN), `input validation declaration:
 *   ...` (wrapping InputValidatorError)
 */
export function bind(tool: Tool): Binding {
  if (!isToolShaped(tool)) {
    throw new ToolError('ERR_INVALID_TOOL', 'tool is nil; pass an object with definition() and call()');
  }
  let definition;
  try {
    definition = snapshotDefinition(tool.definition());
  } catch (e) {
    throw rewrap('ERR_INVALID_TOOL', instanceOf(e, ToolError) ? e : new Error(messageOf(e), { cause: e }), 'definition');
  }
  let schema: CompiledSchema;
  try {
    schema = compileSchemaValue(definition.inputSchema);
  } catch (e) {
    throw rewrap('ERR_INVALID_TOOL', e, `input schema of ${goQuote(definition.name)}`);
  }
  const validator = declareValidator(tool);
  return new Binding(TOKEN, createContract(definition, schema, validator), tool);
}
