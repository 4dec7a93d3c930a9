/**
 * `createRegistry()`: toolsets plus the manifest become a protocol Registry of Guard-wrapped
 * bindings, registered as one atomic batch (docs/architecture.md section 5).
 */
import { Registry } from '../protocol';
import { checkTimeout } from '../protocol/deadline';
import type { AdmissionIssue, Tool } from '../protocol';
import { isPolicy, readPolicies, readToolset } from '../decorators';
import type { Policy } from '../decorators';
import { loadManifest } from './manifest';
import type { ManifestInput, ManifestTool } from './manifest';
import {
  missingText,
  needsResolver,
  notAPolicy,
  notAToolset,
  policiesNotArray,
  resolverReturnedOther,
  resolverReturnedPromise,
  resolverThrew,
  staleIssue,
  staleManifest,
} from './messages';
import type { StaleTool } from './messages';
import { checkEntry, inputClassOf, methodTool } from './method-tool';
import { guardAll, PolicyResolver } from './policies';
import type { Instantiate } from './policies';
import { scanToolset } from './scanner';

/** A class the resolver can build. */
export type Constructor = abstract new (...args: never[]) => object;

/**
 * Builds (or looks up) the instance of a class: a toolset class, or an Authorizer class given to
 * `@Authorize()`. Synchronous, because registration is; it must return an instance of `cls`.
 */
export type Resolve = (cls: Constructor) => object;

/** Options of createRegistry. */
export interface CreateRegistryOptions {
  /**
   * The manifest: a path to the file (a relative path resolves against the working directory), a
   * `file:` URL (`new URL('../tools.manifest.json', import.meta.url)`), or the parsed object (as
   * loadManifest returns it, `JSON.parse` of the file, or the imported JSON module).
   */
  readonly manifest: ManifestInput;
  /** Toolset instances, or `@Toolset()` classes to build with `resolve` (or `new`). */
  readonly toolsets: readonly (object | Constructor)[];
  /**
   * Builds classes (toolsets given as classes, Authorizer classes). Without it, a class is built
   * with `new` only when its constructor declares no parameters; otherwise it is an error.
   */
  readonly resolve?: Resolve;
  /** Register into this registry instead of a new one (still one atomic batch). */
  readonly registry?: Registry;
  /**
   * Policies asked before every tool's own (`@Authorize()` on the class, then on the method), in
   * this order: an Authorizer, an authorizer function, or an Authorizer class (resolved like the
   * classes given to `@Authorize()`). Default: none.
   */
  readonly policies?: readonly Policy[];
  /**
   * The deadline of each call of a tool whose `@Tool()` sets none, in milliseconds: a whole number
   * from 1 to MAX_TIMEOUT_MS (2,147,483,647), or Infinity for none. Default: DEFAULT_TIMEOUT_MS
   * (60,000 ms). At the deadline the call ends with a Failure of kind `failed`
   * (`error: tool "NAME" timed out after N ms`) and the method's `call.signal` aborts.
   */
  readonly timeoutMs?: number;
}

/**
 * Turns every `@Tool()` method of the toolsets into a registered tool. Per method: its manifest
 * entry (by tool name) gives the definition and must still match the source; the input DTO
 * decoder (`dtoInput`, with the manifest's schema) is the input validator; the call checks the
 * abort signal, decodes, and invokes the method with `(input, ToolCall)`; the tool is wrapped in
 * one Guard per policy, `options.policies` first, then class policies, then method policies, all
 * of which must permit. An
 * Authorizer class is resolved once per call of createRegistry. Everything is built and checked
 * before anything is registered: on any error nothing is registered.
 * @returns the registry (`options.registry` when given)
 * @throws ToolError ERR_INVALID_TOOL: an invalid manifest; `options.policies[i]` that is not a
 *   policy; `options.timeoutMs` that is not a whole number of ms from 1 to MAX_TIMEOUT_MS nor
 *   Infinity; a class without `@Toolset()`; a class
 *   that cannot be built; tools missing from the manifest (`tool "create_note"
 *   (NotesTools.createNote) is missing from the manifest; run scope-tool generate`) or stale entries
 *   (`... the manifest is stale: <what differs>; run scope-tool generate`), every one of them in one
 *   error: the first said in full, then `; and N more stale tools: "b" (B.b), ...`, then the
 *   manifest's tools no toolset given declares (`; the manifest also lists "x", which no toolset
 *   given declares`: named only then, since one manifest may serve several registries), with one issue
 *   (code `stale_manifest`, params `{ tool, place, member? }`) per finding; a refused DTO (see
 *   dtoInput); a binding error (`tools[i]: ...`)
 * @throws ToolError ERR_DUPLICATE_TOOL when two tools share a name or a name is already registered
 */
export function createRegistry(options: CreateRegistryOptions): Registry {
  const manifest = loadManifest(options.manifest);
  const entries = new Map<string, ManifestTool>(manifest.tools.map((t) => [t.name, t]));
  const instantiate = instantiator(options.resolve);
  const policies = new PolicyResolver(instantiate);
  const shared = sharedPolicies(options.policies);
  const timeoutMs =
    options.timeoutMs === undefined
      ? undefined
      : checkTimeout(options.timeoutMs, 'ERR_INVALID_TOOL', 'createRegistry: options.timeoutMs');
  const tools: Tool[] = [];
  const stale: Stale = { tools: [], issues: [], declared: new Set() };
  for (const toolset of options.toolsets) {
    const instance = typeof toolset === 'function' ? instantiate(toolset, `toolset ${toolset.name}`) : toolset;
    tools.push(...toolsOf(instance, entries, policies, shared, timeoutMs, stale));
  }
  // Regression (second new-user trial, finding 8): only the first stale tool was reported.
  // A manifest may list tools no toolset given declares: one project's manifest serves several
  // registries (samples/quick-start.ts and samples/serve-mcp.ts share samples/tools.manifest.json).
  // They are named only when start-up fails anyway (start-up review, item 4), where an old name
  // beside a missing new one points at a rename.
  if (stale.tools.length > 0) {
    const extra = manifest.tools.map((t) => t.name).filter((n) => !stale.declared.has(n));
    throw staleManifest(stale.tools, stale.issues, extra);
  }
  const registry = options.registry ?? new Registry();
  registry.register(...tools);
  return registry;
}

function sharedPolicies(policies: readonly Policy[] | undefined): readonly Policy[] {
  if (policies === undefined) return [];
  if (!Array.isArray(policies)) throw policiesNotArray();
  policies.forEach((p: unknown, i) => {
    if (!isPolicy(p)) {
      throw notAPolicy(i);
    }
  });
  return policies;
}

function toolsOf(
  instance: object,
  entries: Map<string, ManifestTool>,
  policies: PolicyResolver,
  shared: readonly Policy[],
  timeoutMs: number | undefined,
  stale: Stale,
): Tool[] {
  const cls = (instance as { constructor?: unknown }).constructor;
  if (typeof cls !== 'function' || readToolset(cls) === undefined) {
    const name = typeof cls === 'function' ? cls.name : typeof instance;
    throw notAToolset(name);
  }
  const classPolicies = readPolicies(cls, 'class');
  return scanToolset(cls).flatMap((scanned) => {
    const place = `${cls.name}.${scanned.methodName}`;
    const name = scanned.metadata.name;
    stale.declared.add(name);
    const entry = entries.get(name);
    if (entry === undefined) {
      const text = missingText(name, place);
      stale.tools.push({ tool: name, place, text });
      stale.issues.push(staleIssue(name, place, text));
      return [];
    }
    const dto = inputClassOf(scanned, place);
    const staleness = checkEntry(entry, cls, scanned, dto, place);
    if (staleness !== undefined) {
      stale.tools.push({ tool: name, place, text: staleness.text });
      stale.issues.push(...staleness.issues);
      return [];
    }
    const tool = methodTool(instance, scanned, entry, dto, timeoutMs);
    const all = [...shared, ...classPolicies, ...scanned.policies];
    return guardAll(
      tool,
      all.map((p) => policies.resolve(p, place)),
    );
  });
}

/** The tools the manifest no longer describes, gathered across toolsets, their issues, and the names declared. */
interface Stale {
  readonly tools: StaleTool[];
  readonly issues: AdmissionIssue[];
  /** Every tool name the toolsets declare, to name the manifest's others. */
  readonly declared: Set<string>;
}

function instantiator(resolve: Resolve | undefined): Instantiate {
  return (cls, what) => {
    let instance: unknown;
    if (resolve !== undefined) {
      try {
        instance = resolve(cls as Constructor);
      } catch (e) {
        throw resolverThrew(what, cls, e);
      }
    } else if (cls.length === 0) {
      instance = new (cls as new () => object)();
    } else {
      throw needsResolver(what, cls);
    }
    if (typeof (instance as { then?: unknown } | null)?.then === 'function') {
      throw resolverReturnedPromise(what);
    }
    if (!(instance instanceof cls)) {
      throw resolverReturnedOther(what, cls);
    }
    return instance;
  };
}
