/**
 * Admission issues of DTO decoding: collection (bounded), rendering (one line per issue, JSON
 * Pointer paths) and the ToolError that carries them.
 */
import { ToolError } from '../protocol';
import type { AdmissionIssue } from '../protocol';
import { moreIssues } from './messages';

/** At most this many issues are kept and listed; the rest are only counted. @internal */
export const MAX_LISTED_ISSUES = 10;

/** A JSON Pointer path as segments (`["tags", 0]` is `/tags/0`). @internal */
export type IssuePath = readonly (string | number)[];

/**
 * Collects issues up to MAX_LISTED_ISSUES and counts the rest, so hostile input cannot make the
 * error unbounded (the walks that feed it are linear in the size of the admitted value). @internal
 */
export class IssueSink {
  readonly #issues: AdmissionIssue[] = [];
  #total = 0;

  /** Records one issue (kept only while fewer than MAX_LISTED_ISSUES are kept). */
  add(issue: AdmissionIssue): void {
    this.#total++;
    if (this.#issues.length < MAX_LISTED_ISSUES) this.#issues.push(issue);
  }

  /** Whether any issue was recorded. */
  get empty(): boolean {
    return this.#total === 0;
  }

  /** The kept issues, first found first. */
  get issues(): readonly AdmissionIssue[] {
    return this.#issues;
  }

  /** How many issues were recorded in all. */
  get total(): number {
    return this.#total;
  }
}

/** RFC 6901 JSON Pointer of a path; the root is written `(root)`. @internal */
export function renderPointer(path: IssuePath): string {
  if (path.length === 0) return '(root)';
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** One line: `/title: must be shorter than or equal to 120 characters (maxLength)`. @internal */
export function renderIssue(issue: AdmissionIssue): string {
  const rule = issue.constraint ?? issue.keyword ?? issue.code;
  return `${renderPointer(issue.path)}: ${issue.message} (${rule})`;
}

/**
 * The ToolError a decoder throws for invalid input: `ERR_INVALID_INVOCATION`, detail = one line
 * per kept issue, then `(N more issues not shown)` when some were only counted. @internal
 */
export function invalidInput(issues: readonly AdmissionIssue[], total = issues.length): ToolError {
  const lines = issues.map(renderIssue);
  if (total > issues.length) lines.push(moreIssues(total - issues.length));
  return new ToolError('ERR_INVALID_INVOCATION', lines.join('\n'), { issues });
}

/** The ToolError for the issues a sink collected. @internal */
export function sinkError(sink: IssueSink): ToolError {
  return invalidInput(sink.issues, sink.total);
}

/** The JSON kind of a value, for messages: null, array, object, string, number, boolean. @internal */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
