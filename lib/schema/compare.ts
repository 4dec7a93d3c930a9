import { isDeepStrictEqual } from 'node:util';
import { codeUnitOrder, type Manifest, type ManifestTool } from './manifest';

/**
 * How a manifest file differs from what the sources generate now. Names are tool names, sorted.
 * - `missing`: generated from the sources, absent from the file.
 * - `extra`: in the file, no longer in the sources.
 * - `stale`: in both, but the fingerprint, definition, source or warnings differ.
 */
export interface ManifestDrift {
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  readonly stale: readonly string[];
}

/**
 * Compares the manifest generated from the sources with the one read from disk, tool by tool.
 * `current` may be any parsed JSON: a file that is not a manifest counts every tool as missing.
 */
export function compareManifests(generated: Manifest, current: unknown): ManifestDrift {
  const theirs = new Map<string, unknown>();
  const tools = current !== null && typeof current === 'object' ? (current as { tools?: unknown }).tools : undefined;
  if (Array.isArray(tools)) {
    for (const t of tools) {
      const name = t !== null && typeof t === 'object' ? (t as { name?: unknown }).name : undefined;
      if (typeof name === 'string') theirs.set(name, t);
    }
  }
  const ours = new Map<string, ManifestTool>(generated.tools.map((t) => [t.name, t]));
  const missing: string[] = [];
  const stale: string[] = [];
  for (const [name, tool] of ours) {
    if (!theirs.has(name)) missing.push(name);
    else if (!isDeepStrictEqual(JSON.parse(JSON.stringify(tool)), theirs.get(name))) stale.push(name);
  }
  const extra = [...theirs.keys()].filter((name) => !ours.has(name));
  const sort = (xs: string[]): string[] => xs.sort(codeUnitOrder);
  return { missing: sort(missing), extra: sort(extra), stale: sort(stale) };
}

/**
 * One place where a stale manifest entry differs from what the sources generate: the JSON Pointer
 * (RFC 6901) inside the tool's entry (`/definition/input_schema/properties/title/maxLength`) and the
 * value on each side (undefined: absent there). Arrays (`required`, `enum`) differ as a whole; the
 * pointer `""` is the whole entry (the file's is not an object).
 */
export interface ToolDifference {
  readonly pointer: string;
  readonly inSources: unknown;
  readonly inFile: unknown;
}

/**
 * Where the file's entry of a tool (`current`, any parsed JSON) differs from the generated one, in
 * the generated entry's member order, then the file's own members. The `fingerprint` (`sha256:` of
 * the source text) is listed only when nothing else differs: a changed decorator also changes it.
 */
export function toolDifferences(generated: ManifestTool, current: unknown): ToolDifference[] {
  const out: ToolDifference[] = [];
  diff(JSON.parse(JSON.stringify(generated)) as unknown, current, '', out);
  const rest = out.filter((d) => d.pointer !== '/fingerprint');
  return rest.length > 0 ? rest : out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function diff(ours: unknown, theirs: unknown, pointer: string, out: ToolDifference[]): void {
  if (isDeepStrictEqual(ours, theirs)) return;
  if (!isObject(ours) || !isObject(theirs)) {
    out.push({ pointer, inSources: ours, inFile: theirs });
    return;
  }
  const keys = [...Object.keys(ours), ...Object.keys(theirs).filter((k) => !Object.hasOwn(ours, k))];
  for (const k of keys) {
    const at = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    diff(Object.hasOwn(ours, k) ? ours[k] : undefined, Object.hasOwn(theirs, k) ? theirs[k] : undefined, at, out);
  }
}
