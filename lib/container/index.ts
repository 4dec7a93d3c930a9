/**
 * lib/container: toolsets (classes with `@Tool()` methods) plus the manifest become a Registry of
 * Guard-wrapped bindings. Depends on lib/decorators, lib/dto and lib/protocol.
 */
export { createRegistry } from './create-registry';
export type { Constructor, CreateRegistryOptions, Resolve } from './create-registry';
export { loadManifest } from './manifest';
export type { Manifest, ManifestInput, ManifestSource, ManifestTool } from './manifest';
