/**
 * The answer a workload produced, as plain JSON data, whatever library shaped it: a scope-tool
 * Result, a LangChain ToolMessage, an MCP CallToolResult, a JSON string or a plain object. Used to
 * check, before measuring, that every row computes the same answer (not on the measured path).
 */

function fromText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Extracts the tool's answer from a library-specific call result. */
export function answerOf(value: unknown): unknown {
  if (typeof value === 'string') return fromText(value);
  if (typeof value !== 'object' || value === null) return value;
  const v = value as Record<string, unknown>;
  // scope-tool Result: { output: Output } with JSON details or text content.
  if ('output' in v && typeof v.output === 'object' && v.output !== null) {
    const output = v.output as { details?: string; asText?: () => string | undefined };
    if (typeof output.details === 'string') return fromText(output.details);
    if (typeof output.asText === 'function') return fromText(output.asText() ?? '');
  }
  // MCP CallToolResult: structured content wins, else the first text block.
  if ('structuredContent' in v && v.structuredContent !== undefined) return v.structuredContent;
  if (Array.isArray(v.content)) {
    const first = v.content[0] as { type?: string; text?: string } | undefined;
    if (first?.type === 'text' && typeof first.text === 'string') return fromText(first.text);
  }
  // LangChain ToolMessage: content is the tool's return (a string, or stringified).
  if (typeof v.content === 'string') return fromText(v.content);
  return value;
}
