/**
 * The model-facing text of an admission refusal: which tool, where in the arguments (RFC 6901 JSON
 * Pointer), what is wrong, what to send instead. Built from `ToolError.issues` (AdmissionIssue),
 * never from causes or stacks.
 */
import type { AdmissionIssue, ToolError } from '../protocol';
import { quoteToolName } from './tool-call';

/** At most this many issues are listed; the rest are counted. */
const MAX_ISSUES = 5;
/** Each issue message, and a message-only detail, is cut to this many UTF-16 code units. */
const MAX_MESSAGE = 200;
const INVOCATION_PREFIX = 'tool: invalid invocation: ';

/**
 * Describes an admission refusal for the model, e.g.
 * `error: invalid arguments for tool "get_weather": /units: must be equal to one of the allowed
 * values (celsius, fahrenheit); fix the arguments and call again`.
 *
 * Each issue renders as `<JSON Pointer>: <message>` (`arguments` for the root), with the allowed
 * values of `enum` / `const` and the name of an unexpected member added when the message lacks
 * them. Invalid JSON (for example arguments cut off mid-stream) asks for one complete JSON object.
 * An error without issues (a wrong tool name, a bad continuation) falls back to its own message
 * without the `tool: invalid invocation: ` prefix. Whitespace runs collapse to one space; at most
 * 5 issues of at most 200 code units each are shown.
 * @param toolName - the tool the model called
 * @param error - a ToolError with code ERR_INVALID_INVOCATION, as thrown by Contract.prepare
 */
export function describeInvalidArguments(toolName: string, error: ToolError): string {
  const head = `error: invalid arguments for tool ${quoteToolName(toolName)}: `;
  const issues = error.issues;
  if (issues.length === 0) {
    const detail = error.message.startsWith(INVOCATION_PREFIX) ? error.message.slice(INVOCATION_PREFIX.length) : error.message;
    return `${head}${clip(detail)}; fix the call and try again`;
  }
  const shown = issues.slice(0, MAX_ISSUES).map(describeIssue);
  if (issues.length > MAX_ISSUES) shown.push(`and ${issues.length - MAX_ISSUES} more`);
  const syntax = issues.some((i) => i.code === 'invalid_json' || i.code === 'too_large');
  const fix = syntax ? 'send the arguments again as one complete JSON object' : 'fix the arguments and call again';
  return `${head}${shown.join('; ')}; ${fix}`;
}

/**
 * Renders a path as an RFC 6901 JSON Pointer (`["tags", 0]` → `/tags/0`; `~` → `~0`, `/` → `~1`).
 * The empty path (the whole arguments value) renders as the empty string.
 */
export function jsonPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function describeIssue(issue: AdmissionIssue): string {
  const where = issue.path.length === 0 ? 'arguments' : jsonPointer(issue.path);
  let what = clip(issue.message === '' ? issue.code.replace(/_/g, ' ') : issue.message);
  // The pointer leads the line already: drop a repeat of it inside the message (`... at /a/0`).
  if (where !== 'arguments') what = what.split(` at ${where}`).join('');
  const params = issue.params ?? {};
  if (issue.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    what = withList(what, params.allowedValues);
  } else if (issue.keyword === 'const' && 'allowedValue' in params) {
    what = withList(what, [params.allowedValue]);
  } else if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const member = JSON.stringify(params.additionalProperty);
    if (!what.includes(member)) what = `${what} (${member}; remove it)`;
  }
  if (issue.code === 'invalid_json' && issue.offset !== undefined && !/offset|position/.test(what)) {
    what = `${what} (at offset ${issue.offset})`;
  }
  return `${where}: ${what}`;
}

function withList(message: string, values: readonly unknown[]): string {
  const rendered = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return message.includes(rendered) ? message : `${message} (${clip(rendered)})`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}...` : flat;
}
