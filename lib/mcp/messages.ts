/**
 * The MCP layer's texts, worded in one place: refusals thrown at the caller (ToolError, TypeError,
 * RangeError), JSON-RPC error messages, the bodies of HTTP refusals and the model-facing texts of
 * calls that could not complete. The bearer token texts copy the SDK's `requireBearerAuth`
 * (`@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth`) exactly, so a client sees what an
 * SDK server would send. spec/mcp/messages.spec.ts pins each sentence once; other specs assert
 * codes, statuses, reasons and fields, or compare with a builder's output. The ContinuationSealer's
 * texts stay beside their checks in lib/mcp/sealed-state.ts.
 * @internal
 */
import { ToolError } from '../protocol';

const quote = (name: string) => JSON.stringify(name);

// --- server.ts, tools.ts, content.ts ---------------------------------------------------------

/** createMcpServer was given something other than a Registry (ERR_INVALID_REGISTRY). */
export function registryRequired(): ToolError {
  return new ToolError(
    'ERR_INVALID_REGISTRY',
    'createMcpServer: pass a Registry (for example the one createRegistry returns)',
  );
}

/** definitionOfMcpTool was given something other than an object (ERR_INVALID_DEFINITION). */
export function mcpToolNotObject(): ToolError {
  return new ToolError('ERR_INVALID_DEFINITION', 'MCP tool must be an object { name, description?, inputSchema }');
}

/** outputOfMcpToolResult was given something other than an object (ERR_INVALID_OUTPUT). */
export function toolResultNotObject(): ToolError {
  return new ToolError('ERR_INVALID_OUTPUT', 'MCP tool result must be an object');
}

/** A member of an MCP tool result has the wrong type: `rule` is e.g. `content must be an array`. */
export function toolResultMember(rule: string): ToolError {
  return new ToolError('ERR_INVALID_OUTPUT', `MCP tool result: ${rule}`);
}

/** Block `index` of an MCP tool result's `content` is unknown or malformed (`type`: its `type` member). */
export function toolResultBlock(index: number, type: unknown): ToolError {
  return toolResultMember(
    `content[${index}]: unknown or malformed block (type ${JSON.stringify(type)}); expected text, image, audio, resource_link or resource`,
  );
}

/** The text block that stands for a media block held by runtime reference (MCP cannot send it). */
export function runtimeReferenceOmitted(mime: string): string {
  return `[${mime} media omitted: a runtime reference cannot be sent over MCP]`;
}

// --- arguments.ts: the rule of the one admission issue mcpRequest may raise -----------------

/** Rule of a `number_out_of_range` issue: JSON.parse read a number as Infinity. */
export const NOT_FINITE = 'number is out of range (not a finite double); send a finite number';

/** Rule of a `too_deep` issue: nested deeper than `max` (MAX_DEPTH) arrays and objects. */
export function tooDeep(max: number): string {
  return `nesting is deeper than ${max} arrays and objects; flatten the arguments`;
}

// --- call.ts: JSON-RPC errors and the model-facing texts of calls that did not complete ------

/** The InvalidParams message for `arguments` that are not a JSON object. */
export function argumentsNotObject(tool: string): string {
  return `tools/call: arguments of tool ${quote(tool)} must be a JSON object`;
}

/** The progress steps a call reports (`notifications/progress` messages, for the person watching). */
export const PROGRESS = {
  admitted: 'admitted',
  waiting: 'waiting for input from the user',
  resumed: "resumed with the user's answer",
} as const;

/** The message of the Error (cause: what the factory threw) when the `context` option failed. */
export function contextFailed(tool: string): string {
  return `the context option failed for tool ${quote(tool)}; the tool did not run`;
}

/** Model-facing: the tool asked for input more than `max` times (maxElicitations). */
export function tooManyElicitations(tool: string, max: number): string {
  return `error: tool ${quote(tool)} asked for input more than ${max} times; the call did not complete`;
}

/** Model-facing: the user declined (`decline`) or dismissed (`cancel`) the elicitation. */
export function inputNotGiven(tool: string, action: 'decline' | 'cancel'): string {
  const what = action === 'decline' ? 'declined to give' : 'dismissed the request for';
  return `error: the user ${what} the input tool ${quote(tool)} asked for; the call did not complete`;
}

/** The elicitation message asked again after an answer the response schema refused (`refusal`: why). */
export function askedAgain(message: string, refusal: string): string {
  return `${message}\n\n(The previous answer was refused: ${refusal})`;
}

/**
 * Why an elicitation answer that is not one was refused, given as the reason when the question is
 * asked again (askedAgain): the client's result as the message carries it (the 2026-07-28 retry's
 * `inputResponses` too) is not `{ action, content? }`.
 */
export const ANSWER_RULE = {
  /** The result is not a JSON object. */
  notObject: 'the elicitation result must be an object { action, content }',
  /** `action` is missing or another value. */
  action: 'action must be "accept", "decline" or "cancel"',
  /** An accepted result's `content` is not a JSON object. */
  content: 'content must be an object of the form fields',
  /** A 2026-07-28 retry's `inputResponses` is not a JSON object. */
  responses: 'inputResponses must be an object whose "input" member is the elicitation result',
} as const;

/**
 * Model-facing: the `requestState` of a retried `tools/call` (protocol revision 2026-07-28) did not
 * open (`reason`: a ContinuationErrorReason), so the answer was not taken.
 */
export function stateNotResumed(tool: string, reason: string): string {
  const why =
    reason === 'replayed'
      ? 'was already used (a call resumes once)'
      : reason === 'expired'
        ? 'has expired'
        : 'is not one this server issued for this call';
  return `error: the answer to tool ${quote(tool)} was not taken: its request state ${why}; call the tool again`;
}

/** Model-facing: the client declared no elicitation capability. */
export function cannotElicit(tool: string): string {
  return `error: tool ${quote(tool)} needs input from the user, and this client cannot ask for it (no elicitation capability); the call did not complete`;
}

/** Model-facing: the response schema cannot be shown as an MCP form (the reason goes to onError). */
export function formCannotShow(tool: string): string {
  return `error: tool ${quote(tool)} needs input from the user in a form MCP elicitation cannot show; the call did not complete`;
}

// --- elicitation.ts --------------------------------------------------------------------------

/**
 * A response schema MCP elicitation cannot express (ERR_INVALID_INPUT_REQUEST): `where` is the
 * JSON Pointer into the schema (`''`: the root), `rule` what is wrong (the constants below).
 */
export function formRefused(where: string, rule: string): ToolError {
  return new ToolError(
    'ERR_INVALID_INPUT_REQUEST',
    `response schema${where === '' ? '' : ` ${where}`}: ${rule}; MCP elicitation asks for one flat object of string, number, integer, boolean and enum fields`,
  );
}

/** formRefused rule: a top-level keyword beyond those a form keeps. */
export function keywordNotInForm(key: string): string {
  return `keyword "${key}" has no MCP elicitation form equivalent`;
}

/** formRefused rule: a field of another type (`type`: the schema's `type`, or null). */
export function fieldTypeNotInForm(type: unknown): string {
  return `a form field must have type string, number, integer, boolean or a string-enum array (got ${JSON.stringify(type)})`;
}

/** formRefused rules without a variable part. */
export const FORM_RULE = {
  required: 'must be an array of strings',
  enum: 'enum must list strings only',
  oneOf: 'oneOf must list { const, title } string options',
  multiSelect: 'a multi-select field must list string enum items',
  notObject: 'must be a JSON Schema object (boolean schemas cannot be shown as a form)',
  ref: '"$ref" cannot be shown as a form; inline the schema',
} as const;

// --- server.ts, stdio.ts, http.ts: start-up refusals -----------------------------------------

/**
 * A limit option that is not a positive integer (RangeError); `who` is the function it was passed
 * to (createMcpServer, serveStdio, serveStreamableHttp).
 */
export function limitNotPositive(who: string, name: string, value: unknown): RangeError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return new RangeError(`${who}: ${name} must be a positive integer, got ${shown}`);
}

/** A timer option of `who` beyond the longest Node timer, `max` ms (RangeError). */
export function limitTooLong(who: string, name: string, max: number, value: number): RangeError {
  return new RangeError(`${who}: ${name} must be at most ${max} ms, got ${value}`);
}

// --- http.ts: start-up refusals --------------------------------------------------------------

/** `auth.verifier` without `verifyAccessToken` (TypeError). */
export function verifierRequired(): TypeError {
  return new TypeError(
    'serveStreamableHttp: auth.verifier must have verifyAccessToken(token) (the SDK OAuthTokenVerifier)',
  );
}

/** An `allowedOrigins` entry that is not `scheme://host[:port]` (TypeError). */
export function notAnOrigin(entry: unknown): TypeError {
  return new TypeError(
    `serveStreamableHttp: allowedOrigins entry ${JSON.stringify(entry)} is not an origin; write scheme://host[:port]`,
  );
}

/** `auth.resourceMetadata` the SDK's RFC 9728 schema refuses (`issues`: `path: message` joined by `; `). */
export function resourceMetadataInvalid(issues: string): TypeError {
  return new TypeError(
    `serveStreamableHttp: auth.resourceMetadata is not RFC 9728 protected resource metadata: ${issues}`,
  );
}

/** The verifier resolved to something that is not an AuthInfo (TypeError, answered 500). */
export function notAuthInfo(): TypeError {
  return new TypeError('auth.verifier.verifyAccessToken resolved to a value that is not an AuthInfo');
}

/** The McpHttpWarning (to onError) of a server bound to all interfaces (`where`: `host, port N`). */
export function wildcardWarning(where: string, hostsListed: boolean): Error {
  const advice = hostsListed
    ? 'anyone who can reach this port may call the tools unless auth is set'
    : 'only the Host names localhost, 127.0.0.1 and [::1] are accepted: ' +
      'list the names remote clients use in allowedHosts';
  const warning = new Error(`serveStreamableHttp: listening on all interfaces (${where}); ${advice}`);
  warning.name = 'McpHttpWarning';
  return warning;
}

// --- http.ts: the JSON-RPC error messages of HTTP refusals -----------------------------------

/** Messages of the HTTP refusals without a variable part, by what was refused. */
export const HTTP_REFUSAL = {
  /** 400: an absolute-form or asterisk-form request target. */
  target: 'request target must be a path (origin-form, e.g. /mcp), not an absolute URL',
  /** 403: a Host header not in allowedHosts. */
  host: 'Host header not allowed (DNS rebinding protection); list it in allowedHosts',
  /** 403: an Origin header not in allowedOrigins. */
  origin: 'Origin header not allowed (DNS rebinding protection); list it in allowedOrigins',
  /** 404: an unknown or expired session id, or another client's. */
  session: 'session not found; initialize a new session',
  /** 400 (-32700): a body that is not JSON. */
  notJson: 'request body is not JSON',
  /** 400: no session id, and not an initialize POST. */
  noSession: 'no session: send initialize (POST) first',
  /** 400: a 2026-07-28 request whose MCP-Protocol-Version header is another revision than its `_meta` envelope. */
  versionMismatch: 'MCP-Protocol-Version header differs from the protocol version in the request _meta; send the same',
  /** 500: an error of the server itself (the error goes to onError). */
  internal: 'internal error',
} as const;

/** 404: a path other than the endpoint. */
export function noEndpoint(path: string, endpoint: string): string {
  return `no MCP endpoint at ${path}; use ${endpoint}`;
}

/** 413: a POST body larger than maxBodyBytes. */
export function bodyTooLarge(max: number): string {
  return `request body exceeds ${max} bytes`;
}

/** 429: an initialize beyond maxSessionsPerClient, all of that client's sessions busy. */
export function clientSessionsBusy(perClient: number): string {
  return `this client has ${perClient} open sessions, all busy; end one with DELETE and retry`;
}

/** 503: an initialize beyond maxSessions. */
export function tooManySessions(max: number): string {
  return `too many open sessions (${max}); end one with DELETE and retry`;
}

/**
 * The bearer token refusals, worded as the SDK's requireBearerAuth words them (sent as
 * `error_description`): keep them identical to the SDK's.
 */
export const BEARER = {
  missing: 'Missing Authorization header',
  format: "Invalid Authorization header format, expected 'Bearer TOKEN'",
  invalid: 'Invalid token',
  resource: 'Token was not issued for this resource',
  scope: 'Insufficient scope',
  noExpiry: 'Token has no expiration time',
  expired: 'Token has expired',
  server: 'Internal Server Error',
} as const;
