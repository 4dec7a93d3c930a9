/**
 * InputRequest → MCP form elicitation (`elicitation/create`). MCP's `requestedSchema` is a
 * restricted JSON Schema: one flat object whose properties are strings, numbers, integers,
 * booleans or enums. This module maps what fits, refuses clearly what does not, and turns the
 * client's answer back into the JSON text `InputRequest.continuation` checks.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from '../protocol';
import { jsonPointer } from '../protocol/json';
import { ANSWER_RULE, FORM_RULE, fieldTypeNotInForm, formRefused, keywordNotInForm } from './messages';

/** MCP's `requestedSchema`: a flat object schema of primitive properties. */
export type McpRequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** A response schema mapped onto an MCP form. */
export interface ElicitationForm {
  /** What `elicitation/create` sends as `requestedSchema`. */
  readonly requestedSchema: McpRequestedSchema;
  /**
   * The answer JSON text for `InputRequest.continuation`, from the `content` of an accepted
   * elicitation. A response schema that is not an object was asked for as the one field `value`;
   * its answer is that field's value (`null` when it is missing, which the schema then refuses).
   */
  answer(content: Readonly<Record<string, unknown>> | undefined): string;
}

/** The field a non-object response schema is asked for under. */
export const WRAPPED_FIELD = 'value';

const TOP_LEVEL = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'properties',
  'required',
  'additionalProperties',
]);
const COMMON = ['title', 'description'];
const BY_TYPE: Record<string, readonly string[]> = {
  string: [...COMMON, 'minLength', 'maxLength', 'format', 'default', 'enum', 'oneOf', 'enumNames'],
  number: [...COMMON, 'minimum', 'maximum', 'default'],
  integer: [...COMMON, 'minimum', 'maximum', 'default'],
  boolean: [...COMMON, 'default'],
  array: [...COMMON, 'minItems', 'maxItems', 'items', 'default'],
};
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * Maps an InputRequest's response schema onto an MCP form.
 *
 * - An object schema (`type: "object"`) with `properties` maps property by property; top-level
 *   `title`, `description`, `required` are kept; `$schema`, `$id` and `additionalProperties` are
 *   dropped (the form only ever sends the listed fields).
 * - Each property must be one of: `type` `string` (with `minLength`, `maxLength`, `format` email /
 *   uri / date / date-time, `enum` of strings, titled `oneOf` of `const`s), `number` / `integer`
 *   (`minimum`, `maximum`), `boolean`, an `enum` of strings without `type`, or a multi-select
 *   `array` whose `items` is a string enum (or titled `anyOf` of `const`s). `title`,
 *   `description` and a `default` of the right type are kept.
 * - A schema that is itself such a primitive (`{"type":"boolean"}`, a string enum, ...) is asked
 *   for as one required field named `value`, and the answer is that field's value.
 * - Narrowing keywords a form cannot show (`pattern`, other formats, `multipleOf`,
 *   `exclusiveMinimum`, ...) are left out of the form and still enforced: the answer is always
 *   checked against the full response schema by `InputRequest.continuation`.
 * @param responseSchema - `InputRequest.responseSchema`
 * @throws ToolError ERR_INVALID_INPUT_REQUEST naming the keyword or property (JSON Pointer) that
 *   MCP elicitation cannot express: nested objects, arrays of anything but string enums, `$ref`,
 *   any top-level keyword beyond those listed (combinators `oneOf`, `anyOf`, `allOf`, `not`, `if`
 *   included; inside a property they are left out of the form and enforced on the answer), union
 *   `type`s, boolean schemas
 */
export function elicitationForm(responseSchema: JsonValue): ElicitationForm {
  const schema = asObject(responseSchema, '');
  if (schema.type !== 'object') {
    const field = primitive(schema, '');
    return {
      requestedSchema: { type: 'object', properties: { [WRAPPED_FIELD]: field }, required: [WRAPPED_FIELD] },
      answer: (content) => JSON.stringify(content?.[WRAPPED_FIELD] ?? null),
    };
  }
  for (const key of Object.keys(schema)) {
    if (!TOP_LEVEL.has(key)) refuse('', keywordNotInForm(key));
  }
  const properties = asObject((schema.properties ?? {}) as JsonValue, '/properties');
  const mapped: Record<string, McpRequestedSchema['properties'][string]> = {};
  for (const [name, value] of Object.entries(properties)) {
    const where = jsonPointer(['properties', name]);
    mapped[name] = primitive(asObject(value, where), where);
  }
  const requestedSchema: McpRequestedSchema = { type: 'object', properties: mapped };
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === 'string'))
      refuse('/required', FORM_RULE.required);
    requestedSchema.required = [...(schema.required as string[])];
  }
  return { requestedSchema, answer: (content) => JSON.stringify(content ?? {}) };
}

/**
 * An elicitation result as the client sent it: accepted with its `content` (an object, or absent),
 * declined, dismissed, or not a result at all (`refusal` says why). @internal
 */
export type ElicitationAnswer =
  | {
      readonly action: 'accept';
      readonly content: Readonly<Record<string, unknown>> | undefined;
      readonly refusal?: undefined;
    }
  | { readonly action: 'decline' | 'cancel'; readonly refusal?: undefined }
  | { readonly action?: undefined; readonly refusal: string };

/**
 * Reads an elicitation result (`{ action, content? }`) as the message carries it, for both flows
 * (the answer to `elicitation/create`, and a 2026-07-28 retry's `inputResponses.input`). Not the
 * SDK's Zod-parsed copy (ElicitResultSchema): it drops an own `__proto__` member of `content`, so the
 * response schema never saw it and took the rest, and it refuses values a form field cannot hold
 * before the response schema can say why, which failed the call (hostile review). Here `content` is
 * kept as sent, for `InputRequest.continuation` to judge; a result whose shape is wrong (not an
 * object, an action other than accept, decline, cancel, accepted content that is not an object) is
 * not an answer: its `refusal`, like the response schema's, is the reason the question is asked
 * again. Other members (`_meta`) are ignored. @internal
 */
export function readElicitationResult(result: unknown): ElicitationAnswer {
  if (!isObject(result)) return { refusal: ANSWER_RULE.notObject };
  const { action, content } = result;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') return { refusal: ANSWER_RULE.action };
  if (content !== undefined && !isObject(content)) return { refusal: ANSWER_RULE.content };
  return { action, content };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The human-readable message of an elicitation: a JSON string prompt as is, any other prompt as its JSON text. */
export function elicitationMessage(prompt: string): string {
  const value: unknown = JSON.parse(prompt);
  return typeof value === 'string' ? value : prompt;
}

type Property = McpRequestedSchema['properties'][string];

function primitive(schema: Record<string, JsonValue>, where: string): Property {
  const type = schema.type ?? (isStringEnum(schema.enum) ? 'string' : undefined);
  if (typeof type !== 'string' || BY_TYPE[type] === undefined) {
    refuse(where, fieldTypeNotInForm(schema.type ?? null));
  }
  const out: Record<string, JsonValue> = { type };
  for (const key of BY_TYPE[type]) {
    if (schema[key] !== undefined) out[key] = copy(schema[key]);
  }
  if (type === 'string') {
    if (out.enum !== undefined && !isStringEnum(out.enum)) refuse(where, FORM_RULE.enum);
    if (out.oneOf !== undefined && !isTitledConsts(out.oneOf)) refuse(where, FORM_RULE.oneOf);
    if (typeof out.format === 'string' && !FORMATS.has(out.format)) delete out.format;
  }
  if (type === 'array') {
    const items = asObject((schema.items ?? null) as JsonValue, `${where}/items`);
    const single = items.type === 'string' && isStringEnum(items.enum);
    if (!single && !isTitledConsts(items.anyOf)) refuse(`${where}/items`, FORM_RULE.multiSelect);
    out.items = single ? { type: 'string', enum: copy(items.enum) } : { anyOf: copy(items.anyOf as JsonValue) };
  }
  if (out.default !== undefined && !defaultFits(type, out.default)) delete out.default;
  return out as unknown as Property;
}

function defaultFits(type: string, value: JsonValue): boolean {
  if (type === 'array') return Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (type === 'integer') return typeof value === 'number';
  return typeof value === type;
}

function isStringEnum(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
}

function isTitledConsts(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (v) => typeof v === 'object' && v !== null && typeof v.const === 'string' && typeof v.title === 'string',
    )
  );
}

function asObject(value: JsonValue, where: string): Record<string, JsonValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refuse(where, FORM_RULE.notObject);
  }
  if (typeof value.$ref === 'string') refuse(where, FORM_RULE.ref);
  return value as Record<string, JsonValue>;
}

function refuse(where: string, rule: string): never {
  throw formRefused(where, rule);
}

/** A deep copy of a JSON value (already validated JSON data, so the round trip is exact). */
function copy<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
