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
