/** Hand-built manifests for container specs (the generator is tested in spec/schema). */
import type { JsonObject } from '../../lib/protocol';
import type { Manifest, ManifestTool } from '../../lib/container';

export function entry(
  name: string,
  cls: string,
  method: string,
  input: string | null,
  inputSchema: JsonObject = { type: 'object', properties: {}, additionalProperties: false },
): ManifestTool {
  return {
    name,
    definition: { name, description: `${name} tool`, input_schema: inputSchema },
    source: { file: 'spec/container/x.ts', class: cls, method, input },
    fingerprint: 'sha256:0',
    warnings: [],
  };
}

export function manifest(...tools: ManifestTool[]): Manifest {
  return { version: 1, tools };
}
