/**
 * What the two OpenAI function-tool formats (Chat Completions `tools[].function`, Responses
 * `tools[]`) share: the name checks, the object-schema check, and the strict-mode schema with its
 * removed-keyword notes.
 */
import type { Definition, JsonObject } from '../protocol';
import { keywordNote } from './schema-review';
import type { KeywordNote, ToolProvider } from './schema-review';
import { strictInputSchema } from './strict';
import { objectInputSchema } from './tool-call';
import { checkToolNames } from './tool-names';

/** Options of the OpenAI definition exports. */
export interface OpenAIToolsOptions {
  /**
   * Export for strict mode (Structured Outputs, `strict: true`): every property required, every
   * object closed, optional properties nullable (see `strict.ts`). Default false. Calls of tools
   * exported this way must pass through `restoreStrictToolCall` (or `restoreOptionalMembers`)
   * before `prepareToolCall`.
   */
  readonly strict?: boolean;
}

/** One definition ready for an OpenAI function tool entry. @internal */
export interface OpenAIFunctionEntry {
  readonly definition: Definition;
  readonly parameters: JsonObject;
}

/**
 * Checks names, then builds each definition's parameters (a deep copy of the input schema, or its
 * strict-mode schema), collecting the notes of removed keywords.
 * @throws ToolError ERR_INVALID_DEFINITION (see the export functions)
 * @internal
 */
export function openAIFunctionExports(
  provider: ToolProvider,
  definitions: readonly Definition[],
  strict: boolean,
  where: string,
): { entries: OpenAIFunctionEntry[]; notes: KeywordNote[] } {
  checkToolNames(provider, definitions, where);
  const notes: KeywordNote[] = [];
  const entries = definitions.map((definition) => {
    const copy = objectInputSchema(definition, where);
    if (!strict) return { definition, parameters: copy as JsonObject };
    const { schema, removed } = strictInputSchema(definition, where);
    for (const { pointer, keyword } of removed)
      notes.push(keywordNote(provider, definition.name, pointer, keyword, 'removed'));
    return { definition, parameters: schema };
  });
  return { entries, notes };
}
