/**
 * Protocol messages built in more than one file, worded in one place. Each keeps the Go seed's
 * sentinel prefix (`tool: invalid invocation: ...`, lib/protocol/errors.ts). Messages used by one
 * file only stay beside their check. spec/protocol/messages.spec.ts pins each sentence once.
 * @internal
 */
import type { AdmissionIssue, ToolErrorCode } from './errors';
import { ToolError, goQuote } from './errors';

/**
 * The arguments of a call were refused at admission: `tool: invalid invocation: arguments: ` and
 * the first issue's message (it names its place and fix); all issues travel on `issues`.
 * Used by Contract.prepare, FuncTool's decoder and the MCP argument reader.
 */
export function argumentsRefused(issues: readonly AdmissionIssue[]): ToolError {
  return new ToolError('ERR_INVALID_INVOCATION', `arguments: ${issues[0].message}`, { issues });
}

/**
 * A wire JSON text (definition, output, input request) that admission refused: `<sentinel>: wire
 * JSON: ` and the issue's message, under `code`.
 */
export function wireJsonRefused(code: ToolErrorCode, issue: AdmissionIssue): ToolError {
  return new ToolError(code, `wire JSON: ${issue.message}`, { issues: [issue] });
}

/** `who` (`Guard.call`, `FuncTool.call`) was given something that Contract.prepare did not create. */
export function needsInvocation(who: string): ToolError {
  return new ToolError('ERR_INVALID_INVOCATION', `${who} needs an Invocation from Contract.prepare()`);
}

/** The model-facing output text of a call the authorizer refused (ports Guard.Call). */
export function notAuthorizedText(toolName: string): string {
  return `error: tool ${goQuote(toolName)} is not authorized`;
}

/**
 * The developer-facing text of a call a policy refused (the rejected Failure's diagnostic cause and
 * so its message; never shown to the model): the tool and the policy's function or class name.
 */
export function policyRefusedText(toolName: string, policy: string | undefined): string {
  const by = policy === undefined ? 'an unnamed policy (give the function or class a name)' : `policy ${policy}`;
  return `tool: rejected: tool ${goQuote(toolName)} was refused by ${by}`;
}

/** The message of an AuthorizationError (ports AuthorizationError.Error). */
export function authorizationFailedText(toolName: string): string {
  return toolName === '' ? 'tool: authorization failed' : `tool: authorization for ${goQuote(toolName)} failed`;
}

/**
 * A text an InputRequest holds as JSON (the prompt, the continuation state, an answer) that is not
 * one RFC 7493 JSON text: the admission issue, then how to send plain text. The seed's contract
 * keeps the prompt JSON (a plain `42` or `true` would be ambiguous), so the fix is JSON.stringify,
 * shown with the text given when it is short and needs no escape.
 */
export function notJsonText(field: string, value: string, issue: AdmissionIssue): ToolError {
  const quoted = JSON.stringify(value);
  // Shown only when short and needing no escape (no quote, backslash or control character).
  const shown = value.length <= 64 && quoted.length === value.length + 2 ? quoted : 'text';
  return new ToolError(
    'ERR_INVALID_INPUT_REQUEST',
    `${field} must be JSON text: ${issue.message}; for plain text pass JSON.stringify(${shown})`,
    { issues: [issue] },
  );
}

/** What to pass for each JSON text of an InputRequest, for missingJsonText. */
const JSON_TEXT_HINTS: Readonly<Record<string, string>> = Object.freeze({
  prompt: 'prompt, the question as JSON text: JSON.stringify("Send it?")',
  'continuation state':
    "continuationState, the tool's checkpoint as JSON text that resume hands back: JSON.stringify({ step: 1 }), or JSON.stringify(null) when there is nothing to keep",
  response: 'the answer as JSON text that satisfies the response schema: JSON.stringify(true)',
});

/**
 * A JSON text of an InputRequest (`field`: the prompt, the continuation state, an answer) that was
 * not given (undefined): that it is missing and what to pass. Regression (second new-user trial,
 * finding 12c): a missing continuation state was told it `must be a string of JSON text`.
 */
export function missingJsonText(field: string): ToolError {
  const hint = Object.hasOwn(JSON_TEXT_HINTS, field) ? JSON_TEXT_HINTS[field] : 'JSON text';
  return new ToolError('ERR_INVALID_INPUT_REQUEST', `${field} is missing; pass ${hint}`);
}
