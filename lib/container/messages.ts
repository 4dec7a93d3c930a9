/**
 * The container's error texts, worded in one place. Each names the tool, `Class.method` and the fix.
 * @internal
 */
import { ToolError } from '../protocol';

/** The command that rewrites the manifest. */
export const GENERATE = 'run scope-tool generate';

/** `tool "create_note" (NotesTools.createNote) is missing from the manifest; run scope-tool generate` */
export function missingFromManifest(tool: string, place: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `tool "${tool}" (${place}) is missing from the manifest; ${GENERATE}`);
}

/** A manifest entry whose source no longer matches: `what` says what differs. */
export function staleEntry(tool: string, place: string, what: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', `tool "${tool}" (${place}): the manifest is stale: ${what}; ${GENERATE}`);
}

/** A toolset or policy the container cannot use. */
export function invalidToolset(detail: string): ToolError {
  return new ToolError('ERR_INVALID_TOOL', detail);
}
