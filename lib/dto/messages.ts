/**
 * The DTO layer's texts, worded in one place: the ERR_INVALID_TOOL refusals of a DTO class at bind
 * (dtoInput, planOf) and the messages of the admission issues the decoder raises (an issue's `code`,
 * `constraint` and `path` say what failed; its message says it to the model). The texts of the
 * constraints scope-tool checks itself (lib/dto/overrides.ts) follow class-validator's default
 * messages (enum values JSON-quoted), so a model sees one voice whichever side judged. spec/dto/messages.spec.ts pins each sentence once;
 * other specs assert codes, paths and constraints.
 * @internal
 */
import { ToolError } from '../protocol';
import { DATE_TIME_TEXT } from '../protocol/formats';

/** A name in double quotes, as written (not escaped: the texts predate this module and stay as they were). */
const quote = (name: string): string => `"${name}"`;

// --- bind: a DTO class the decoder cannot run (ERR_INVALID_TOOL) -----------------------------

/** dtoInput was given something other than a class. */
export function dtoNotClass(): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    'dtoInput(): the DTO must be a class; pass the class itself, not an instance',
  );
}

/**
 * Why `property` of `className`, a member of Object.prototype, is refused: the text both the decoder
 * (at bind) and the generator report. `forbidden`: the name is also refused as a wire name
 * (FORBIDDEN_MEMBERS), so `@Expose` cannot keep it.
 */
export function prototypeProperty(className: string, property: string, forbidden: boolean): string {
  const keep = forbidden
    ? `(the wire name ${quote(property)} is refused in every argument too)`
    : `and keep the wire name with @Expose({ name: '${property}' }) if the model must see it`;
  return (
    `${className}.${property}: the property name ${quote(property)} is a member of Object.prototype, and class-validator ` +
    `groups a DTO's constraints by property name in a plain object, so every call would fail; rename the property ${keep}`
  );
}

/** Two properties of `className` have the wire name `wire`. */
export function wireNameTaken(className: string, property: string, wire: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className}.${property}: wire name ${quote(wire)} is used by two properties; give each a distinct @Expose({ name })`,
  );
}

/** `className.property` holds the DTO class `nested` (an array of them: `array`) without @ValidateNested(). */
export function nestedWithoutValidation(
  className: string,
  property: string,
  nested: string,
  array: boolean,
): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className}.${property}: holds the DTO class ${nested} without @ValidateNested(), so class-validator ` +
      `does not check the members of ${nested} and the decoder would skip their checks; add @ValidateNested(${array ? '{ each: true }' : ''})`,
  );
}

/** The constructor of `className` throws when called without arguments (`reason`: what it threw). */
export function constructorThrows(className: string, reason: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className}: the constructor throws when called without arguments (${reason}), and the decoder builds every DTO ` +
      `with new ${className}(); a DTO must be constructible without arguments (make its parameters optional or remove the constructor)`,
  );
}

/** `className` has `properties` (the first five are named) but class-validator holds no metadata for it. */
export function noMetadata(className: string, properties: readonly string[]): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className} has properties (${properties.slice(0, 5).join(', ')}) but class-validator holds no metadata for it; ` +
      'decorate each member (for example @IsString()), and if it is decorated, two copies of class-validator are ' +
      'likely installed (run `npm ls class-validator` and deduplicate it)',
  );
}

/** The constraint `constraint` on `className.property` is asynchronous. */
export function asyncConstraint(className: string, property: string, constraint: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className}.${property}: constraint ${quote(constraint)} is asynchronous, but tool admission is synchronous; ` +
      'make the constraint synchronous, or check it inside the tool method and throw a Failure',
  );
}

/** The `@Matches` pattern of `className.property` cannot run on RE2 (`reason`: lib/protocol/regex.ts's text). */
export function matchesNotLinear(className: string, property: string, reason: string): ToolError {
  return new ToolError(
    'ERR_INVALID_TOOL',
    `${className}.${property}: @Matches ${reason}; the decoder runs every @Matches on RE2 (linear time), as the input schema does`,
  );
}

// --- admission: the messages of the decoder's issues ----------------------------------------

/** The value is not a JSON object (constraint `type`); `received`: its JSON kind, when named. */
export function notObject(received?: string): string {
  return received === undefined ? 'must be an object' : `must be an object, received ${received}`;
}

/** The value's JSON kind is `received` where `expected` (`a string`, `an array`, ...) was declared. */
export function kindMismatch(expected: string, received: string): string {
  return `must be ${expected}, received ${received}`;
}

/** A Date member did not get an RFC 3339 date-time string; `received`: `another string` or its JSON kind. */
export function notDateTime(received: string): string {
  return `must be ${DATE_TIME_TEXT}, received ${received}`;
}

/** What notDateTime says was received for a date-time whose UTC instant lies outside the years 0000-9999. */
export const DATE_OUT_OF_YEARS = 'a date-time whose UTC instant falls outside the years 0000-9999';

/** A required member is absent (constraint `isDefined`). */
export const REQUIRED = 'is required';

/** A member is null where null is refused; `optional`: the member may be omitted instead. */
export function notNull(optional = false): string {
  return `must not be null${optional ? '; omit the member instead' : ''}`;
}

const moreUnknown = (total: number): string => (total > 1 ? ` (and ${total - 1} more unknown members)` : '');

/** `total` unknown members, the first `first`, sent to a tool that takes no arguments. */
export function unknownMemberOfEmpty(first: string, total: number): string {
  return `unknown member ${quote(first)}${moreUnknown(total)}; this tool takes no arguments, send {}`;
}

/**
 * `total` unknown members, the first `first`, in an object of `className`, which accepts `accepted`
 * (`more`: it accepts others not listed).
 */
export function unknownMember(
  first: string,
  total: number,
  className: string,
  accepted: readonly string[],
  more: boolean,
): string {
  const names = accepted.length === 0 ? 'no members' : accepted.join(', ') + (more ? ', ...' : '');
  return `unknown member ${quote(first)}${moreUnknown(total)}; remove it (${className} accepts ${names})`;
}

/** `className` objects nest deeper than `max` levels (issue `too_deep`). */
export function dtoTooDeep(className: string, max: number): string {
  return `${className} objects nest more than ${max} levels deep here; send a shallower value`;
}

/** A member name refused at every depth (issue `forbidden_member`). */
export function forbiddenMember(key: string): string {
  return `member ${quote(key)} is not allowed anywhere in the arguments; rename it`;
}

/** The last line of a decoder error that kept some issues and only counted `hidden` more. */
export function moreIssues(hidden: number): string {
  return `(${hidden} more issues not shown)`;
}

/**
 * The texts of the constraints scope-tool checks itself (lib/dto/overrides.ts), as class-validator's
 * default messages word them without the property name (enum values JSON-quoted); `each value ` is
 * prefixed for an `each: true` record.
 */
export const CONSTRAINT_TEXT = {
  eachPrefix: 'each value ',
  maxDecimalPlaces: 'must be a number conforming to the specified constraints',
  notString: 'must be a string',
  matches: (pattern: string): string => `must match ${pattern} regular expression`,
  isEnum: (values: readonly unknown[]): string =>
    `must be one of the following values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  tooShort: (min: number): string => `must be longer than or equal to ${min} characters`,
  tooLong: (max: number): string => `must be shorter than or equal to ${max} characters`,
} as const;
