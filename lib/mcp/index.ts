/**
 * scope-tool/mcp: serve a scope-tool Registry as a Model Context Protocol server with
 * `@modelcontextprotocol/sdk` (stdio, Streamable HTTP, or any SDK transport), and the projections
 * between scope-tool values and MCP wire values. Optional: the main `scope-tool` entry never loads
 * this module or the MCP SDK. Importing it does nothing but define.
 */
export { mcpRequest } from './arguments';
export { EMBEDDED_CONTENT_URI, mcpToolResult, outputOfMcpToolResult } from './content';
export type { McpContent, McpToolResult, McpToolResultValue } from './content';
export { WRAPPED_FIELD, elicitationForm, elicitationMessage } from './elicitation';
export type { ElicitationForm, McpRequestedSchema } from './elicitation';
export { ContinuationError, ContinuationSealer, MemoryContinuationUseStore } from './sealed-state';
export type {
  ContinuationErrorReason,
  ContinuationKey,
  ContinuationSealerConfig,
  ContinuationUseStore,
  SealBinding,
  SealCall,
} from './sealed-state';
export { definitionOfMcpTool, mcpTool, mcpTools } from './tools';
export type { McpTool } from './tools';
export { createMcpServer } from './server';
export type { McpCallInfo, McpServerOptions } from './server';
export { serveStdio } from './stdio';
export type { McpStdioOptions, McpStdioServer } from './stdio';
export { serveStreamableHttp } from './http';
export { TRACER_NAME, TracingError } from '../tracing';
export type { ToolTracingOption, ToolTracingOptions, TracingErrorCode } from '../tracing';
export type { McpHttpAuthOptions, McpHttpOptions, McpHttpServer } from './http';
