/**
 * The manifest format written by `scope-tool generate` (notes/CONTRACTS.md): one entry per tool,
 * sorted by name, with its wire definition, where it comes from and a fingerprint of its source.
 *
 * The run-time reader and its `Manifest` type belong to lib/container (the container must not import
 * this build-time folder). Until that file exists, the same shape is declared here.
 */

/** A JSON Schema object as written into the manifest. */
export type SchemaObject = { [key: string]: unknown };

/** Where a tool comes from: file relative to the project root (POSIX separators), class, method, DTO. */
export interface ManifestSource {
  readonly file: string;
  readonly class: string;
  readonly method: string;
  /** The DTO class name, or `null` when the method takes no input (`{}` input schema). */
  readonly input: string | null;
}

/** One tool of the manifest. `definition` is the wire form of a protocol Definition. */
export interface ManifestTool {
  readonly name: string;
  readonly definition: {
    readonly name: string;
    readonly description?: string;
    readonly input_schema: SchemaObject;
  };
  readonly source: ManifestSource;
  /** `"sha256:" + hex` of the method declaration text plus every DTO declaration it reaches. */
  readonly fingerprint: string;
  /** Decoder-only checks, one sentence each (`CreateNoteInput.title: @IsAlpha is checked by the decoder only`). */
  readonly warnings: readonly string[];
}

/** The manifest file: `{ "version": 1, "tools": [...] }`, tools sorted by name. */
export interface Manifest {
  readonly version: 1;
  readonly tools: readonly ManifestTool[];
}

/**
 * Serializes a manifest as the file holds it: UTF-8 JSON, 2-space indent, a final newline, tools
 * sorted by name (UTF-16 code unit order, so the file is byte-stable across runs and platforms).
 */
export function serializeManifest(manifest: Manifest): string {
  const tools = [...manifest.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `${JSON.stringify({ version: manifest.version, tools }, null, 2)}\n`;
}
