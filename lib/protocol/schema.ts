/**
 * JSON Schema compilation: Ajv (draft 2020-12 by default, draft-07 by `$schema`), formats asserted,
 * no remote `$ref`, compiled once and cached.
 *
 * STUB (interface fixed, implementation naive): to be replaced by the real implementation.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { AdmissionIssue } from './errors';
import { ToolError } from './errors';
import type { JsonValue } from './json';
import { admitJson } from './json';

/** A compiled, immutable JSON Schema. */
export class CompiledSchema {
  /** The schema value as authored (member order kept), deep-frozen. */
  readonly value: JsonValue;
  readonly #validate: (v: unknown) => boolean;
  readonly #errors: () => unknown[];

  /** @internal use compileSchema */
  constructor(value: JsonValue, validate: (v: unknown) => boolean, errors: () => unknown[]) {
    this.value = value;
    this.#validate = validate;
    this.#errors = errors;
  }

  /** Validates an admitted JSON value; returns the issues, empty when valid. Never throws. */
  validate(value: JsonValue): readonly AdmissionIssue[] {
    if (this.#validate(value)) return [];
    return this.#errors().map((e) => {
      const err = e as { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };
      const path = err.instancePath === '' ? [] : err.instancePath.slice(1).split('/');
      return { code: 'schema' as const, path, message: err.message ?? err.keyword, keyword: err.keyword, params: err.params };
    });
  }
}

/**
 * Compiles a JSON Schema given as JSON text.
 * @throws ToolError ERR_INVALID_SCHEMA (`jsonschema: invalid schema: <reason>`)
 */
export function compileSchema(text: string): CompiledSchema {
  const admitted = admitJson(text);
  if (!admitted.ok) throw new ToolError('ERR_INVALID_SCHEMA', 'document is not valid RFC 7493 JSON');
  return compileSchemaValue(admitted.value);
}

/**
 * Compiles a JSON Schema given as a value (object or boolean).
 * @throws ToolError ERR_INVALID_SCHEMA
 */
export function compileSchemaValue(value: unknown): CompiledSchema {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  try {
    const fn = ajv.compile(value as object);
    return new CompiledSchema(value as JsonValue, (v) => fn(v) as boolean, () => fn.errors ?? []);
  } catch (e) {
    throw new ToolError('ERR_INVALID_SCHEMA', String((e as Error).message), { cause: e });
  }
}
