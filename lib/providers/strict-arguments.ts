/**
 * The way back from OpenAI strict mode: a definition exported with `strict: true` shows optional
 * properties as required and nullable (`strict.ts`), so the model sends `null` where it means
 * "absent". Before admission, those `null`s are removed again, so the arguments admitted are the
 * ones the tool's contract (and a DTO with `@IsOptional()` members) expects.
 */
import { ToolError, admitJson } from '../protocol';
import type { Binding, Definition, JsonObject, JsonValue, Registry, Request } from '../protocol';
import { acceptsNull, isJsonObject, resolveLocalRef } from './schema-keywords';
import { strictInputSchema } from './strict';
import type { AssembledToolCall, ProviderToolCall } from './tool-call';

/** Strict-mode checks of input schemas, by schema object (an error, or true when exportable). */
const checked = new WeakMap<object, ToolError | true>();

/** Follows at most this many `$ref` hops from one schema (a longer chain is left as is). */
const MAX_REF_HOPS = 64;

/**
 * Rewrites the arguments text of a call of a strict-exported definition: each member that is
 * `null`, absent from `required` in the definition's ORIGINAL input schema, and whose own schema
 * does not accept `null`, is removed, at every depth the schema describes (object `properties`,
 * array `items`, local `$ref`s; `anyOf` branches hold no optional members, as the strict export
 * guarantees). A member whose schema accepts null keeps its `null`; required members are never
 * touched.
 *
 * The text is returned unchanged (the very same string) when nothing is removed, when it is blank,
 * when it is not a JSON object, or when it is not admissible JSON (admission then refuses it
 * exactly as it would have). Otherwise the admitted value, without those members, is serialized
 * once with `JSON.stringify` (member order kept; whitespace dropped; numbers as JavaScript
 * prints them, which admission has already bounded to finite doubles and safe integers).
 * @param definition - the definition that was exported with `strict: true`
 * @param argumentsText - the model's raw arguments text
 * @throws ToolError ERR_INVALID_DEFINITION when the definition cannot be exported in strict mode
 *   (the same error `strictInputSchema` throws): it was never shown to a model as strict
 */
export function restoreOptionalMembers(definition: Definition, argumentsText: string): string {
  const root = definition.inputSchema;
  let verdict = checked.get(root);
  if (verdict === undefined) {
    try {
      strictInputSchema(definition, 'restoreOptionalMembers');
      verdict = true;
    } catch (e) {
      verdict = e as ToolError;
    }
    checked.set(root, verdict);
  }
  if (verdict !== true) throw verdict;
  if (typeof argumentsText !== 'string' || argumentsText.trim() === '') return argumentsText;
  const admitted = admitJson(argumentsText);
  if (!admitted.ok || !isJsonObject(admitted.value)) return argumentsText;
  if (!dropOptionalNulls(admitted.value, root)) return argumentsText;
  try {
    return admissibleNumbers(JSON.stringify(admitted.value));
  } catch {
    return argumentsText; // too deep for JSON.stringify: leave the text to admission unchanged
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * JSON.stringify writes `1e20` as `100000000000000000000`, an integer literal beyond 2^53 - 1 that
 * admission refuses although the model's `1e20` was admitted: such numbers are written back in
 * exponent form (the same double). Strings are skipped; the text is one pass, no recursion.
 */
function admissibleNumbers(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    let j = i + 1;
    while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
    const token = text.slice(i, j);
    if (/^-?\d+$/.test(token) && Math.abs(Number(token)) > MAX_SAFE) {
      out += text.slice(last, i) + Number(token).toExponential();
      last = j;
    }
    i = j - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Restores a proposed call of a strict-exported tool (see `restoreOptionalMembers`), looking the
 * definition up by the call's name. A call of an unregistered tool, or an assembled call that is
 * not complete, is returned as is (the same object), for `prepareToolCall` to refuse; so is a
 * call whose arguments the contract already admits with their nulls (nothing is dropped then).
 * @param registry - the registry whose definitions were exported with `strict: true`
 * @throws ToolError ERR_INVALID_DEFINITION as `restoreOptionalMembers` does
 */
export function restoreStrictToolCall<T extends ProviderToolCall | AssembledToolCall>(registry: Registry, call: T): T {
  const name = call?.request?.name;
  const args = call?.request?.arguments;
  if (typeof name !== 'string' || typeof args !== 'string') return call;
  if ((call as Partial<AssembledToolCall>).complete === false) return call;
  const binding = registry.resolve(name);
  if (binding === undefined) return call;
  const restored = restoreOptionalMembers(binding.contract.definition(), args);
  if (restored === args) return call;
  // A null the contract itself admits is kept: the restore only exists to turn a strict-mode null
  // into "absent", and must never drop a member the schema accepts (for instance behind a $ref the
  // restore cannot follow). prepare has no side effects; its Invocation is discarded.
  if (admits(binding, call.request)) return call;
  return { ...call, request: { name, arguments: restored } };
}

function admits(binding: Binding, request: Request): boolean {
  try {
    binding.contract.prepare(request);
    return true;
  } catch {
    return false;
  }
}

/** Removes optional nulls in place; true when anything was removed. Iterative (no deep recursion). */
function dropOptionalNulls(value: JsonObject, root: JsonObject): boolean {
  let dropped = false;
  const stack: Array<{ value: JsonValue; schema: JsonValue | undefined }> = [{ value, schema: root }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: JsonValue; schema: JsonValue | undefined };
    const schema = followRefs(item.schema, root);
    if (schema === undefined) continue;
    if (isJsonObject(item.value) && isJsonObject(schema.properties)) {
      const required = Array.isArray(schema.required) ? schema.required : [];
      const object = item.value;
      for (const name of Object.keys(object)) {
        if (!Object.prototype.hasOwnProperty.call(schema.properties, name)) continue;
        const member = schema.properties[name];
        if (object[name] === null && !required.includes(name) && !acceptsNull(member, root)) {
          delete object[name];
          dropped = true;
        } else {
          stack.push({ value: object[name], schema: member });
        }
      }
    } else if (Array.isArray(item.value) && isJsonObject(schema.items)) {
      for (const element of item.value) stack.push({ value: element, schema: schema.items });
    }
  }
  return dropped;
}

function followRefs(schema: JsonValue | undefined, root: JsonObject): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; isJsonObject(node) && typeof node.$ref === 'string' && !isJsonObject(node.properties); hops++) {
    if (hops >= MAX_REF_HOPS) return undefined;
    node = resolveLocalRef(root, node.$ref);
  }
  return isJsonObject(node) ? node : undefined;
}
