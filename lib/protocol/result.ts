/**
 * What a successful call produces: a completed output or a request for external input. Ports `Result`.
 */
import { ToolError } from './errors';
import type { InputRequest } from './input';
import { isInputRequest } from './input';
import type { Output } from './output';
import { isOutput } from './output';

/**
 * Either `{ output }` (the call completed) or `{ inputRequest }` (the call is suspended until a
 * Continuation answers it). An input request carries no completed output. Ports Result.
 */
export type Result = { readonly output: Output } | { readonly inputRequest: InputRequest };

/**
 * Validates a Result and returns a fresh frozen copy: exactly one of `output` (an Output) and
 * `inputRequest` (an InputRequest); an `output` beside an input request must be empty (Go's zero Output).
 * @throws ToolError ERR_INVALID_RESULT naming the problem (ERR_INVALID_OUTPUT inside when the output is not an Output)
 */
export function validateResult(result: unknown): Result {
  if (typeof result !== 'object' || result === null) {
    throw new ToolError(
      'ERR_INVALID_RESULT',
      `a tool must resolve to { output } or { inputRequest }, not ${result === null ? 'null' : typeof result}`,
    );
  }
  const { output, inputRequest } = result as { output?: unknown; inputRequest?: unknown };
  if (inputRequest !== undefined) {
    if (!isInputRequest(inputRequest)) {
      throw new ToolError('ERR_INVALID_RESULT', 'inputRequest must be an InputRequest (InputRequest.create)');
    }
    if (output !== undefined && !(isOutput(output) && output.isEmpty)) {
      throw new ToolError(
        'ERR_INVALID_RESULT',
        'an input request carries no completed output; return { inputRequest } alone',
      );
    }
    return Object.freeze({ inputRequest });
  }
  if (!isOutput(output)) {
    const inner = new ToolError(
      'ERR_INVALID_OUTPUT',
      'output must be an Output (Output.text, Output.json or Output.create)',
    );
    throw new ToolError('ERR_INVALID_RESULT', inner.message, { cause: inner });
  }
  return Object.freeze({ output });
}
