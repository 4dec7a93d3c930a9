/**
 * Definition ↔ MCP `Tool`: what `tools/list` shows a client, built from a Registry's definitions,
 * and the reverse reading of an MCP tool into a Definition.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { validateDefinition } from '../protocol';
import type { Definition, JsonObject, Registry } from '../protocol';
import { mcpToolNotObject } from './messages';

export type { McpTool };

/** Projections are cached per frozen definition snapshot: a registry hands out the same one for life. */
const cache = new WeakMap<Definition, McpTool>();

/**
 * Projects a definition onto an MCP `Tool`: `{ name, description?, inputSchema }`. The input
 * schema is the definition's frozen snapshot as authored (member order, `$schema` dialect
 * included: 2020-12 by default, draft-07 when it says so), so what the client is shown is exactly
 * what `Contract.prepare` compiles. The result is frozen and cached per definition.
 * @param definition - a valid Definition (a Registry's snapshot, or one that passes validateDefinition)
 * @throws ToolError ERR_INVALID_DEFINITION when the definition is invalid
 */
export function mcpTool(definition: Definition): McpTool {
  const cached = cache.get(definition);
  if (cached !== undefined) return cached;
  validateDefinition(definition);
  const tool: McpTool = { name: definition.name, inputSchema: definition.inputSchema as McpTool['inputSchema'] };
  if (definition.description !== undefined && definition.description !== '') tool.description = definition.description;
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
 * Reads an MCP `Tool` into a Definition (`name`, `description`, `inputSchema`). MCP-only members
 * (`title`, `icons`, `annotations`, `outputSchema`, `execution`, `_meta`) have no Definition
 * counterpart and are not kept.
 * @param tool - an MCP Tool object (for example one entry of a `tools/list` result)
 * @returns a frozen, validated Definition
 * @throws ToolError ERR_INVALID_DEFINITION when the tool is not an object or its name, description
 *   or input schema break the Definition rules (name `^[A-Za-z0-9_-]{1,64}$`, object input schema)
 */
export function definitionOfMcpTool(tool: unknown): Definition {
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) {
    throw mcpToolNotObject();
  }
  const { name, description, inputSchema } = tool as { name?: unknown; description?: unknown; inputSchema?: unknown };
  const checked: { name: string; description?: string; inputSchema: JsonObject } = {
    name: name as string,
    inputSchema: inputSchema as JsonObject,
  };
  if (description !== undefined) checked.description = description as string;
  validateDefinition(checked);
  // A copy the caller cannot change; validated JSON data, so the JSON round trip is exact.
  return Object.freeze({ ...checked, inputSchema: JSON.parse(JSON.stringify(inputSchema)) as JsonObject });
}
