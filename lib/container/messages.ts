/**
 * The container's error texts, worded in one place. Each builder names the tool, `Class.method` or
 * the manifest member, then the fix. Every one is a ToolError ERR_INVALID_TOOL
 * (`tool: invalid tool: ...`), except `toolRefusedAtBind`, which keeps the code of the refusal it
 * wraps. spec/container/messages.spec.ts pins each sentence once.
 * @internal
 */
import { ToolError } from '../protocol';
import type { AdmissionIssue } from '../protocol';
import { clipMiddle } from '../protocol/errors';

/**
 * The most UTF-16 code units of a caller's string (a manifest path) a message repeats: a longer one
 * is cut in the middle (lib/protocol/errors.ts clipMiddle), so a mistaken argument such as a whole
 * manifest's text is never echoed in full.
 */
export const MAX_ECHO = 80;

/**
 * A value a message quotes (a tool or member name, a class name, a decorator's argument), cut in the
 * middle to MAX_ECHO code units. Regression (start-up review, item 2): a 100,000-character member
 * name, pattern or tool name, or a 50,000-value enum, was echoed in full (100-440 KB messages).
 */
export function clip(value: string): string {
  return clipMiddle(value, MAX_ECHO);
}

/** `value` as JSON (`"^[a-z]+$"`, `["a","b"]`, `50`), clipped as clip does. */
export function clipJson(value: unknown): string {
  return clip(String(JSON.stringify(value)));
}

/** `names`, each clipped, joined with `, `: at most LISTED_STALE, then `(and N more)`. */
function clipList(names: readonly string[]): string {
  const listed = names.slice(0, LISTED_STALE).map(clip).join(', ');
  return names.length > LISTED_STALE ? `${listed} (and ${names.length - LISTED_STALE} more)` : listed;
}

/** `manifest <path>` (the path clipped to MAX_ECHO), or `manifest` when given an object. */
export function manifestWhere(path: string | undefined): string {
  return path === undefined ? 'manifest' : `manifest ${clipMiddle(path, MAX_ECHO)}`;
}

/** The command that rewrites the manifest. */
export const GENERATE = 'run scope-tool generate';

/** `tool "create_note" (NotesTools.createNote) is missing from the manifest`, without the fix. */
export function missingText(tool: string, place: string): string {
  return `tool "${clip(tool)}" (${clip(place)}) is missing from the manifest`;
}

/** `tool "create_note" (NotesTools.createNote): the manifest is stale: <what>`, without the fix. */
export function staleText(tool: string, place: string, what: string): string {
  return `tool "${clip(tool)}" (${clip(place)}): the manifest is stale: ${what}`;
}

/** `tool "create_note" (NotesTools.createNote) is missing from the manifest; run scope-tool generate` */
export function missingFromManifest(tool: string, place: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `${missingText(tool, place)}; ${GENERATE}`);
}

/** A manifest entry whose source no longer matches: `what` says what differs. */
export function staleEntry(tool: string, place: string, what: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `${staleText(tool, place, what)}; ${GENERATE}`);
}

/** How many other stale tools staleManifest names before `(and N more)`. */
export const LISTED_STALE = 5;

/** One tool the manifest no longer describes: its name, `Class.method`, and missingText or staleText. */
export interface StaleTool {
  readonly tool: string;
  readonly place: string;
  readonly text: string;
}

/**
 * Every tool the manifest no longer describes, in one error: the first one's text, then the others
 * named (`; and 2 more stale tools: "b" (B.b), "c" (C.c)`, at most LISTED_STALE, then `(and N
 * more)`), then the manifest's tools no toolset declares (`extra`: `; the manifest also lists "old_name",
 * which no toolset given declares`, named the same way; a renamed tool shows up there), then the fix;
 * `issues` has one per finding (staleIssue), none for `extra`. One tool and no extra: exactly its
 * missingFromManifest or staleEntry sentence.
 */
export function staleManifest(
  stale: readonly StaleTool[],
  issues: readonly AdmissionIssue[],
  extra: readonly string[] = [],
): ToolError {
  const [first, ...rest] = stale;
  const listed = rest.slice(0, LISTED_STALE).map((s) => `"${clip(s.tool)}" (${clip(s.place)})`);
  const unlisted = rest.length - listed.length;
  const others =
    rest.length === 0
      ? ''
      : `; and ${rest.length} more stale tool${rest.length === 1 ? '' : 's'}: ${listed.join(', ')}${unlisted > 0 ? ` (and ${unlisted} more)` : ''}`;
  const unclaimed =
    extra.length === 0
      ? ''
      : `; the manifest also lists ${clipList(extra.map((t) => `"${t}"`))}, which no toolset given declares`;
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${first?.text ?? 'the manifest is stale'}${others}${unclaimed}; ${GENERATE}`,
    {
      issues,
    },
  );
}

/**
 * One finding of a stale manifest as an issue (code `stale_manifest`, lib/protocol/errors.ts):
 * `message` is `text` (missingText, staleText, or staleText of one member), `params` the tool, its
 * `Class.method` and the member path where one member differs.
 */
export function staleIssue(tool: string, place: string, text: string, member?: string): AdmissionIssue {
  return Object.freeze({
    code: 'stale_manifest',
    path: Object.freeze([]),
    message: text,
    params: Object.freeze({ tool, place, ...(member === undefined ? {} : { member }) }),
  });
}

/** The `what` of staleEntry when the manifest names another class. */
export function staleClass(inManifest: string, inSource: string): string {
  return `it names class ${clip(inManifest)} but the tool is declared by ${clip(inSource)}`;
}

/** The `what` of staleEntry when the manifest names another method. */
export function staleMethod(inManifest: string, inSource: string): string {
  return `it names method ${clip(inManifest)} but the tool is method ${clip(inSource)}`;
}

/** The `what` of staleEntry when the input DTO class differs (`null`: the method takes no input). */
export function staleInput(inSource: string | null, inManifest: string | null): string {
  return `the input DTO is ${clip(inSource ?? 'none')} in the source but ${clip(inManifest ?? 'none')} in the manifest`;
}

/** The `what` of staleEntry when `@Tool({ output })` names another class than the manifest's `source.output`. */
export function staleOutput(inSource: string, inManifest: string | undefined): string {
  return `the output DTO is ${clip(inSource)} in the source but ${clip(inManifest ?? 'none')} in the manifest`;
}

/**
 * The `what` of staleEntry when the DTO's wire member names and `input_schema.properties` (or a
 * nested DTO's and its object schema's) differ: `missing` are in the source only, `extra` in the
 * manifest only, as member paths (`tag`, `owner.team`; `input`: the input DTO class name). A member
 * only the manifest lists was removed from the class, or has no class-validator decorator, which
 * makes it invisible at run time: both fixes are said. Names are clipped (clip), at most LISTED_STALE
 * of each list, then `(and N more)`.
 */
export function staleMembers(input: string | null, missing: readonly string[], extra: readonly string[]): string {
  // Regression (second new-user trial, finding 10): only the @Allow() fix was said, wrong for a
  // member deleted from the class.
  return [
    missing.length > 0 ? `${clip(String(input))} has ${clipList(missing)} which the manifest lacks` : '',
    extra.length > 0
      ? `the manifest lists ${clipList(extra)} which ${clip(input ?? 'the method')} does not have: either it was removed from the class (regenerate) or it has no class-validator decorator, which hides it at run time (decorate it, e.g. @Allow())`
      : '',
  ]
    .filter((s) => s !== '')
    .join('; ');
}

/**
 * The `what` of staleEntry when a decorator's argument and the manifest's keyword differ:
 * `member limit: @Max says maximum 100 in the source but the manifest has maximum 50`; values other
 * than numbers as JSON (`pattern "^[a-z]+$"`, `enum ["a","b"]`, `type "string"`); `inManifest`
 * undefined: the manifest states none (`no maximum`). Values and `member` are clipped (clipJson,
 * clip). `member` is a path: `address.zip`, `tags[]` (the items). `decorator` null: the property initializer against the manifest's `default`
 * (`member limit: the initializer says default 20 in the source but the manifest has default 10`;
 * `inSource` undefined: `the source has no initializer but ...`).
 */
export function staleConstraint(drift: {
  readonly member: string;
  readonly decorator: string | null;
  readonly keyword: string;
  readonly inSource: unknown;
  readonly inManifest: unknown;
}): string {
  const manifest =
    drift.inManifest === undefined ? `no ${drift.keyword}` : `${drift.keyword} ${clipJson(drift.inManifest)}`;
  const source =
    drift.decorator !== null
      ? `@${drift.decorator} says ${drift.keyword} ${clipJson(drift.inSource)} in the source`
      : drift.inSource === undefined
        ? 'the source has no initializer'
        : `the initializer says ${drift.keyword} ${clipJson(drift.inSource)} in the source`;
  return `member ${clip(drift.member)}: ${source} but the manifest has ${manifest}`;
}

/** A toolset or policy the container cannot use; `detail` is the whole sentence. */
export function invalidToolset(detail: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', detail);
}

/** `options.policies` of createRegistry is not an array. */
export function policiesNotArray(): ToolError {
  return invalidToolset('createRegistry: options.policies must be an array of policies');
}

/** `options.policies[index]` of createRegistry is not a policy. */
export function notAPolicy(index: number): ToolError {
  return invalidToolset(
    `createRegistry: options.policies[${index}] is not an Authorizer, function or class; pass an object with authorize(), a function returning a boolean, or a class with authorize()`,
  );
}

/** An instance given as a toolset whose class has no `@Toolset()`. */
export function notAToolset(name: string): ToolError {
  return invalidToolset(`${name} is not a toolset; decorate its class with @Toolset()`);
}

/** The resolver threw while building `cls` (`what`: `toolset X` or `policy P of X.m`). */
export function resolverThrew(what: string, cls: Function, cause: unknown): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `${what}: the resolver threw; make it return an instance of ${cls.name}`, {
    cause,
  });
}

/** No resolver, and `cls` cannot be built with `new cls()`. */
export function needsResolver(what: string, cls: Function): ToolError {
  return invalidToolset(
    `${what}: the constructor takes ${cls.length} argument(s); pass an instance, or a resolve function that builds ${cls.name}`,
  );
}

/** The resolver returned a Promise for `what`. */
export function resolverReturnedPromise(what: string): ToolError {
  return invalidToolset(
    `${what}: the resolver returned a Promise; registration is synchronous, so resolve instances before createRegistry`,
  );
}

/** The resolver returned something that is not an instance of `cls`. */
export function resolverReturnedOther(what: string, cls: Function): ToolError {
  return invalidToolset(`${what}: the resolver did not return an instance of ${cls.name}`);
}

/** A resolved policy instance without `authorize()` (`where`: `Class.method`). */
export function policyWithoutAuthorize(policy: Function, where: string): ToolError {
  return invalidToolset(
    `policy ${policy.name} of ${where}: the resolved instance has no authorize() method; fix the resolver`,
  );
}

/**
 * A tool method whose input class is known neither from `@Tool({ input })` nor from
 * `design:paramtypes` (tsx and esbuild never emit it, whatever tsconfig.json says; tsc, Vitest and
 * SWC emit it only with decorator metadata on: docs/install.md).
 */
export function noInputClass(tool: string, place: string): ToolError {
  // Regression (second new-user trial, finding 5): under tsx the fix said was the tsconfig
  // settings the user already had, which tsx ignores.
  return invalidToolset(
    `tool "${tool}" (${place}): the input class is unknown: the compiler emitted no design:paramtypes; name it in the decorator, @Tool({ input: YourInputClass }) (input: null for a method without input): tsx and esbuild never emit the metadata, whatever tsconfig.json says; tsc and Vitest emit it with "emitDecoratorMetadata": true, SWC with decoratorMetadata: true`,
  );
}

/**
 * `@Tool({ input })` and `design:paramtypes` name different classes (`null`: no input, no parameter).
 */
export function inputMismatch(tool: string, place: string, given: string | null, emitted: string | null): ToolError {
  return invalidToolset(
    `tool "${tool}" (${place}): @Tool({ input }) names ${given ?? 'null (no input)'} but the first parameter's type is ${emitted ?? 'none (no parameter)'}; make them the same class`,
  );
}

/** A tool input that is not a class (`got`: the run-time type's name). */
export function inputNotAClass(place: string, got: string): ToolError {
  return invalidToolset(
    `${place}: the input must be a class-validator DTO class (found ${got}: an interface, type literal or primitive has no run-time shape); declare the input as a class`,
  );
}

/**
 * The DTO layer refused a tool's input at bind (`refusal`: its ToolError); the same code, the
 * refusal's detail prefixed with the tool and `Class.method`, since dtoInput names only the DTO.
 */
export function toolRefusedAtBind(tool: string, place: string, refusal: ToolError): ToolError {
  const detail = refusal.message.replace(/^tool: invalid tool: |^jsonschema: invalid schema: /, '');
  return new ToolError(refusal.code, `tool "${tool}" (${place}): ${detail}`, { cause: refusal });
}

/** A manifest that cannot be used (`where`: `manifest <path>` or `manifest`). */
export const manifestErrors = Object.freeze({
  /**
   * The file cannot be read: `path` as it was opened (absolute), the reason (the cause's `code`,
   * e.g. ENOENT), and that a relative path resolves against the working directory. The path is
   * clipped to MAX_ECHO.
   */
  unreadable(where: string, path: string, cause: unknown): ToolError {
    const reason = (cause as { code?: unknown } | null)?.code;
    return new ToolError(
      'ERR_INVALID_TOOL',
      `${where}: cannot be read at ${clipMiddle(path, MAX_ECHO)}${typeof reason === 'string' ? ` (${reason})` : ''}; ${GENERATE}, or pass the right path (a relative path resolves against the working directory)`,
      { cause },
    );
  },
  /**
   * A string given as the manifest that is its JSON text (it starts with `{`), not a path: the
   * text is not repeated.
   */
  jsonText(): ToolError {
    return new ToolError(
      'ERR_INVALID_TOOL',
      "manifest: the string given looks like the manifest's JSON text, not a path; pass JSON.parse(text) (or the imported object), or the path of the *.manifest.json file",
    );
  },
  /**
   * The manifest given is neither a path, a URL nor a plain object (`what`: `a number`, `undefined`,
   * `an array`, `a Map`): what it is, and the three things it may be.
   */
  notAManifest(what: string): ToolError {
    return new ToolError(
      'ERR_INVALID_TOOL',
      `manifest: got ${what}; pass the path of the *.manifest.json file, a file: URL (new URL('./tools.manifest.json', import.meta.url)), or the parsed manifest object`,
    );
  },
  /** A URL given as the manifest whose scheme is not `file:` (`href` clipped to MAX_ECHO). */
  notFileUrl(href: string): ToolError {
    return new ToolError(
      'ERR_INVALID_TOOL',
      `manifest: the URL ${clipMiddle(href, MAX_ECHO)} is not a file: URL; pass a file: URL or a path (the manifest is read from disk, never fetched)`,
    );
  },
  /** The file is not JSON. */
  notJson(where: string, cause: unknown): ToolError {
    return new ToolError('ERR_INVALID_TOOL', `${where}: is not valid JSON; ${GENERATE}`, { cause });
  },
  /**
   * The `what` of `member` for a tool's schema whose arrays and objects nest deeper than `max`
   * (MAX_DEPTH, lib/protocol/json.ts): the tool (clipped to MAX_ECHO) and the bound.
   */
  tooDeepText(tool: string, max: number): string {
    return `tool "${clipMiddle(tool, MAX_ECHO)}": the schema nests arrays and objects deeper than ${max} levels`;
  },
  /** The member at `pointer` (a JSON Pointer, `(root)` for the document) breaks `what`. */
  member(where: string, pointer: string, what: string): ToolError {
    return new ToolError('ERR_INVALID_TOOL', `${where}: ${pointer}: ${what}; ${GENERATE}`);
  },
});

/** A decorator written above `@Tool()` (autobind) turned the method `place` (`Class.method`) into an accessor. */
export function madeAccessor(place: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `@Tool() on ${clip(place)}: a decorator above it made the method an accessor (autobind?), which is no tool; write @Tool() above it, or bind in the constructor`,
  );
}
