/**
 * MCP `tools/call` arguments → a protocol Request. MCP carries arguments as a JSON object that the
 * transport has already parsed, so admission sees them re-serialized, once, here.
 */
import { MAX_DEPTH, canonicalJson, markRefusal } from '../protocol';
import type { AdmissionIssue, Binding, Invocation, Registry, Request } from '../protocol';
import { jsonPointer } from '../protocol/json';
import { plainJsonText } from '../protocol/json-data';
import { argumentsRefused } from '../protocol/messages';
import { prepareToolCall } from '../providers';
import type { ProviderToolCall } from '../providers';
import { NOT_FINITE, tooDeep } from './messages';

/**
 * Serializes the `arguments` of an MCP `tools/call` once, into the Request that `Contract.prepare`
 * admits. Absent arguments (`undefined`) become `{}` (MCP makes `arguments` optional).
 *
 * The transport parsed the JSON before scope-tool sees it, so two things cannot be judged on the
 * original text: duplicate member names (JSON.parse kept the last one) and the exact spelling of
 * numbers. What JSON.parse turned into something JSON.stringify would silently change is refused
 * instead of passed on: a number that is not finite (`1e400` parses to Infinity and would be
 * serialized as `null`), and nesting deeper than MAX_DEPTH (10,000) arrays/objects. Own members
 * named `__proto__` survive (scope-tool reads the raw params, not the SDK's re-parsed copy), so the
 * tool's contract refuses them as it refuses them anywhere.
 * @param name - the tool name from `params.name`
 * @param args - `params.arguments` as parsed by the transport: a JSON object, or undefined
 * @returns `{ name, arguments }` with the arguments as compact JSON text
 * @throws ToolError ERR_INVALID_INVOCATION with one issue (`number_out_of_range` or `too_deep`,
 *   with the JSON Pointer path) when the value cannot be serialized faithfully
 */
export function mcpRequest(name: string, args: unknown): Request {
  if (args === undefined) return { name, arguments: '{}' };
  // Plain data of ordinary depth (what a transport parses, nearly always) is written directly: its
  // numbers are finite by construction of that writer, which leaves anything else to the walk below.
  const plain = plainJsonText(args);
  if (plain !== undefined) return { name, arguments: plain };
  const issue = unfaithful(args);
  if (issue !== undefined) {
    throw markRefusal(argumentsRefused([issue]));
  }
  return { name, arguments: serialize(args) };
}

/** A `tools/call` admitted: the call as the provider layer reads it, its binding and its invocation. @internal */
export interface PreparedMcpCall {
  readonly call: ProviderToolCall;
  readonly binding: Binding;
  readonly invocation: Invocation;
}

/**
 * Admits one `tools/call` (both flows, lib/mcp/call.ts and lib/mcp/input-required.ts): the binding
 * `registry` resolves for `name` prepares the arguments serialized by mcpRequest. A name the
 * registry does not hold (or hides) goes through prepareToolCall, which refuses it as an unknown
 * tool, naming the tools to call.
 * @throws what mcpRequest, Contract.prepare and prepareToolCall throw: refusals the model is told
 * @internal
 */
export function prepareMcpCall(
  registry: Registry,
  requestId: string | number,
  name: string,
  args: unknown,
): PreparedMcpCall {
  const binding = registry.resolve(name);
  if (binding === undefined) {
    const call: ProviderToolCall = { id: String(requestId), request: { name, arguments: '{}' } };
    return { call, ...prepareToolCall(registry, call) };
  }
  const request = mcpRequest(name, args);
  return { call: { id: String(requestId), request }, binding, invocation: binding.contract.prepare(request) };
}

/**
 * JSON.stringify recurses and overflows the stack a few thousand levels deep, below admission's
 * 10,000: such values are written by the non-recursive canonicalJson instead (members sorted,
 * which admission and decoding do not depend on).
 */
function serialize(args: unknown): string {
  try {
    return JSON.stringify(args);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return canonicalJson(args);
  }
}

interface Node {
  readonly value: unknown;
  readonly parent: Node | undefined;
  readonly key: string | number;
  readonly depth: number;
}

/**
 * The first value JSON.stringify would not reproduce, walked iteratively with parent links (no
 * recursion limit, and a path is only built for the value refused).
 */
function unfaithful(root: unknown): AdmissionIssue | undefined {
  const stack: Node[] = [{ value: root, parent: undefined, key: '', depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const value = node.value;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return issue('number_out_of_range', node, NOT_FINITE);
    }
    if (typeof value !== 'object' || value === null) continue;
    if (node.depth >= MAX_DEPTH) {
      return issue('too_deep', node, tooDeep(MAX_DEPTH));
    }
    const depth = node.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, key: i, depth });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (value as Record<string, unknown>)[keys[i]], parent: node, key: keys[i], depth });
      }
    }
  }
  return undefined;
}

function issue(code: AdmissionIssue['code'], node: Node, rule: string): AdmissionIssue {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.parent !== undefined; at = at.parent) path.unshift(at.key);
  const pointer = jsonPointer(path);
  return Object.freeze({ code, path: Object.freeze(path), message: `${pointer === '' ? '(root)' : pointer}: ${rule}` });
}
