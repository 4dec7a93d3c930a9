/**
 * An ordinary error carrying evidence (observed effects) without declaring an outcome. Ports
 * `CallError`, `CallErrorConfig` and `NewCallError`.
 */
import { ToolError, messageOf } from './errors';
import { Output, isOutput } from './output';

/**
 * Configuration of a CallError.
 * - `cause`: the error being wrapped (required), kept as the standard, transparent `cause`.
 * - `evidence`: observations such as acknowledged partial effects (default Output.empty).
 */
export interface CallErrorConfig {
  readonly cause: unknown;
  readonly evidence?: Output;
}

/**
 * A transparent wrapper adding evidence to an error. Its message is the cause's message; the cause
 * stays reachable (`isError(callError, cause)`); it is not a Failure and gives no retry advice.
 * The evidence is for diagnostics and evaluation, never a model-visible tool result. Ports CallError.
 */
export class CallError extends Error {
  readonly #evidence: Output;

  /**
   * @throws ToolError ERR_INVALID_CALL_ERROR when the cause is missing (`cause is required`) or
   *   the evidence is not an Output (`evidence: ...`)
   */
  constructor(config: CallErrorConfig) {
    if (typeof config !== 'object' || config === null || config.cause === undefined || config.cause === null) {
      throw new ToolError('ERR_INVALID_CALL_ERROR', 'cause is required; pass the error being annotated');
    }
    if (config.evidence !== undefined && !isOutput(config.evidence)) {
      throw new ToolError(
        'ERR_INVALID_CALL_ERROR',
        'evidence: must be an Output (Output.text, Output.json or Output.create)',
      );
    }
    super(messageOf(config.cause), { cause: config.cause });
    this.name = 'CallError';
    this.#evidence = config.evidence ?? Output.empty;
  }

  /** The evidence (immutable Output; Output.empty when none was given). */
  get evidence(): Output {
    return this.#evidence;
  }
}
