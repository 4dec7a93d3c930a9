/**
 * The manifest `scope-tool generate` writes and the container reads (notes/CONTRACTS.md): per
 * tool, its wire definition and where it comes from. This file owns the `Manifest` type (the
 * generator imports it) and its run-time reader.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_DEPTH } from '../protocol';
import type { JsonObject } from '../protocol';
import { deepFreeze } from '../protocol/output';
import { clip, clipJson, manifestErrors, manifestWhere } from './messages';

/** Where a tool comes from: file (POSIX, relative to the project root), class, method, input DTO. */
export interface ManifestSource {
  readonly file: string;
  readonly class: string;
  readonly method: string;
  /** The input DTO class name, or `null` when the method takes no input (`{}`). */
  readonly input: string | null;
  /**
   * The output DTO class name (`@Tool({ output })` or the declared return type), when the tool
   * declares an output contract; absent otherwise.
   */
  readonly output?: string;
}

/** One tool: `definition` is the wire form of a protocol Definition (`input_schema`). */
export interface ManifestTool {
  readonly name: string;
  readonly definition: {
    readonly name: string;
    readonly description?: string;
    readonly input_schema: JsonObject;
    /** The output schema derived from the output DTO (the Definition's `outputSchema`), if any. */
    readonly output_schema?: JsonObject;
  };
  readonly source: ManifestSource;
  /** `sha256:<hex>` of the source text; only `scope-tool check` uses it. */
  readonly fingerprint: string;
  /** Decoder-only checks the generator reported, one sentence each. */
  readonly warnings: readonly string[];
  /**
   * The input DTO's bounds that a decorator states and the schema states tighter, because a JSDoc tag
   * (`@minimum 5` beside `@Min(3)`), a tuple's length or another decorator bounds the member too:
   * `Class.property.keyword` (`Class.property[].keyword` for an `each: true` bound on the items). The
   * drift check leaves them alone (lib/dto/drift.ts). Absent when there are none.
   */
  readonly mergedBounds?: readonly string[];
}

/** The manifest file: `{ "version": 1, "tools": [...] }` (UTF-8 JSON, tools sorted by name). */
export interface Manifest {
  readonly version: 1;
  readonly tools: readonly ManifestTool[];
}

/**
 * What loadManifest and createRegistry take as the manifest: a path to the `*.manifest.json` file
 * (a relative path resolves against the working directory, not the calling module), a `file:` URL
 * (`new URL('./tools.manifest.json', import.meta.url)` in an ES module) or its href string, or the
 * parsed manifest (a `Manifest`, `JSON.parse` of the file, or the imported JSON module).
 */
export type ManifestInput = string | URL | Manifest | Readonly<Record<string, unknown>>;

/**
 * Reads and checks a manifest: a path to a `*.manifest.json` file or a `file:` URL (read
 * synchronously, UTF-8; a relative path resolves against the working directory), or an already
 * parsed object. Unknown members are tolerated (a newer generator may add some); what the
 * container relies on is checked. Returns a deep-frozen copy.
 * @throws ToolError ERR_INVALID_TOOL naming the file (or `manifest`; a path is clipped to 80
 *   characters), the JSON Pointer of the bad member and the fix: a value that is neither a string,
 *   a URL nor a plain object (naming what it is), a URL, or a string starting with a URL scheme,
 *   whose scheme is not `file:` (never fetched), a string that is the manifest's JSON text rather
 *   than a path (it starts with `{`), unreadable file, invalid
 *   JSON, wrong version, missing or mistyped member, `definition.name` differing from `name`, a
 *   tool name listed twice, or a schema whose arrays and objects nest deeper than MAX_DEPTH (10,000)
 */
export function loadManifest(manifest: ManifestInput): Manifest {
  const file = manifestFile(manifest);
  const where = manifestWhere(file?.shown);
  let value: unknown = manifest;
  if (file !== undefined) {
    // Regression (new-user trial, finding 1): the file's contents passed as the path were echoed
    // three times in an ENAMETOOLONG message.
    if (typeof file.read === 'string' && /^\s*\{/.test(file.read)) throw manifestErrors.jsonText();
    let text: string;
    try {
      text = readFileSync(file.read, 'utf8');
    } catch (e) {
      throw manifestErrors.unreadable(where, typeof file.read === 'string' ? resolve(file.read) : file.shown, e);
    }
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw manifestErrors.notJson(where, e);
    }
  }
  const fail = (pointer: string, what: string): never => {
    throw manifestErrors.member(where, pointer, what);
  };
  const root = objectAt(value, '', fail);
  if (root.version !== 1)
    fail('/version', `must be 1, found ${root.version === undefined ? 'nothing' : clipJson(root.version)}`);
  if (!Array.isArray(root.tools)) fail('/tools', 'must be an array');
  const seen = new Set<string>();
  const tools = (root.tools as unknown[]).map((t, i) => {
    const tool = checkTool(t, `/tools/${i}`, fail);
    if (seen.has(tool.name)) fail(`/tools/${i}/name`, `tool "${clip(tool.name)}" is listed twice`);
    seen.add(tool.name);
    return tool;
  });
  return deepFreeze({ version: 1, tools });
}

/**
 * The file of a manifest given as a path or a `file:` URL, as a URL object or a string
 * (`read`: what readFileSync opens, which
 * turns a file: URL into its path itself; `shown`: the path, or the URL's href, for messages), or
 * undefined for a parsed object. Regression (second new-user trial, finding 4): a URL was read as a
 * parsed manifest (`/version: must be 1, found nothing`). A URL from another realm (a test VM) is
 * told by its tag, not instanceof, and rebuilt in this one. node:url is not imported: lib/container
 * uses node:fs and node:path only (docs/architecture.md section 1).
 */
function manifestFile(manifest: unknown): { readonly read: string | URL; readonly shown: string } | undefined {
  const tag = Object.prototype.toString.call(manifest);
  // Regression (start-up review, item 3): 'file:///x/tools.manifest.json' given as a string was read
  // as a relative path (`cannot be read at /cwd/file:/x/...`). A scheme has two characters or more,
  // so a Windows drive (`C:\x`) stays a path.
  const urlString = typeof manifest === 'string' && URL_SCHEME.test(manifest);
  if (typeof manifest === 'string' && !urlString) return { read: manifest, shown: manifest };
  if (urlString || tag === '[object URL]') {
    const href = urlString ? (manifest as string) : String((manifest as URL).href);
    if (!/^file:/i.test(href)) throw manifestErrors.notFileUrl(href);
    let url: URL;
    try {
      url = new URL(href);
    } catch (e) {
      throw manifestErrors.unreadable(manifestWhere(href), href, e);
    }
    return { read: url, shown: href };
  }
  if (tag !== '[object Object]' || manifest === null || typeof manifest !== 'object') {
    throw manifestErrors.notAManifest(describeValue(manifest));
  }
  return undefined;
}

/** A string that starts with a URL scheme (RFC 3986 section 3.1) of two characters or more: `file:`, `https:`. */
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/** What a value is, for a message: `undefined`, `null`, `a number`, `an array`, `a Map`, ... */
function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' || typeof value === 'function') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    const what = typeof value === 'function' ? 'function' : typeof name === 'string' && name !== '' ? name : 'object';
    return `${/^[aeiouAEIOU]/.test(what) ? 'an' : 'a'} ${what}`;
  }
  return `a ${typeof value}`;
}

type Fail = (pointer: string, what: string) => never;

function objectAt(value: unknown, pointer: string, fail: Fail): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return fail(pointer || '(root)', 'must be an object');
  return value as Record<string, unknown>;
}

function stringAt(o: Record<string, unknown>, key: string, pointer: string, fail: Fail): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') fail(`${pointer}/${key}`, 'must be a non-empty string');
  return v as string;
}

function checkTool(t: unknown, at: string, fail: Fail): ManifestTool {
  const o = objectAt(t, at, fail);
  const name = stringAt(o, 'name', at, fail);
  const d = objectAt(o.definition, `${at}/definition`, fail);
  const definitionName = stringAt(d, 'name', `${at}/definition`, fail);
  if (definitionName !== name)
    fail(`${at}/definition/name`, `is "${clip(definitionName)}" but the tool is "${clip(name)}"`);
  if (d.description !== undefined && typeof d.description !== 'string')
    fail(`${at}/definition/description`, 'must be a string');
  const inputSchema = objectAt(d.input_schema, `${at}/definition/input_schema`, fail);
  const outputSchema =
    d.output_schema === undefined ? undefined : objectAt(d.output_schema, `${at}/definition/output_schema`, fail);
  const s = objectAt(o.source, `${at}/source`, fail);
  const source: ManifestSource = {
    file: stringAt(s, 'file', `${at}/source`, fail),
    class: stringAt(s, 'class', `${at}/source`, fail),
    method: stringAt(s, 'method', `${at}/source`, fail),
    input: s.input === null ? null : stringAt(s, 'input', `${at}/source`, fail),
    ...(s.output === undefined ? {} : { output: stringAt(s, 'output', `${at}/source`, fail) }),
  };
  const fingerprint = stringAt(o, 'fingerprint', at, fail);
  const warnings = o.warnings === undefined ? [] : o.warnings;
  if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string'))
    fail(`${at}/warnings`, 'must be an array of strings');
  const merged = o.mergedBounds;
  if (merged !== undefined && (!Array.isArray(merged) || merged.some((m) => typeof m !== 'string')))
    fail(`${at}/mergedBounds`, 'must be an array of strings');
  const copy = (schema: Record<string, unknown>, pointer: string): JsonObject => {
    const copied = copyJson(schema);
    if (copied === undefined) fail(pointer, manifestErrors.tooDeepText(name, MAX_DEPTH));
    return copied as JsonObject;
  };
  const definition = {
    name,
    ...(d.description === undefined ? {} : { description: d.description as string }),
    input_schema: copy(inputSchema, `${at}/definition/input_schema`),
    ...(outputSchema === undefined ? {} : { output_schema: copy(outputSchema, `${at}/definition/output_schema`) }),
  };
  return {
    name,
    definition,
    source,
    fingerprint,
    warnings: [...(warnings as string[])],
    ...(merged === undefined ? {} : { mergedBounds: [...(merged as string[])] }),
  };
}

/**
 * A plain deep copy of JSON data (not structuredClone: its objects may come from another realm), or
 * undefined when arrays and objects nest deeper than MAX_DEPTH (lib/protocol/json.ts, admission's
 * bound). Iterative. Regression (start-up review, item 1): a schema wrapped in `allOf` 3,000 deep
 * overflowed the recursive copy (`RangeError: Maximum call stack size exceeded`, no code).
 */
function copyJson(value: unknown): unknown {
  const copyOf = (v: unknown): unknown => (Array.isArray(v) ? [] : v !== null && typeof v === 'object' ? {} : v);
  const root = copyOf(value);
  const work: [unknown, Record<string, unknown>, number][] = [];
  if (root !== value) work.push([value, root as Record<string, unknown>, 1]);
  while (work.length > 0) {
    const [from, to, depth] = work.pop() as [unknown, Record<string, unknown>, number];
    if (depth > MAX_DEPTH) return undefined;
    for (const [k, v] of Object.entries(from as object)) {
      const c = copyOf(v);
      Object.defineProperty(to, k, { value: c, enumerable: true, writable: true, configurable: true });
      if (c !== v) work.push([v, c as Record<string, unknown>, depth + 1]);
    }
  }
  return root;
}
