/**
 * lib/tracing: OpenTelemetry `execute_tool` spans for the calls a Runtime or an MCP server runs
 * (docs/tracing.md). Imports lib/protocol at most and `@opentelemetry/api` (types, and a `require()`
 * inside a function when tracing is asked for). Its public names reach users through
 * `scope-tool/runtime` and `scope-tool/mcp`.
 */
export { TracingError } from './errors';
export type { TracingErrorCode } from './errors';
export { ATTRIBUTES, TRACER_NAME, ToolTracing } from './tracing';
export type { ToolTracingOption, ToolTracingOptions, TracedCall, TracedEnd } from './tracing';
