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
 * A tool's definition.
 * - `name`: `^[A-Za-z0-9_-]{1,64}$` (ASCII letters, digits, `_`, `-`; 1 to 64 characters).
 * - `description`: free text shown to the model (optional, valid Unicode, no length limit).
 * - `inputSchema`: a JSON Schema object whose top-level `type` is `"object"`, at most
 *   MAX_INPUT_BYTES UTF-8 bytes as compact JSON. Member order is kept as authored (docs/architecture.md section 3.6).
 * Wire JSON: `{"name": ..., "description": ..., "input_schema": {...}}` (description omitted when empty).
 */
export interface Definition {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
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
 * input schema present, a JSON object, top-level `type` exactly `"object"`. A snapshot this function
 * returned earlier is returned as is (it is immutable and already valid: no copy, no re-validation).
 * Ports Definition.Validate.
 * @throws ToolError ERR_INVALID_DEFINITION naming the rule that failed
 */
export function snapshotDefinition(definition: unknown): Definition {
  if (isDefinitionSnapshot(definition)) return definition;
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolError('ERR_INVALID_DEFINITION', 'definition must be an object { name, description?, inputSchema }');
  }
  const { name, description, inputSchema } = definition as Record<string, unknown>;
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
  const data = toJsonData(inputSchema);
  if (!data.ok || !isJsonObject(data.value)) {
    const why = data.ok ? '' : ` (${data.reason})`;
    throw new ToolError('ERR_INVALID_DEFINITION', `tool ${goQuote(name)}: input schema must be a JSON object${why}`);
  }
  if (utf8Length(data.text) > MAX_INPUT_BYTES) {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `tool ${goQuote(name)}: input schema exceeds ${MAX_INPUT_BYTES} bytes`,
    );
  }
  if (data.value.type !== 'object') {
    throw new ToolError(
      'ERR_INVALID_DEFINITION',
      `tool ${goQuote(name)}: input schema type must be "object"; tool arguments are always one JSON object`,
    );
  }
  const snapshot: { name: string; description?: string; inputSchema: JsonObject } = { name, inputSchema: data.value };
  if (description !== undefined && description !== '') snapshot.description = description;
  Object.freeze(snapshot);
  snapshots.add(snapshot);
  return snapshot;
}

/**
 * Validates a definition. Ports Definition.Validate.
 * @throws ToolError ERR_INVALID_DEFINITION naming the rule that failed
 */
export function validateDefinition(definition: unknown): asserts definition is Definition {
  snapshotDefinition(definition);
}

/**
 * Encodes a definition as wire JSON `{"name","description","input_schema"}` (description omitted
 * when empty), after validating it. Ports Definition.MarshalJSON.
 * @throws ToolError ERR_INVALID_DEFINITION when the definition is invalid
 */
export function encodeDefinition(definition: Definition): string {
  const snap = snapshotDefinition(definition);
  const schema = toJsonData(snap.inputSchema);
  const description = snap.description === undefined ? '' : `,"description":${JSON.stringify(snap.description)}`;
  return `{"name":${JSON.stringify(snap.name)}${description},"input_schema":${schema.ok ? schema.text : '{}'}}`;
}

/**
 * Decodes wire JSON into a deep-frozen Definition: RFC 7493 admission, no unknown members, then
 * validation. Ports Definition.UnmarshalJSON (strict, atomic).
 * @param wireJson - `{"name","description"?,"input_schema"}`, at most MAX_INPUT_BYTES UTF-8 bytes
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
    if (key !== 'name' && key !== 'description' && key !== 'input_schema') {
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `unknown member ${goQuote(key)}; expected name, description, input_schema`,
      );
    }
  }
  if (wire.description !== undefined && typeof wire.description !== 'string') {
    throw new ToolError('ERR_INVALID_DEFINITION', 'description must be a string');
  }
  return snapshotDefinition({ name: wire.name, description: wire.description, inputSchema: wire.input_schema });
}

/** JSON Schema (draft 2020-12) of the Definition wire form. Ports Definition.JSONSchemaModel. */
export const DEFINITION_SCHEMA: JsonObject = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: Object.freeze({
    name: Object.freeze({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    description: Object.freeze({ type: 'string' }),
    input_schema: Object.freeze({
      type: 'object',
      properties: Object.freeze({ type: Object.freeze({ const: 'object' }) }),
      required: Object.freeze(['type']),
    }),
  }),
  required: Object.freeze(['name', 'input_schema']),
  additionalProperties: false,
}) as unknown as JsonObject;
