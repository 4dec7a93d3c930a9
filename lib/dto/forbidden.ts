/**
 * The raw scan that runs before class-transformer touches a value: `__proto__`, `constructor` and
 * `prototype` are refused as member names anywhere, free-form values (`Record<string, T>`,
 * `@IsObject()`) included (docs/architecture.md section 4 rule 1). Iterative, so depth cannot overflow it.
 */
import type { AdmissionIssue } from '../protocol';
import { FORBIDDEN_MEMBERS, PROTOTYPE_MEMBER_NAMES } from './contract-rules';
import { forbiddenMember, prototypeProperty } from './messages';

/** The shared lists, kept importable from here (lib/dto/contract-rules.ts owns them). */
export { FORBIDDEN_MEMBERS, PROTOTYPE_MEMBER_NAMES };

/**
 * Why `property` of `className` is refused, or undefined: the text both the decoder (at bind) and
 * the generator report. @internal
 */
export function prototypePropertyProblem(className: string, property: string): string | undefined {
  if (!PROTOTYPE_MEMBER_NAMES.has(property)) return undefined;
  return prototypeProperty(className, property, FORBIDDEN_MEMBERS.has(property));
}

interface Node {
  readonly value: unknown;
  readonly parent: Node | undefined;
  readonly key: string | number | undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let n: Node | undefined = node; n !== undefined && n.key !== undefined; n = n.parent) path.push(n.key);
  return path.reverse();
}

/**
 * Finds the first forbidden member name in `value` (depth first), or undefined.
 * Bounded by the size of the value; never recursive; never throws on JSON values.
 * @internal
 */
export function findForbiddenMember(value: unknown): AdmissionIssue | undefined {
  // Every call's arguments pass here and nearly none holds a forbidden name: the scan keeps no
  // paths, and only a value that holds one is walked again to say where.
  return holdsForbiddenMember(value) ? locateForbiddenMember(value) : undefined;
}

/** Whether a forbidden member name occurs anywhere in `value` (the containers only are stacked). */
function holdsForbiddenMember(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as Record<string, unknown>;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
      continue;
    }
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (FORBIDDEN_MEMBERS.has(key)) return true;
      const member = v[key];
      if (member !== null && typeof member === 'object') stack.push(member);
    }
  }
  return false;
}

/** The issue of the first forbidden member name in `value` (depth first), with its path. */
function locateForbiddenMember(value: unknown): AdmissionIssue | undefined {
  const stack: Node[] = [{ value, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: node, key: i });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      if (FORBIDDEN_MEMBERS.has(key)) {
        return {
          code: 'forbidden_member',
          path: [...pathOf(node), key],
          message: forbiddenMember(key),
        };
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (v as Record<string, unknown>)[keys[i]], parent: node, key: keys[i] });
    }
  }
  return undefined;
}
