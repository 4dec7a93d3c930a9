/**
 * A complete, definite unsuccessful outcome of the current invocation, with model-visible output.
 * Ports `Failure`, `FailureConfig`, `FailureKind`, `NewFailure` and `ClassifyFailure`.
 */
import { ToolError, goQuote, messageOf, walkCauses } from './errors';
import { Output, isOutput } from './output';

/** `failed`: a definite unsuccessful outcome (maybe with acknowledged partial effects); `rejected`: permission refused. */
export type FailureKind = 'failed' | 'rejected';

/**
 * Configuration of a Failure. Ports FailureConfig.
 * - `kind`: `failed` requires a cause; `rejected` may have one.
 * - `output`: model-visible output (default Output.empty).
 * - `cause`: diagnostic only; kept as `diagnosticCause`, never as the standard `cause`.
 */
export interface FailureConfig {
  readonly kind: FailureKind;
  readonly output?: Output;
  readonly cause?: unknown;
}

/**
 * One complete unsuccessful outcome. Its `message` is the cause's message, or `tool: <kind>` when
 * there is no cause. The diagnostic cause is deliberately NOT the standard `cause`, so chain
 * walkers (hasErrorCode, findError, isError, classifyFailure) never reach it. Ports Failure.
 */
export class Failure extends Error {
  readonly #kind: FailureKind;
  readonly #output: Output;
  readonly #diagnosticCause: unknown;

  /**
   * Validates and snapshots a failure. Order: `failed` needs a cause; the kind must be `failed` or
   * `rejected`; the output must be an Output. Ports NewFailure.
   * @throws ToolError ERR_INVALID_FAILURE naming the rule broken
   */
  constructor(config: FailureConfig) {
    if (typeof config !== 'object' || config === null) {
      throw new ToolError('ERR_INVALID_FAILURE', 'config must be an object { kind, output?, cause? }');
    }
    const { kind, output, cause } = config;
    const hasCause = cause !== undefined && cause !== null;
    if (kind === 'failed' && !hasCause) {
      throw new ToolError('ERR_INVALID_FAILURE', 'failed outcome requires a cause; pass the error that ended the call');
    }
    if (kind !== 'failed' && kind !== 'rejected') {
      throw new ToolError('ERR_INVALID_FAILURE', `kind ${goQuote(messageOf(kind))}; use "failed" or "rejected"`);
    }
    if (output !== undefined && !isOutput(output)) {
      throw new ToolError(
        'ERR_INVALID_FAILURE',
        'output: must be an Output (Output.text, Output.json or Output.create)',
      );
    }
    super(hasCause ? messageOf(cause) : `tool: ${kind}`);
    this.name = 'Failure';
    this.#kind = kind;
    this.#output = output ?? Output.empty;
    this.#diagnosticCause = hasCause ? cause : undefined;
  }

  /** The outcome kind. */
  get kind(): FailureKind {
    return this.#kind;
  }

  /** The model-visible output (immutable). */
  get output(): Output {
    return this.#output;
  }

  /** The diagnostic cause, for explicit inspection only (logs); never model-facing. */
  get diagnosticCause(): unknown {
    return this.#diagnosticCause;
  }

  /** Reports whether `value` is a genuine, constructed Failure. @internal */
  static isGenuine(value: unknown): value is Failure {
    return typeof value === 'object' && value !== null && #kind in value;
  }
}

/**
 * Finds the complete outcome of the current invocation: walks `err` and its standard `cause`
 * links only (transparent single-cause wrapping, CallError included) and returns the first
 * Failure met. An AggregateError (or anything carrying an `errors` array) is an invocation
 * boundary: the answer is undefined, whatever it holds. A Failure's diagnosticCause is never
 * searched. Cycle-safe, and bounded: at most MAX_CAUSE_NODES links are followed (a chain that
 * never ends is "none established"); a getter or trap that throws ends the search with undefined.
 * Ports ClassifyFailure (docs/architecture.md section 3.9).
 * @returns the Failure, or undefined when none is established
 */
export function classifyFailure(err: unknown): Failure | undefined {
  // walkCauses reads a node's links only after this loop has looked at it, so an AggregateError's
  // members are never reached; a chain that never ends stops at MAX_CAUSE_NODES.
  for (const node of walkCauses(err)) {
    if (typeof node !== 'object' && typeof node !== 'function') return undefined;
    try {
      // instanceof may run a Proxy's getPrototypeOf trap: inside the try, so a hostile value is "not found".
      if (node instanceof Failure) return Failure.isGenuine(node) ? node : undefined;
      if (node instanceof AggregateError || Array.isArray((node as { errors?: unknown }).errors)) return undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
