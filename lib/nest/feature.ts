/**
 * What `ScopeToolModule.forFeature()` records: the toolset classes a feature module lists.
 * @internal
 */
import { ToolError } from '../protocol';

/** The token of a feature module's list (one per forFeature module). @internal */
export const FEATURE_TOOLSETS = 'scope-tool:feature-toolsets';

/** The classes one `forFeature()` call listed. @internal */
export class FeatureToolsets {
  readonly toolsets: readonly Function[];

  /** @throws ToolError ERR_INVALID_TOOL when `toolsets` is not an array of classes */
  constructor(toolsets: readonly unknown[]) {
    if (!Array.isArray(toolsets)) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        'ScopeToolModule.forFeature(): pass an array of @Toolset() classes, for example forFeature([NotesTools])',
      );
    }
    toolsets.forEach((t, i) => {
      if (typeof t !== 'function') {
        throw new ToolError(
          'ERR_INVALID_TOOL',
          `ScopeToolModule.forFeature(): item ${i + 1} is not a class; pass @Toolset() classes`,
        );
      }
    });
    this.toolsets = Object.freeze([...(toolsets as Function[])]);
  }
}
