/**
 * The same per-call work in the libraries our users would otherwise pick, each through its own
 * tool-call path, from the raw JSON arguments text to the completed result:
 * - Vercel AI SDK (`ai`): `tool()` with a zod schema; the steps of the SDK's internal
 *   `doParseToolCall` (`asSchema` + `safeParseJSON` with the schema, secure-json-parse inside) and
 *   `executeToolCall` (`executeTool`). The SDK does not export `parseToolCall`/`executeToolCall`, so
 *   the same exported functions they call are called here, without telemetry spans and callbacks.
 * - LangChain.js: `tool()` with zod, `invoke` with a ToolCall (`JSON.parse` first: a ToolCall
 *   carries parsed `args`); returns a ToolMessage.
 * - OpenAI Agents SDK: `tool()` with zod, `invokeFunctionTool` with the JSON string (the runner's
 *   own entry; it parses, validates with zod and runs `execute`).
 */
import { asSchema, tool as aiTool } from 'ai';
import type { Tool as AiTool } from 'ai';
import { executeTool, safeParseJSON } from '@ai-sdk/provider-utils';
import { tool as lcTool } from '@langchain/core/tools';
import { invokeFunctionTool, RunContext, tool as agentsTool } from '@openai/agents';
import type { BenchTool } from '../fixtures';
import { callGroup } from './calls';
import { workload } from '../workload';
import type { Workload } from '../workload';

/** The Vercel AI SDK's per-call path: parse + validate against the tool's schema, then execute. */
async function aiCall(tools: Record<string, AiTool>, name: string, args: string): Promise<unknown> {
  const t = tools[name];
  if (t === undefined || t.execute === undefined) throw new Error(`bench: ai tool ${name} missing`);
  const schema = asSchema(t.inputSchema);
  const parsed =
    args.trim() === ''
      ? { success: false as const, error: new Error('blank') }
      : await safeParseJSON({ text: args, schema });
  if (!parsed.success) throw parsed.error;
  let output: unknown;
  for await (const part of executeTool({
    execute: t.execute.bind(t),
    input: parsed.value,
    options: { toolCallId: 'call_1', messages: [] },
  })) {
    if (part.type === 'final') output = part.output;
  }
  return output;
}

/** The peer rows of one tool. */
export function peerWorkloads(bench: BenchTool): Workload[] {
  const group = callGroup(bench);
  const fn = bench.fn as (input: unknown) => object;
  const { name, description, args } = bench;

  const aiTools: Record<string, AiTool> = {
    [name]: aiTool({ description, inputSchema: bench.zod, execute: async (input: unknown) => fn(input) }) as AiTool,
  };

  const lc = lcTool(async (input: unknown) => fn(input), { name, description, schema: bench.zod });
  let seq = 0;

  const agents = agentsTool({
    name,
    description,
    parameters: bench.zod,
    strict: true,
    execute: async (input: unknown) => fn(input),
  });
  const runContext = new RunContext();

  return [
    workload(group, 'Vercel AI SDK tool()', 'peer', () => aiCall(aiTools, name, args)),
    workload(group, 'LangChain tool().invoke', 'peer', () =>
      lc.invoke({ name, args: JSON.parse(args) as Record<string, unknown>, id: `call_${seq++}`, type: 'tool_call' }),
    ),
    workload(group, 'OpenAI Agents tool()', 'peer', () =>
      invokeFunctionTool({ tool: agents, runContext, input: args }),
    ),
  ];
}
