/**
 * Local `$ref`s of an input schema, resolved as the fast path (lib/dto/fast.ts) and the drift check
 * (lib/dto/drift.ts) both read them: `#` or a JSON Pointer into the same document (RFC 6901,
 * `#/$defs/Name`, `#/definitions/Name`), never a remote reference.
 * @internal
 */

/** A schema object: an object that is not an array. @internal */
export function isSchemaNode(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The schema object `ref` points to in `root` (`#` is the root itself), or undefined for a remote
 * reference, a pointer to nothing, or to something that is not a schema object.
 * @internal
 */
export function localRef(
  root: Readonly<Record<string, unknown>>,
  ref: string,
): Readonly<Record<string, unknown>> | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchemaNode(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return isSchemaNode(at) ? at : undefined;
}
