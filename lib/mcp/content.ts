/**
 * Output ↔ MCP `CallToolResult`: content blocks to MCP content (text, image, audio, resource link,
 * embedded resource), details to `structuredContent`, and back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Output } from '../protocol';
import type { ContentBlock, MediaSource } from '../protocol';
import { runtimeReferenceOmitted, toolResultBlock, toolResultMember, toolResultNotObject } from './messages';

/** One MCP content block of a tool result. */
export type McpContent = CallToolResult['content'][number];

/** An MCP tool result as scope-tool writes it: `isError` is always present. */
export interface McpToolResult {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** The URI an inline media block that is neither image nor audio gets as an embedded resource. */
export const EMBEDDED_CONTENT_URI = 'scope-tool:content/';

/**
 * Projects an Output onto an MCP `CallToolResult` (MCP 2025-11-25, what SDK 1.32.2 speaks).
 *
 * Blocks, in order: text → `{type:"text"}`; inline bytes with an `image/*` MIME type →
 * `{type:"image", data, mimeType}`, `audio/*` → `{type:"audio"}`, any other → an embedded
 * resource `{type:"resource", resource:{uri:"scope-tool:content/<index>", mimeType, blob}}`; a
 * URI source → `{type:"resource_link", uri, name:<last path segment>, mimeType}`; an opaque
 * runtime reference cannot be fetched by a client, so it becomes the text
 * `[<mime> media omitted: a runtime reference cannot be sent over MCP]`.
 *
 * Details: a JSON object becomes `structuredContent` (MCP requires an object there). When the
 * output has no blocks, the details text also becomes the one text block (MCP asks servers to
 * send the serialized JSON for clients that read `content` only). Details that are not an object
 * (an array, a scalar) cannot be `structuredContent`: they are sent as a text block after the
 * other blocks, so the client still receives them. So are objects with an own top-level member
 * named `__proto__`: the SDK's result check would drop that member from `structuredContent`, so
 * they go whole as text, with no `structuredContent` (never one view without a member the other
 * has).
 * @param output - the Output to send (an error's Output too)
 * @param isError - MCP `isError`: true for admission errors and Failures
 */
export function mcpToolResult(output: Output, isError: boolean): McpToolResult {
  const content = output.content.map(mcpContent);
  const result: McpToolResult = { content, isError };
  const details = output.details;
  if (details !== undefined) {
    const value: unknown = JSON.parse(details);
    const structured = typeof value === 'object' && value !== null && !Array.isArray(value) && !hasOwnProto(value);
    if (structured) result.structuredContent = value as Record<string, unknown>;
    if (content.length === 0 || !structured) content.push({ type: 'text', text: details });
  }
  return result;
}

/**
 * Whether an object has an own member named `__proto__` (JSON.parse makes one). The SDK's result
 * check (CallToolResultSchema, Zod) copies `structuredContent` without it, so the client would get
 * the object less that member while the text block keeps it (hostile review): such details are sent
 * as the text block alone. Only the top level: the check passes the members' values on as they are.
 */
function hasOwnProto(value: object): boolean {
  return Object.prototype.hasOwnProperty.call(value, '__proto__');
}

function mcpContent(block: ContentBlock, index: number): McpContent {
  if (block.kind === 'text') return { type: 'text', text: block.text };
  const { mime, source } = block.media;
  const type = mime.split('/')[0].toLowerCase();
  switch (source.kind) {
    case 'bytes':
      if (type === 'image') return { type: 'image', data: source.bytes, mimeType: mime };
      if (type === 'audio') return { type: 'audio', data: source.bytes, mimeType: mime };
      return {
        type: 'resource',
        resource: { uri: `${EMBEDDED_CONTENT_URI}${index}`, mimeType: mime, blob: source.bytes },
      };
    case 'uri':
      return { type: 'resource_link', uri: source.uri, name: lastSegment(source.uri), mimeType: mime };
    default:
      return { type: 'text', text: runtimeReferenceOmitted(mime) };
  }
}

function lastSegment(uri: string): string {
  const path = uri.split(/[?#]/)[0];
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return segment === '' ? uri : segment;
}

/** A tool result read back from MCP: its Output and its error flag. */
export interface McpToolResultValue {
  readonly output: Output;
  readonly isError: boolean;
}

/**
 * Reads an MCP `CallToolResult` (a client's view, or a recorded payload) into an Output: text →
 * text block; image / audio → inline media; resource link → media with a URI source (MIME type
 * `application/octet-stream` when the link has none); an embedded resource → inline media (`blob`)
 * or a text block (`text`). `structuredContent` (an object, or any JSON value as the 2026 draft
 * allows) becomes the details, serialized once. `resultType` and `_meta` are accepted and ignored;
 * absent `isError` is false.
 * @throws ToolError ERR_INVALID_OUTPUT naming the block (`content[i]`) that is unknown or malformed
 */
export function outputOfMcpToolResult(result: unknown): McpToolResultValue {
  if (typeof result !== 'object' || result === null) throw toolResultNotObject();
  const wire = result as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  const blocks = wire.content ?? [];
  if (!Array.isArray(blocks)) throw toolResultMember('content must be an array');
  if (wire.isError !== undefined && typeof wire.isError !== 'boolean') {
    throw toolResultMember('isError must be a boolean');
  }
  const content = blocks.map((block, i) => contentBlockOf(block, i));
  const details = wire.structuredContent === undefined ? undefined : JSON.stringify(wire.structuredContent);
  return { output: Output.create({ content, details }), isError: wire.isError === true };
}

function contentBlockOf(block: unknown, index: number): ContentBlock {
  const b = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
  const media = (mime: unknown, source: MediaSource): ContentBlock => ({
    kind: 'media',
    media: { mime: typeof mime === 'string' ? mime : 'application/octet-stream', source },
  });
  switch (b.type) {
    case 'text':
      return { kind: 'text', text: b.text as string };
    case 'image':
    case 'audio':
      return media(b.mimeType, { kind: 'bytes', bytes: b.data as string });
    case 'resource_link':
      return media(b.mimeType, { kind: 'uri', uri: b.uri as string });
    case 'resource': {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.blob === 'string') return media(resource.mimeType, { kind: 'bytes', bytes: resource.blob });
      if (typeof resource.text === 'string') return { kind: 'text', text: resource.text };
      break;
    }
  }
  throw toolResultBlock(index, b.type);
}
