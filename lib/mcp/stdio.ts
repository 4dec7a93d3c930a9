/**
 * Serve a Registry over MCP stdio: JSON-RPC messages, one per line, on stdin and stdout.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Registry } from '../protocol';
import { createMcpServer, serverLimits } from './server';
import type { McpServerOptions } from './server';

/** Options of serveStdio: the server options, and the streams (default `process.stdin` / `process.stdout`). */
export interface McpStdioOptions extends McpServerOptions {
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

/** A running stdio server. */
export interface McpStdioServer {
  /** Resolves when the client closes the connection (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  /** Stops serving and releases the streams. */
  close(): Promise<void>;
}

/**
 * Serves `registry` over stdio until stdin ends. Nothing but JSON-RPC is written to stdout:
 * write logs to stderr (for example in `onError`).
 * @throws ToolError, RangeError as createMcpServer does (the RangeError names serveStdio)
 */
export async function serveStdio(registry: Registry, options: McpStdioOptions = {}): Promise<McpStdioServer> {
  serverLimits(options, 'serveStdio');
  const server = createMcpServer(registry, options);
  const transport = new StdioServerTransport(
    (options.stdin ?? process.stdin) as ConstructorParameters<typeof StdioServerTransport>[0],
    (options.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const stdin = options.stdin ?? process.stdin;
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // The SDK transport does not watch for the end of stdin: a client that goes away closes us.
  const onEnd = () => void server.close();
  stdin.once('end', onEnd);
  await server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off('end', onEnd);
      await server.close();
    },
  };
}
