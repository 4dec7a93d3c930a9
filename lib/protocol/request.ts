/**
 * The untrusted proposal of a tool call. Ports `Request` (no provider correlation ID: that belongs
 * to the transport).
 */
import { ToolError, goQuote } from './errors';
import { MAX_INPUT_BYTES, hasLoneSurrogate, utf8Length } from './json';

/**
 * A model's proposed tool call.
 * - `name`: the tool name as the model wrote it (compared byte for byte with the contract's).
 * - `arguments`: the model's raw JSON text, at most MAX_INPUT_BYTES UTF-8 bytes; blank means `{}`.
 */
export interface Request {
  readonly name: string;
  readonly arguments: string;
}

/**
 * Checks the shape of a Request before any JSON parsing: an object with a non-empty `name` string
 * and an `arguments` string, both valid Unicode (no lone surrogates), arguments at most
 * MAX_INPUT_BYTES UTF-8 bytes. Malformed argument JSON is not a request error (Contract.prepare
 * reports it). Ports Request validation (docs/architecture.md section 3.1 for the size bound).
 * @throws ToolError ERR_INVALID_REQUEST naming the field that is wrong
 */
export function validateRequest(request: unknown): asserts request is Request {
  readRequest(request);
}

/**
 * validateRequest that also returns the name and arguments it checked, each read once: a getter
 * answering a second read differently cannot change what was checked (regression: Contract.prepare
 * read `arguments` again after the check, and a getter's second answer `0` was admitted as `{}`).
 * @throws ToolError ERR_INVALID_REQUEST as validateRequest
 * @internal (Contract.prepare)
 */
export function readRequest(request: unknown): Request {
  if (typeof request !== 'object' || request === null) {
    throw new ToolError('ERR_INVALID_REQUEST', 'request must be an object { name, arguments }');
  }
  const { name, arguments: args } = request as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') {
    throw new ToolError('ERR_INVALID_REQUEST', 'name must not be empty; send the name of a defined tool');
  }
  if (typeof args !== 'string') {
    throw new ToolError('ERR_INVALID_REQUEST', `arguments of ${goQuote(name)} must be a string of JSON text`);
  }
  if (hasLoneSurrogate(name) || hasLoneSurrogate(args)) {
    throw new ToolError('ERR_INVALID_REQUEST', 'name and arguments must be valid UTF-8 (no lone surrogates)');
  }
  // A UTF-16 code unit is at most 3 UTF-8 bytes: only a long text needs counting.
  const size = args.length * 3 <= MAX_INPUT_BYTES ? 0 : utf8Length(args);
  if (size > MAX_INPUT_BYTES) {
    throw new ToolError(
      'ERR_INVALID_REQUEST',
      `arguments are ${size} bytes, more than the ${MAX_INPUT_BYTES}-byte limit; send smaller arguments`,
    );
  }
  return { name, arguments: args };
}
