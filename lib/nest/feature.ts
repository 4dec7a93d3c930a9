/**
 * What `ScopeToolModule.forFeature()` records: the toolset classes a feature module lists.
 * @internal
 */
import { ScopeToolModuleError } from './messages';

/** The token of a feature module's list (one per forFeature module). @internal */
export const FEATURE_TOOLSETS = 'scope-tool:feature-toolsets';

/** The classes one `forFeature()` call listed. @internal */
export class FeatureToolsets {
  readonly toolsets: readonly Function[];

  /** @throws ScopeToolModuleError bad_feature_list (ERR_INVALID_TOOL) when `toolsets` is not an array of classes */
  constructor(toolsets: readonly unknown[]) {
    if (!Array.isArray(toolsets)) throw new ScopeToolModuleError({ rule: 'bad_feature_list', item: undefined });
    toolsets.forEach((t, i) => {
      if (typeof t !== 'function') throw new ScopeToolModuleError({ rule: 'bad_feature_list', item: i + 1 });
    });
    this.toolsets = Object.freeze([...(toolsets as Function[])]);
  }
}
