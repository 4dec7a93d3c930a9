import { standardDecorator } from './messages';

/**
 * Where a decorator was applied, for its error messages (`NotesTools.createNote`). @internal
 */
export function placeOf(target: object, key?: string | symbol): string {
  const cls = typeof target === 'function' ? target : (target as { constructor?: Function }).constructor;
  const className = (cls as { name?: string } | undefined)?.name || '(anonymous class)';
  return key === undefined ? className : `${className}.${String(key)}`;
}

/**
 * Refuses a call as a standard (TC39) decorator, whose second argument is a context object with a
 * `kind` (an experimental decorator gets a property key or nothing there).
 * @throws ToolError ERR_INVALID_TOOL saying to set experimentalDecorators
 * @internal
 */
export function refuseStandardDecorator(decorator: string, second: unknown): void {
  if (typeof second !== 'object' || second === null) return;
  const context = second as { kind?: unknown; name?: unknown };
  if (typeof context.kind !== 'string') return;
  throw standardDecorator(decorator, typeof context.name === 'string' ? context.name : '(anonymous)');
}
