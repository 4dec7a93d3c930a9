/**
 * The build-time schema generator: reads a TypeScript project, finds the `@Tool` methods and writes
 * the tool manifest. Never imported by run-time code (docs/architecture.md section 1).
 */
export { generateManifest, type GenerationResult, type GeneratorMessage } from './generate';
export {
  serializeManifest,
  type Manifest,
  type ManifestSource,
  type ManifestTool,
  type SchemaObject,
} from './manifest';
export type { ProjectOptions } from './project';
export { compareManifests, toolDifferences, type ManifestDrift, type ToolDifference } from './compare';
