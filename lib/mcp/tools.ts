/**
 * Definition ↔ MCP `Tool`: what `tools/list` shows a client, built from a Registry's definitions,
 * and the reverse reading of an MCP tool into a Definition.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { validateDefinition } from '../protocol';
import type { Definition, Registry, ToolAnnotations } from '../protocol';
import { snapshotDefinition } from '../protocol/definition';
import { mcpToolNotObject } from './messages';

export type { McpTool };

/** The MCP annotation members a Definition keeps (the ToolAnnotations hints). */
const HINTS: readonly (keyof ToolAnnotations)[] = [
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
];

/** Projections are cached per frozen definition snapshot: a registry hands out the same one for life. */
const cache = new WeakMap<Definition, McpTool>();

/**
 * Projects a definition onto an MCP `Tool`: `{ name, title?, description?, inputSchema,
 * outputSchema?, annotations? }`. The schemas are the definition's frozen snapshots as authored
 * (member order, `$schema` dialect included: 2020-12 by default, draft-07 when it says so), so what
 * the client is shown is exactly what `Contract.prepare` compiles and what `Binding.call` checks
 * the Output details against (they reach the client as `structuredContent`, see mcpToolResult).
 * An output schema whose top-level `type` is not `"object"` is not listed: MCP 2025-11-25 (SDK
 * 1.32) takes object schemas only, and such details reach the client as text, not
 * `structuredContent` (see mcpToolResult). The annotations keep MCP's member names (`readOnlyHint`, ...). The result is frozen and cached
 * per definition.
 * @param definition - a valid Definition (a Registry's snapshot, or one that passes validateDefinition)
 * @throws ToolError ERR_INVALID_DEFINITION when the definition is invalid
 */
export function mcpTool(definition: Definition): McpTool {
  const cached = cache.get(definition);
  if (cached !== undefined) return cached;
  validateDefinition(definition);
  const tool: McpTool = { name: definition.name, inputSchema: definition.inputSchema as McpTool['inputSchema'] };
  if (definition.title !== undefined) tool.title = definition.title;
  if (definition.description !== undefined && definition.description !== '') tool.description = definition.description;
  // MCP 2025-11-25 (this SDK) takes object output schemas only; other details go as text content.
  if (definition.outputSchema?.type === 'object')
    tool.outputSchema = definition.outputSchema as McpTool['outputSchema'];
  if (definition.annotations !== undefined) tool.annotations = { ...definition.annotations };
  Object.freeze(tool);
  if (Object.isFrozen(definition)) cache.set(definition, tool);
  return tool;
}

/**
 * The `tools` of an MCP `ListToolsResult` for a registry: one MCP Tool per definition, sorted by
 * name as `Registry.definitions()` returns them (no pagination: the whole list in one page).
 */
export function mcpTools(registry: Registry): McpTool[] {
  return registry.definitions().map(mcpTool);
}

/**
 * Reads an MCP `Tool` into a Definition (`name`, `title`, `description`, `inputSchema`,
 * `outputSchema`, and the four hints of `annotations`). MCP-only members (`icons`, `execution`,
 * `_meta`, `annotations.title`) have no Definition counterpart and are not kept.
 * @param tool - an MCP Tool object (for example one entry of a `tools/list` result)
 * @returns a frozen, validated Definition
 * @throws ToolError ERR_INVALID_DEFINITION when the tool is not an object or its name, title,
 *   description, schemas or hints break the Definition rules (name `^[A-Za-z0-9_-]{1,64}$`, object
 *   schemas, boolean hints)
 */
export function definitionOfMcpTool(tool: unknown): Definition {
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) {
    throw mcpToolNotObject();
  }
  const { name, title, description, inputSchema, outputSchema, annotations } = tool as Record<string, unknown>;
  const checked: Record<string, unknown> = { name, inputSchema };
  if (title !== undefined) checked.title = title;
  if (description !== undefined) checked.description = description;
  if (outputSchema !== undefined) checked.outputSchema = outputSchema;
  if (typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)) {
    const hints = annotations as Record<string, unknown>;
    const kept = Object.fromEntries(HINTS.filter((h) => hints[h] !== undefined).map((h) => [h, hints[h]]));
    if (Object.keys(kept).length > 0) checked.annotations = kept;
  } else if (annotations !== undefined) {
    checked.annotations = annotations;
  }
  // A snapshot the caller cannot change: validated, detached and deep-frozen JSON data.
  return snapshotDefinition(checked);
}
