/**
 * The manifest format written by `scope-tool generate` (notes/CONTRACTS.md): one entry per tool,
 * sorted by name, with its wire definition, where it comes from and a fingerprint of its source.
 *
 * The run-time reader and the `Manifest` type belong to lib/container (the container must not import
 * this build-time folder); the generator uses that one type.
 */

/** A JSON Schema object as written into the manifest. */
export type SchemaObject = { [key: string]: unknown };

import type { Manifest } from '../container/manifest';

export type { Manifest, ManifestSource, ManifestTool } from '../container/manifest';

/**
 * Serializes a manifest as the file holds it: UTF-8 JSON, 2-space indent, a final newline, tools
 * sorted by name (UTF-16 code unit order, so the file is byte-stable across runs and platforms).
 */
export function serializeManifest(manifest: Manifest): string {
  const tools = [...manifest.tools].sort((a, b) => codeUnitOrder(a.name, b.name));
  return `${JSON.stringify({ version: manifest.version, tools }, null, 2)}\n`;
}

/** Compares two strings by UTF-16 code units (locale-free, as the manifest sorts tool names). @internal */
export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
