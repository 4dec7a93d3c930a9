/**
 * The scope-tool MCP server (`scope-tool/mcp` `createMcpServer`) on the same in-memory transport
 * and SDK Client as the raw SDK server rows: `tools/call` of the bench tools (FuncTools behind an
 * allow-all Guard) and `tools/list` of registries of 5 and 50 tools with the same schemas.
 */
import { createMcpServer } from '../../lib/mcp';
import { Registry } from '../../lib/protocol';
import type { BenchTool } from '../fixtures';
import { funcToolRegistry } from './calls';
import { connectClient, connectRaw } from './mcp';
import type { McpPair, RawPair } from './mcp';
import { manyFuncTools } from './scale';

/** A client connected to a scope-tool MCP server of the bench tools. */
export function connectScopeCalls(tools: readonly BenchTool[]): Promise<McpPair> {
  return connectClient(createMcpServer(funcToolRegistry(tools), { name: 'bench-scope' }));
}

/** A client connected to a scope-tool MCP server of `count` tools (`tool_0` ...), for tools/list. */
export function connectScopeList(count: number): Promise<McpPair> {
  return connectClient(
    createMcpServer(new Registry(...manyFuncTools(count, '#list')), { name: `bench-scope-${count}` }),
  );
}

/** A bare JSON-RPC client (no result parse) connected to a scope-tool MCP server of `count` tools. */
export function connectScopeListRaw(count: number): Promise<RawPair> {
  return connectRaw(
    createMcpServer(new Registry(...manyFuncTools(count, '#list')), { name: `bench-scope-raw-${count}` }),
  );
}
