/**
 * A property initializer becomes the member's `default`; a default that breaks the member's own
 * constraints (`@Min(5) low = 1`) would make the decoder refuse a call that left the member out,
 * blaming the model for a value it never sent. Generation refuses it instead.
 * @internal
 */
import { compileSchemaValue } from '../protocol';
import type { JsonValue } from '../protocol';
import type { SchemaObject } from './manifest';

/** Calls `fail` once per member (at any depth of inlined objects) whose default its schema refuses. */
export function checkDefaults(schema: SchemaObject, dtoName: string, fail: (message: string) => void): void {
  const stack: Array<{ node: SchemaObject; path: string }> = [{ node: schema, path: dtoName }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const properties = node['properties'];
    if (properties === null || typeof properties !== 'object') continue;
    for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      const member = value as SchemaObject;
      const where = `${path}.${name}`;
      if ('default' in member) {
        const message = refusal(member);
        if (message !== undefined) {
          fail(`${where}: the default ${JSON.stringify(member['default'])} breaks the member's own constraints (${message}); change the initializer or the constraint`);
        }
      }
      stack.push({ node: member, path: where });
    }
  }
}

/** The first issue the member's schema (without its default) reports for the default, if any. */
function refusal(member: SchemaObject): string | undefined {
  const { default: value, ...rest } = member;
  let compiled;
  try {
    compiled = compileSchemaValue(rest);
  } catch {
    return undefined; // a $ref into the root's $defs: checked by the decoder at run time instead
  }
  const issues = compiled.validate(value as JsonValue);
  return issues.length === 0 ? undefined : issues[0].message.replace(/^\(root\): /, '');
}
