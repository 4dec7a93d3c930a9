/**
 * The model-visible description of a tool: name, description, input schema. Ports `Definition`,
 * `Definition.Validate`, its JSON wire form and `JSONSchemaModel`.
 */
import { ToolError, goQuote } from './errors';
import type { JsonObject } from './json';
import { MAX_INPUT_BYTES, admitJson, hasLoneSurrogate, utf8Length } from './json';
import { isJsonObject, toJsonData } from './json-data';
import { wireJsonRefused } from './messages';

/**
 * Hints about what a tool does, for clients and policies (MCP `ToolAnnotations`, 2025-06-18): hints
 * only, never a guarantee. Each member is optional; a policy can read them through
 * `Authorization.definition().annotations`.
 * - `readOnlyHint`: the tool does not change its environment.
 * - `destructiveHint`: the tool may perform destructive updates (meaningful when not read-only).
 * - `idempotentHint`: calling it again with the same arguments has no further effect.
 * - `openWorldHint`: the tool reaches entities outside the server (the web, other systems).
 */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** The ToolAnnotations members, in their wire order, with their wire (snake_case) names. */
const ANNOTATIONS: readonly (readonly [keyof ToolAnnotations, string])[] = [
  ['readOnlyHint', 'read_only_hint'],
  ['destructiveHint', 'destructive_hint'],
  ['idempotentHint', 'idempotent_hint'],
  ['openWorldHint', 'open_world_hint'],
];

/**
 * A tool's definition.
 * - `name`: `^[A-Za-z0-9_-]{1,64}$` (ASCII letters, digits, `_`, `-`; 1 to 64 characters).
 * - `description`: free text shown to the model (optional, valid Unicode, no length limit).
 * - `inputSchema`: a JSON Schema object whose top-level `type` is `"object"`, at most
 *   MAX_INPUT_BYTES UTF-8 bytes as compact JSON. Member order is kept as authored (docs/architecture.md section 3.6).
 * - `title` (added, no seed counterpart): a short name for people (MCP `title`); optional, valid Unicode.
 * - `outputSchema` (added): the JSON Schema of the tool's Output details: a JSON object, at most
 *   MAX_INPUT_BYTES (any top-level `type`: MCP 2026-07-28 allows an array; MCP 2025-11-25 lists
 *   only `"object"` output schemas, see lib/mcp/tools.ts). `bind` compiles it once and
 *   `Binding.call` checks every Output against it (ERR_OUTPUT_MISMATCH); MCP sends it as
 *   `outputSchema` with the details as `structuredContent`.
 * - `annotations` (added): ToolAnnotations; only its four members, each a boolean.
 * Wire JSON: `{"name", "title"?, "description"?, "input_schema", "output_schema"?, "annotations"?}`
 * (description and title omitted when empty; annotations with snake_case members `read_only_hint`,
 * `destructive_hint`, `idempotent_hint`, `open_world_hint`), docs/reference-semantics.md and
 * docs/architecture.md section 2.
 */
export interface Definition {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly title?: string;
  readonly outputSchema?: JsonObject;
  readonly annotations?: ToolAnnotations;
}

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Every snapshot this module produced. A snapshot is validated, frozen and holds only strings and a
 * deep-frozen, detached schema (from toJsonData), so it can never change or become invalid: taking
 * a snapshot of a snapshot returns it unchanged instead of copying it again. Frozen values need no
 * defensive copy, so sharing one keeps "a policy cannot change what is executed" (docs/architecture.md section 3.11).
 */
const snapshots = new WeakSet<object>();

/** Reports whether `value` is a snapshot produced by snapshotDefinition (frozen, valid). @internal */
export function isDefinitionSnapshot(value: unknown): value is Definition {
  return typeof value === 'object' && value !== null && snapshots.has(value);
}

/**
 * Validates a definition (shape only: the schema is compiled by bind) and returns a detached,
 * deep-frozen snapshot that keeps the authored member order. Order of checks: name, description,
 * input schema present, a JSON object, top-level `type` exactly `"object"`; then title, output schema
 * (a JSON object within MAX_INPUT_BYTES), annotations (only the four ToolAnnotations members, each a
 * boolean; empty annotations and an empty title are dropped). A snapshot this function
 * returned earlier is returned as is (it is immutable and already valid: no copy, no re-validation).
 * Ports Definition.Validate.
 * @throws ToolError ERR_INVALID_DEFINITION naming the rule that failed
 */
export function snapshotDefinition(definition: unknown): Definition {
  if (isDefinitionSnapshot(definition)) return definition;
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolError('ERR_INVALID_DEFINITION', 'definition must be an object { name, description?, inputSchema }');
  }
  const { name, description, inputSchema, title, outputSchema, annotations } = definition as Record<string, unknown>;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    const shown = typeof name === 'string' ? goQuote(name) : typeof name;
    throw new ToolError('ERR_INVALID_DEFINITION', `name ${shown} must match ^[A-Za-z0-9_-]{1,64}$`);
  }
  if (description !== undefined && (typeof description !== 'string' || hasLoneSurrogate(description))) {
    throw new ToolError('ERR_INVALID_DEFINITION', `tool ${goQuote(name)}: description must be valid UTF-8 text`);
  }
  if (inputSchema === undefined || inputSchema === null) {
    throw new ToolError('ERR_INVALID_DEFINITION', `tool ${goQuote(name)}: missing input schema`);
  }
  const snapshot: Mutable = { name, inputSchema: objectSchema(name, 'input', inputSchema) };
  if (description !== undefined && description !== '') snapshot.description = description;
  if (title !== undefined) {
    if (typeof title !== 'string' || hasLoneSurrogate(title)) {
      throw new ToolError('ERR_INVALID_DEFINITION', `tool ${goQuote(name)}: title must be valid UTF-8 text`);
    }
    if (title !== '') snapshot.title = title;
  }
  if (outputSchema !== undefined) snapshot.outputSchema = objectSchema(name, 'output', outputSchema);
  if (annotations !== undefined) {
    const checked = checkAnnotations(name, annotations);
    if (checked !== undefined) snapshot.annotations = checked;
  }
  Object.freeze(snapshot);
  snapshots.add(snapshot);
  return snapshot;
}

type Mutable = {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  title?: string;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
};

/** A schema member (`input` or `output`): a JSON object (of type "object" for input), at most MAX_INPUT_BYTES. */
function objectSchema(name: string, which: 'input' | 'output', schema: unknown): JsonObject {
  const data = toJsonData(schema);
  if (!data.ok || !isJsonObject(data.value)) {
    const why = data.ok ? '' : ` (${data.reason})`;
    throw new ToolError('ERR_INVALID_DEFINITION', `tool ${goQuote(name)}: ${which} schema must be a JSON object${why}`);
  }
  if (utf8Length(data.text) > MAX_INPUT_BYTES) {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `tool ${goQuote(name)}: ${which} schema exceeds ${MAX_INPUT_BYTES} bytes`,
    );
  }
  if (which === 'input' && data.value.type !== 'object') {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `tool ${goQuote(name)}: input schema type must be "object"; tool arguments are always one JSON object`,
    );
  }
  return data.value;
}

/** Checks annotations: an object with only the four ToolAnnotations members, each a boolean. Empty: undefined. */
function checkAnnotations(name: string, annotations: unknown): ToolAnnotations | undefined {
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `tool ${goQuote(name)}: annotations must be an object { readOnlyHint?, destructiveHint?, idempotentHint?, openWorldHint? }`,
    );
  }
  const given = annotations as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!ANNOTATIONS.some(([member]) => member === key)) {
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `tool ${goQuote(name)}: annotations: unknown member ${goQuote(key)}; expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint`,
      );
    }
  }
  const out: { -readonly [K in keyof ToolAnnotations]: boolean } = {};
  for (const [member] of ANNOTATIONS) {
    const value = given[member];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') {
      const got = value === null ? 'null' : typeof value;
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `tool ${goQuote(name)}: annotations.${member} is ${got}; it must be true or false`,
      );
    }
    out[member] = value;
  }
  return Object.keys(out).length === 0 ? undefined : Object.freeze(out);
}

/**
 * Validates a definition. Ports Definition.Validate.
 * @throws ToolError ERR_INVALID_DEFINITION naming the rule that failed
 */
export function validateDefinition(definition: unknown): asserts definition is Definition {
  snapshotDefinition(definition);
}

/**
 * Encodes a definition as wire JSON `{"name","title"?,"description"?,"input_schema","output_schema"?,
 * "annotations"?}` (description and title omitted when empty, annotations with snake_case members),
 * after validating it. Ports Definition.MarshalJSON.
 * @throws ToolError ERR_INVALID_DEFINITION when the definition is invalid
 */
export function encodeDefinition(definition: Definition): string {
  const snap = snapshotDefinition(definition);
  const text = (value: JsonObject): string => {
    const data = toJsonData(value);
    return data.ok ? data.text : '{}';
  };
  let wire = `{"name":${JSON.stringify(snap.name)}`;
  if (snap.title !== undefined) wire += `,"title":${JSON.stringify(snap.title)}`;
  if (snap.description !== undefined) wire += `,"description":${JSON.stringify(snap.description)}`;
  wire += `,"input_schema":${text(snap.inputSchema)}`;
  if (snap.outputSchema !== undefined) wire += `,"output_schema":${text(snap.outputSchema)}`;
  const hints = snap.annotations;
  if (hints !== undefined) {
    const members = ANNOTATIONS.filter(([m]) => hints[m] !== undefined).map(([m, w]) => `"${w}":${hints[m]}`);
    wire += `,"annotations":{${members.join(',')}}`;
  }
  return `${wire}}`;
}

/**
 * Decodes wire JSON into a deep-frozen Definition: RFC 7493 admission, no unknown members, then
 * validation. Ports Definition.UnmarshalJSON (strict, atomic).
 * @param wireJson - `{"name","title"?,"description"?,"input_schema","output_schema"?,"annotations"?}`, at most MAX_INPUT_BYTES UTF-8 bytes
 * @throws ToolError ERR_INVALID_DEFINITION on bad JSON, unknown or mistyped members, or an invalid definition
 */
export function decodeDefinition(wireJson: string): Definition {
  const admitted = admitJson(String(wireJson));
  if (!admitted.ok) {
    throw wireJsonRefused('ERR_INVALID_DEFINITION', admitted.issue);
  }
  const wire = admitted.value;
  if (!isJsonObject(wire)) throw new ToolError('ERR_INVALID_DEFINITION', 'wire JSON must be an object');
  for (const key of Object.keys(wire)) {
    if (!WIRE_MEMBERS.includes(key)) {
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `unknown member ${goQuote(key)}; expected ${WIRE_MEMBERS.join(', ')}`,
      );
    }
  }
  for (const key of ['description', 'title']) {
    if (wire[key] !== undefined && typeof wire[key] !== 'string') {
      throw new ToolError('ERR_INVALID_DEFINITION', `${key} must be a string`);
    }
  }
  let annotations: unknown = wire.annotations;
  if (isJsonObject(annotations)) {
    const hints: Record<string, unknown> = {};
    for (const key of Object.keys(annotations)) {
      const member = ANNOTATIONS.find(([, w]) => w === key);
      if (member === undefined) {
        const expected = ANNOTATIONS.map(([, w]) => w).join(', ');
        throw new ToolError(
          'ERR_INVALID_DEFINITION',
          `annotations: unknown member ${goQuote(key)}; expected ${expected}`,
        );
      }
      hints[member[0]] = annotations[key];
    }
    annotations = hints;
  }
  return snapshotDefinition({
    name: wire.name,
    description: wire.description,
    inputSchema: wire.input_schema,
    title: wire.title,
    outputSchema: wire.output_schema,
    annotations,
  });
}

const WIRE_MEMBERS = ['name', 'title', 'description', 'input_schema', 'output_schema', 'annotations'];

const OBJECT_SCHEMA = Object.freeze({
  type: 'object',
  properties: Object.freeze({ type: Object.freeze({ const: 'object' }) }),
  required: Object.freeze(['type']),
});

/** JSON Schema (draft 2020-12) of the Definition wire form. Ports Definition.JSONSchemaModel. */
export const DEFINITION_SCHEMA: JsonObject = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: Object.freeze({
    name: Object.freeze({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    description: Object.freeze({ type: 'string' }),
    title: Object.freeze({ type: 'string' }),
    input_schema: OBJECT_SCHEMA,
    output_schema: Object.freeze({ type: 'object' }),
    annotations: Object.freeze({
      type: 'object',
      properties: Object.freeze(
        Object.fromEntries(ANNOTATIONS.map(([, w]) => [w, Object.freeze({ type: 'boolean' })])),
      ),
      additionalProperties: false,
    }),
  }),
  required: Object.freeze(['name', 'input_schema']),
  additionalProperties: false,
}) as unknown as JsonObject;
