/**
 * The model-facing text of an admission refusal: which tool, where in the arguments (RFC 6901 JSON
 * Pointer), what is wrong, what to send instead. Built from `ToolError.issues` (AdmissionIssue),
 * never from causes or stacks.
 */
import type { AdmissionIssue, ToolError } from '../protocol';
import { clipMiddle } from '../protocol/errors';
import { jsonPointer } from '../protocol/json';
import { describeUnknownTool, unknownToolOf } from './prepare';
import { quoteToolName } from './tool-call';

/** At most this many issues are listed; the rest are counted. */
const MAX_ISSUES = 5;
/**
 * Each listed issue as a whole (its JSON Pointer, rule and additions), and a message-only detail,
 * is at most this many UTF-16 code units, `...` included.
 */
const MAX_MESSAGE = 200;
/** A JSON Pointer longer than this many code units keeps its start and end around `...`. */
const MAX_POINTER = 100;
/** A JSON Pointer is cut to make room for its rule, but never below this many code units. */
const MIN_POINTER = 40;
/** The unknown-tool text lists up to 20 names of up to 64 characters: cut only beyond that. */
const MAX_UNKNOWN_TOOL = 2_000;
const INVOCATION_PREFIX = 'tool: invalid invocation: ';
/** Rules that read as a predicate of the value they are about (`must be ...`, `is required`). */
const PREDICATE = /^(must|is|are|has|should)\b/;

/**
 * Describes an admission refusal for the model, e.g.
 * `error: invalid arguments for tool "get_weather": /units: must be one of ["celsius","fahrenheit"];
 * fix the arguments and call again`.
 *
 * Built from the error's `issues`, never from its message (which carries Go-style location
 * prefixes such as `arguments: (root): `). Each issue renders as `<JSON Pointer>: <rule>`; an issue
 * at the root renders as `the arguments object <rule>` (`the arguments <rule>` when the value is not
 * an object) when the rule starts with a verb (`must ...`, `is ...`), else as the rule alone (its
 * own wording such as `at the top level` locates it). The location the message repeats (`(root): `,
 * `/a/0: `, ` at /a/0`) is dropped; the allowed values of `enum` / `const` and the name of an
 * unexpected member are added when the message lacks them. Invalid JSON (for example arguments cut
 * off mid-stream) asks for one complete JSON object. An unknown tool (see `prepareToolCall`) renders
 * as `error: unknown tool "x"; call one of: a, b, c`; calls sharing an id (issue `duplicate_call_id`) as
 * `error: duplicate call id "x": ...; make each call again that is still needed`. An error without issues (a bad continuation)
 * falls back to its own message without the `tool: invalid invocation: ` prefix. Whitespace runs
 * collapse to one space; at most 5 issues are shown, each of at most 200 UTF-16 code units in all,
 * its JSON Pointer included (a pointer of more than 100 code units keeps its start and end around
 * `...`, so a refusal 10,001 levels deep stays short); the rest are counted (`and N more`). This
 * is the one cap on what the model reads of an admission refusal, whoever made the issues
 * (admission, the schema, a DTO decoder). A cut never splits a surrogate pair.
 * @param toolName - the tool the model called
 * @param error - a ToolError with code ERR_INVALID_INVOCATION, as thrown by Contract.prepare or
 *   prepareToolCall
 */
export function describeInvalidArguments(toolName: string, error: ToolError): string {
  const unknown = unknownToolOf(error);
  if (unknown !== undefined) return `error: ${clip(describeUnknownTool(unknown), MAX_UNKNOWN_TOOL)}`;
  const issues = error.issues;
  // Calls sharing an id: not the arguments' fault; the problem names the id and the tools.
  if (issues.length === 1 && issues[0].code === 'duplicate_call_id') {
    return `error: ${clip(issues[0].message)}; make each call again that is still needed`;
  }
  const head = `error: invalid arguments for tool ${quoteToolName(toolName)}: `;
  if (issues.length === 0) {
    const detail = error.message.startsWith(INVOCATION_PREFIX)
      ? error.message.slice(INVOCATION_PREFIX.length)
      : error.message;
    return `${head}${clip(detail)}; fix the call and try again`;
  }
  const shown = issues.slice(0, MAX_ISSUES).map(describeIssue);
  if (issues.length > MAX_ISSUES) shown.push(`and ${issues.length - MAX_ISSUES} more`);
  const syntax = issues.some((i) => i.code === 'invalid_json' || i.code === 'too_large');
  const fix = syntax ? 'send the arguments again as one complete JSON object' : 'fix the arguments and call again';
  return `${head}${shown.join('; ')}; ${fix}`;
}

function describeIssue(issue: AdmissionIssue): string {
  return clip(describeIssueInFull(issue));
}

function describeIssueInFull(issue: AdmissionIssue): string {
  const pointer = jsonPointer(issue.path);
  let what = clip(withoutLocation(issue.message === '' ? issue.code.replace(/_/g, ' ') : issue.message, pointer));
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
  // The pointer gives way before the rule and its fix: it is cut to what the 200 leave (not under 40).
  if (pointer !== '')
    return `${clipMiddle(pointer, Math.max(MIN_POINTER, Math.min(MAX_POINTER, MAX_MESSAGE - 2 - what.length)))}: ${what}`;
  if (!PREDICATE.test(what)) return what;
  const notAnObject = issue.keyword === 'type' || issue.constraint === 'type';
  return `${notAnObject ? 'the arguments' : 'the arguments object'} ${what}`;
}

/**
 * Drops the location a message repeats: a leading `(root): ` or `<pointer>: ` (schema issues; long
 * pointers are clipped the way the protocol clips them), and ` at <pointer>` inside the text.
 */
function withoutLocation(message: string, pointer: string): string {
  // The protocol clips long pointers in its messages to their first and last 80 code units.
  const leads = pointer === '' ? ['(root)'] : [pointer, clipMiddle(pointer, 160)];
  let what = message;
  for (const lead of leads) {
    if (what.startsWith(`${lead}: `)) {
      what = what.slice(lead.length + 2);
      break;
    }
  }
  // ` at <pointer>` inside the text, the pointer whole or clipped as the protocol clips it
  // (lib/protocol/json.ts `at`). Regression (new-user trial, finding 12b): the too-deep message
  // said the 10,001-level pointer twice and its fix was cut off.
  if (pointer !== '') for (const lead of leads) what = what.split(` at ${lead}`).join('');
  return what;
}

/** Adds the allowed values unless the message lists them already (as text or as JSON). */
function withList(message: string, values: readonly unknown[]): string {
  const rendered = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (message.includes(rendered)) return message;
  const json = values.map((v) => JSON.stringify(v));
  if (json.every((v) => v !== undefined && message.includes(v))) return message;
  return `${message} (${clip(rendered)})`;
}

/**
 * Whitespace runs collapsed, then cut to at most `max` code units, `...` included. The fix after
 * the last `; ` is kept whole when it fits in half of `max`: the cut falls before it.
 */
function clip(text: string, max = MAX_MESSAGE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const fix = flat.lastIndexOf('; ');
  const kept = fix > 0 && flat.length - fix <= max / 2 ? flat.slice(fix) : '';
  const head = flat.slice(0, flat.length - kept.length);
  return `${head.slice(0, cutBefore(head, max - 3 - kept.length))}...${kept}`;
}

/** `end`, or one less when the code unit before it opens a surrogate pair (never split a pair). */
function cutBefore(s: string, end: number): number {
  const c = s.charCodeAt(end - 1);
  return end > 0 && c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}
