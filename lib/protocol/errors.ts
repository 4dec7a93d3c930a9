/**
 * The error taxonomy of scope-tool: one `ToolError` class carrying a stable `code`, plus the
 * chain walkers `hasErrorCode` and `findError`. Ports the seed's `Err*` sentinels and the
 * `errors.Is` / `errors.As` idioms.
 *
 * The code is the contract; the message is for people. Messages keep the Go texts
 * (`tool: invalid invocation: ...`) so logs and tests line up with the reference.
 */

/** Every error code scope-tool throws, with the Go sentinel text it ports. */
export const ERROR_MESSAGES = Object.freeze({
  ERR_INVALID_TOOL: 'tool: invalid tool',
  ERR_INVALID_INVOCATION: 'tool: invalid invocation',
  ERR_INVALID_DEFINITION: 'tool: invalid definition',
  ERR_INVALID_REQUEST: 'tool: invalid request',
  ERR_INVALID_OUTPUT: 'tool: invalid output',
  ERR_INVALID_RESULT: 'tool: invalid result',
  ERR_INVALID_INPUT_REQUEST: 'tool: invalid input request',
  ERR_INVALID_FAILURE: 'tool: invalid failure',
  ERR_INVALID_CALL_ERROR: 'tool: invalid call error',
  ERR_INVALID_WRAPPING_CHAIN: 'tool: invalid wrapping chain',
  ERR_DUPLICATE_TOOL: 'tool: duplicate tool',
  ERR_INVALID_REGISTRY: 'tool: invalid registry',
  ERR_INVALID_SCHEMA: 'jsonschema: invalid schema',
  ERR_OUTPUT_MISMATCH: 'tool: output does not match its output schema',
} as const);

/** A scope-tool error code (`ERR_*`). */
export type ToolErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * One structured reason an admission refused a value. Providers re-render it for the model and
 * tests assert on its fields rather than on prose.
 *
 * - `path`: where in the arguments, as JSON Pointer segments (`["tags", 0]` is `/tags/0`).
 * - `offset`: UTF-16 code unit offset into the JSON text, for syntax-level issues.
 * - `keyword` / `params`: the JSON Schema keyword and its Ajv parameters, for `schema` issues.
 * - `constraint`: the class-validator constraint name, for `dto` issues.
 *
 * Most codes are admission's and the decoders'; `unknown_tool` and `duplicate_call_id` are a call's
 * (lib/providers/prepare.ts): a name no tool has, an id several calls of one response share.
 * `stale_manifest` is createRegistry's (lib/container/create-registry.ts): one per way the manifest
 * no longer describes a tool, `path` empty, `params` `{ tool, place }` (`place`: `Class.method`) and
 * `member` where a member differs (`owner.team`).
 */
export interface AdmissionIssue {
  readonly code:
    | 'invalid_json'
    | 'duplicate_member'
    | 'too_deep'
    | 'too_large'
    | 'number_out_of_range'
    | 'lone_surrogate'
    | 'schema'
    | 'unknown_member'
    | 'unknown_tool'
    | 'duplicate_call_id'
    | 'stale_manifest'
    | 'forbidden_member'
    | 'dto';
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly offset?: number;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly constraint?: string;
}

/** Options of a ToolError: the wrapped cause (walked by hasErrorCode) and structured issues. */
export interface ToolErrorOptions {
  cause?: unknown;
  issues?: readonly AdmissionIssue[];
}

/**
 * The one error class of scope-tool's protocol layer. `message` is the Go sentinel text, then
 * `: detail` when a detail is given. `cause` is the standard, transparent cause, so
 * `hasErrorCode(err, inner.code)` sees through wrapping (Go `fmt.Errorf("%w: %w")`).
 * `issues` lists the structured admission issues, when there are any.
 */
export class ToolError extends Error {
  /** The stable error code: match on this, never on the message. */
  readonly code: ToolErrorCode;
  /** Structured admission issues, first violation first (empty when not an admission error). */
  readonly issues: readonly AdmissionIssue[];

  constructor(code: ToolErrorCode, detail?: string, options: ToolErrorOptions = {}) {
    const base = ERROR_MESSAGES[code];
    super(detail === undefined || detail === '' ? base : `${base}: ${detail}`);
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', {
        value: options.cause,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
    this.name = 'ToolError';
    this.code = code;
    this.issues = Object.freeze([...(options.issues ?? collectIssues(options.cause))]);
  }
}

function collectIssues(cause: unknown): readonly AdmissionIssue[] {
  return instanceOf(cause, ToolError) ? cause.issues : [];
}

/**
 * `value instanceof klass` that never throws: a Proxy whose getPrototypeOf trap throws (a hostile
 * thrown value) is not an instance. @internal
 */
export function instanceOf<T>(value: unknown, klass: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof klass;
  } catch {
    return false;
  }
}

/**
 * Wraps `inner` under `code`, Go style: the message is `<sentinel>: <inner message>` (with an
 * optional location segment before it) and `inner` stays reachable as the cause. The inner
 * message does not repeat what the outer one already says (see wrappedText):
 * `tool: invalid invocation: invalid request: ...`, never `tool: invalid invocation: tool: invalid request: ...`.
 * @internal
 */
export function wrapError(code: ToolErrorCode, inner: unknown, segment?: string): ToolError {
  const text = wrappedText(ERROR_MESSAGES[code], inner);
  const detail = segment === undefined ? text : text === '' ? segment : `${segment}: ${text}`;
  return new ToolError(code, detail, { cause: inner });
}

/**
 * The message of `inner` as it reads after `outer` (a prefix such as `tool: invalid invocation`)
 * and a colon: the one mechanism that keeps a wrapped message from repeating its prefix. An inner
 * message that starts with `outer` itself loses it (`tool: invalid tool: x` under
 * `tool: invalid tool` gives `x`; the bare sentinel gives ''); one that starts with the same
 * package prefix (`tool: `) loses that prefix (`tool: invalid request: x` under
 * `tool: invalid invocation` gives `invalid request: x`). Error codes and causes are untouched.
 * @internal
 */
export function wrappedText(outer: string, inner: unknown): string {
  const message = messageOf(inner);
  if (message === outer) return '';
  if (message.startsWith(`${outer}: `)) return message.slice(outer.length + 2);
  const cut = outer.indexOf(': ');
  const pkg = cut === -1 ? `${outer}: ` : outer.slice(0, cut + 2);
  return message.startsWith(pkg) ? message.slice(pkg.length) : message;
}

/**
 * The message of any thrown value, never throwing itself (getters that throw, Proxies, Symbols).
 * @internal
 */
export function messageOf(value: unknown): string {
  try {
    if (instanceOf(value, Error)) return String(value.message);
    if (typeof value === 'symbol') return value.toString();
    return String(value);
  } catch {
    return '<unprintable value>';
  }
}

/**
 * The one bound of every cause walk in scope-tool (hasErrorCode, findError, isError,
 * classifyFailure, the providers' cancellation check): at most this many nodes are visited, and
 * no more than this many are ever waiting. A thrown value whose `cause` chain never ends (a Proxy
 * answering every `cause` read with a new Proxy, an Error whose `cause` getter builds a fresh
 * Error) ends the walk here instead of growing the heap until the process dies. A real chain is a
 * handful of links. @internal
 */
export const MAX_CAUSE_NODES = 1_000;

/**
 * Walks `err`, then its standard `cause` links and `AggregateError.errors`, depth first (a node's
 * cause before its members), each node once, at most MAX_CAUSE_NODES nodes. Never throws: a getter
 * or Proxy trap that throws while a link is read ends that branch (the consumer must guard its own
 * reads of a node). Links are read lazily, after the consumer has looked at the node, so a consumer
 * that stops at a node (classifyFailure at an AggregateError) never reads that node's links. The
 * only cause walker of lib/: every other walk goes through it. @internal
 */
export function* walkCauses(err: unknown): Generator<unknown, void, undefined> {
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length > 0 && seen.size < MAX_CAUSE_NODES) {
    const node = stack.pop();
    if (node === null || node === undefined || seen.has(node)) continue;
    seen.add(node);
    yield node;
    if (typeof node !== 'object' && typeof node !== 'function') continue;
    const room = MAX_CAUSE_NODES - seen.size - stack.length;
    if (room <= 0) continue;
    let members: unknown[] = [];
    let cause: unknown;
    try {
      cause = (node as { cause?: unknown }).cause;
    } catch {
      cause = undefined;
    }
    try {
      const errors = node instanceof AggregateError ? node.errors : undefined;
      // A Proxy may claim any length: read no more members than there is room for (no slice, so
      // no species constructor runs).
      if (Array.isArray(errors)) {
        const count = Math.min(Number(errors.length) || 0, room - 1);
        for (let i = 0; i < count; i++) members.push(errors[i]);
      }
    } catch {
      members = [];
    }
    for (let i = members.length - 1; i >= 0; i--) stack.push(members[i]);
    // Visit the cause before the members of the same node: push it last.
    if (cause !== undefined && cause !== null) stack.push(cause);
  }
}

/**
 * Reports whether `err`, or anything reachable through standard `cause` links and
 * `AggregateError.errors`, carries `code`. Cycle-safe. Ports `errors.Is(err, ErrX)`.
 * Matches on the `code` property, not on `instanceof`, so errors from a second copy of the
 * package still classify. A Failure's `diagnosticCause` and an AuthorizationError's cause are
 * not standard causes and are never reached.
 */
export function hasErrorCode(err: unknown, code: ToolErrorCode): boolean {
  for (const node of walkCauses(err)) {
    try {
      if (typeof node === 'object' && (node as { code?: unknown }).code === code) return true;
    } catch {
      // a throwing getter is simply not a match
    }
  }
  return false;
}

/**
 * Finds the first error reachable from `err` (itself, then `cause` links and
 * `AggregateError.errors`, depth first) that is an instance of `klass`. Cycle-safe.
 * Ports `errors.As(err, &target)`.
 */
export function findError<T>(err: unknown, klass: abstract new (...args: never[]) => T): T | undefined {
  for (const node of walkCauses(err)) {
    if (instanceOf(node, klass)) return node;
  }
  return undefined;
}

/**
 * Reports whether `err` is `target` or reaches it through cause links and aggregate members.
 * Ports `errors.Is(err, target)` for identity (an abort reason, a validator's error).
 */
export function isError(err: unknown, target: unknown): boolean {
  for (const node of walkCauses(err)) {
    if (node === target) return true;
  }
  return false;
}

/**
 * `s` cut to its first and last `max / 2` code units around `...` when longer than `max`, never
 * splitting a surrogate pair: how every message clips a pointer, a pattern or a value. @internal
 */
export function clipMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = Math.floor(max / 2);
  let end = head;
  const last = s.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  let start = s.length - head;
  const first = s.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  return `${s.slice(0, end)}...${s.slice(start)}`;
}

/**
 * goQuote of `s` cut to its first 64 code units and `...` (a member name in a message). @internal
 */
export function goQuoteClipped(s: string): string {
  if (s.length <= 64) return goQuote(s);
  const c = s.charCodeAt(63);
  return goQuote(`${s.slice(0, c >= 0xd800 && c <= 0xdbff ? 63 : 64)}...`);
}

/**
 * Quotes `s` as Go's `%q` (strconv.Quote) does: double quotes, `\"` and `\\` escaped, control
 * and non-printable characters escaped (`\n`, `\x00`, `\u2028`), printable non-ASCII kept, and
 * lone surrogates written as `\ufffd`-free `\uXXXX` escapes.
 * @internal
 */
export function goQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        out += isPrintable(cp) ? s.slice(i, i + 2) : `\\U${cp.toString(16).padStart(8, '0')}`;
        i++;
        continue;
      }
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${c.toString(16)}`;
    else if (!isPrintable(c)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += s[i];
  }
  return out + '"';
}

function isPrintable(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return false;
  // Separators and format characters Go does not treat as printable.
  if (cp === 0xad || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) return false;
  if (cp >= 0x200b && cp <= 0x200f) return false;
  if (cp >= 0x202a && cp <= 0x202e) return false;
  if (cp >= 0x2060 && cp <= 0x206f) return false;
  if (cp === 0xfffe || cp === 0xffff) return false;
  if (cp >= 0xe000 && cp <= 0xf8ff) return false;
  return true;
}
