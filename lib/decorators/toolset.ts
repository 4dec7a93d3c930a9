/**
 * `@Toolset()`: marks a class whose `@Tool()` methods the container turns into tools.
 */
import { ToolError } from '../protocol';
import { TOOLSET_KEY, writeMetadata } from './metadata';
import type { ToolsetMetadata } from './metadata';
import { placeOf, refuseStandardDecorator } from './place';

/** Options of `@Toolset()`. */
export type ToolsetOptions = ToolsetMetadata;

/**
 * Marks `cls` as a toolset (a watermark plus its options). The container refuses a class without it,
 * so that scanning never picks up tools from an unmarked class by accident.
 * @param options - `description`: free text (a string)
 * @throws ToolError ERR_INVALID_TOOL when the options are not an object or `description` is not a
 *   string, and when it runs as a standard (TC39) decorator, compiled without `experimentalDecorators`
 */
export function Toolset(options: ToolsetOptions = {}): ClassDecorator {
  return (target: Function, context?: unknown) => {
    refuseStandardDecorator('@Toolset()', context);
    if (typeof options !== 'object' || options === null) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        `@Toolset() on ${placeOf(target)}: options must be an object, for example { description: '...' }`,
      );
    }
    if (options.description !== undefined && typeof options.description !== 'string') {
      throw new ToolError('ERR_INVALID_TOOL', `@Toolset() on ${placeOf(target)}: description must be a string`);
    }
    const metadata: ToolsetMetadata = Object.freeze(
      options.description === undefined ? {} : { description: options.description },
    );
    writeMetadata(TOOLSET_KEY, metadata, target);
  };
}
