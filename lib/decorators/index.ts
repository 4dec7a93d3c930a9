/**
 * lib/decorators: `@Toolset`, `@Tool`, `@Authorize`, the `ToolCall` parameter, and the metadata
 * readers the container uses. Entry point `scope-tool/decorators`.
 */
export { Toolset } from './toolset';
export type { ToolsetOptions } from './toolset';
export { Tool, TOOL_NAME_PATTERN } from './tool';
export type { ToolOptions } from './tool';
export { Authorize, isPolicy } from './authorize';
export type { ToolCall } from './tool-call';
export { readParamTypes, readPolicies, readTool, readTools, readToolset } from './metadata';
export type { AuthorizerClass, Policy, ToolMetadata, ToolsetMetadata } from './metadata';
