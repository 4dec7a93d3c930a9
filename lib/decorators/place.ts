/**
 * Where a decorator was applied, for its error messages (`NotesTools.createNote`). @internal
 */
export function placeOf(target: object, key?: string | symbol): string {
  const cls = typeof target === 'function' ? target : (target as { constructor?: Function }).constructor;
  const className = (cls as { name?: string } | undefined)?.name || '(anonymous class)';
  return key === undefined ? className : `${className}.${String(key)}`;
}
