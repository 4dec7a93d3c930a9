/**
 * One `@Tool()` method as a protocol Tool: the manifest's definition, the DTO decoder as input
 * validator, and the method as the function of a FuncTool (abort check, decode, invoke with
 * `(input, ToolCall)`, encode the returned string / Output / InputRequest / JSON value).
 */
import { FuncTool, ToolError } from '../protocol';
import type {
  AdmissionIssue,
  CallOptions,
  DeadlineTool,
  Definition,
  Invocation,
  Result,
  Tool,
  WrappingTool,
} from '../protocol';
import { dtoInput, dtoWireNames, emptyInput } from '../dto';
import { constraintDrift, nestedMemberDrift } from '../dto/drift';
import type { DtoClass, DtoInput } from '../dto';
import { readParamTypes } from '../decorators';
import type { ManifestTool } from './manifest';
import {
  inputMismatch,
  inputNotAClass,
  noInputClass,
  staleClass,
  staleConstraint,
  staleInput,
  staleIssue,
  staleOutput,
  staleMembers,
  staleMethod,
  staleText,
  toolRefusedAtBind,
} from './messages';
import type { ScannedTool } from './scanner';

const NOT_DTO = new Set<unknown>([
  Object,
  String,
  Number,
  Boolean,
  Array,
  Date,
  Function,
  Promise,
  Map,
  Set,
  Symbol,
  BigInt,
]);

/**
 * The input DTO class of a tool method, or null when it takes no input: `@Tool({ input })` where
 * given, else `design:paramtypes[0]` (no parameter: null). Where both exist they must agree: the
 * manifest's input (scope-tool generate) is the parameter's declared type.
 * @throws ToolError ERR_INVALID_TOOL when neither exists, when they name different classes, or when
 *   the input is not a DTO class (an interface or primitive, whose run-time type is Object, String, ...)
 * @internal
 */
export function inputClassOf(tool: ScannedTool, place: string): DtoClass | null {
  const name = tool.metadata.name;
  const given = tool.metadata.input;
  const types = readParamTypes(tool.prototype, tool.methodName);
  if (types === undefined) {
    if (given === undefined) throw noInputClass(name, place);
    return given === null ? null : dtoClass(given, place);
  }
  const emitted = types.length === 0 ? null : dtoClass(types[0], place);
  if (given !== undefined && given !== emitted) {
    throw inputMismatch(name, place, given === null ? null : given.name, emitted === null ? null : emitted.name);
  }
  return emitted;
}

function dtoClass(value: unknown, place: string): DtoClass {
  if (typeof value !== 'function' || NOT_DTO.has(value)) {
    throw inputNotAClass(place, typeof value === 'function' ? value.name : String(value));
  }
  return value as DtoClass;
}

/** How a manifest entry no longer describes its tool: the tool's text (staleText) and one issue per finding. @internal */
export interface Staleness {
  readonly text: string;
  readonly issues: readonly AdmissionIssue[];
}

/**
 * Whether the manifest entry still describes the source: class, method, input DTO name, the
 * output DTO name `@Tool({ output })` gives, the DTO's wire member names against
 * `input_schema.properties` and, at every depth, its nested DTOs' member names against their object
 * schemas (lib/dto/drift.ts nestedMemberDrift; notes/CONTRACTS.md), and the constraints its
 * decorators declare (`@Max(100)`, `@Matches(/re/)`, `@IsIn([...])`, `@IsInt()`, ..., with
 * `each: true` and in nested DTOs) against the schema's keywords (`maximum: 50`, `type: string`;
 * lib/dto/drift.ts DRIFT_RULES), and the property initializers against the schema's `default`s.
 * The first of these that differs is reported, with every finding of it.
 * @returns undefined when the entry is up to date, else what differs (createRegistry throws
 *   ERR_INVALID_TOOL: `the manifest is stale: ...; run scope-tool generate`)
 * @throws ToolError ERR_INVALID_TOOL when the DTO itself is refused (see planOf)
 * @internal
 */
export function checkEntry(
  entry: ManifestTool,
  cls: Function,
  tool: ScannedTool,
  dto: DtoClass | null,
  place: string,
): Staleness | undefined {
  const name = tool.metadata.name;
  const stale = (what: string, members: readonly string[] = []): Staleness => {
    const text = staleText(name, place, what);
    const issues =
      members.length === 0 ? [staleIssue(name, place, text)] : members.map((m) => staleIssue(name, place, text, m));
    return { text, issues };
  };
  if (entry.source.class !== cls.name) return stale(staleClass(entry.source.class, cls.name));
  if (entry.source.method !== tool.methodName) return stale(staleMethod(entry.source.method, tool.methodName));
  const input = dto === null ? null : dto.name;
  if (entry.source.input !== input) return stale(staleInput(input, entry.source.input));
  const output = tool.metadata.output;
  if (output !== undefined && entry.source.output !== output.name) {
    return stale(staleOutput(output.name, entry.source.output));
  }
  const schema = entry.definition.input_schema;
  const props = schema.properties;
  const inManifest = props !== null && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
  const inSource = dto === null ? [] : dtoWireNames(dto);
  // Regression (second new-user trial, finding 7a): a nested member removed or added passed start-up.
  const nestedDrift = dto === null ? [] : nestedMemberDrift(dto, schema);
  const missing = [
    ...inSource.filter((p) => !inManifest.includes(p)),
    ...nestedDrift.filter((d) => d.side === 'source').map((d) => d.member),
  ];
  const extra = [
    ...inManifest.filter((p) => !inSource.includes(p)),
    ...nestedDrift.filter((d) => d.side === 'manifest').map((d) => d.member),
  ];
  if (missing.length > 0 || extra.length > 0) {
    const text = staleText(name, place, staleMembers(input, missing, extra));
    const issues = [
      ...missing.map((m) => staleIssue(name, place, staleText(name, place, staleMembers(input, [m], [])), m)),
      ...extra.map((m) => staleIssue(name, place, staleText(name, place, staleMembers(input, [], [m])), m)),
    ];
    return { text, issues };
  }
  if (dto === null) return undefined;
  const drift = constraintDrift(dto, schema, entry.mergedBounds);
  if (drift.length === 0) return undefined;
  return {
    text: staleText(name, place, drift.map(staleConstraint).join('; ')),
    issues: drift.map((d) => staleIssue(name, place, staleText(name, place, staleConstraint(d)), d.member)),
  };
}

/**
 * A method tool with a deadline (`@Tool({ timeoutMs })`, or createRegistry's `timeoutMs`): a
 * DeadlineTool that bind reads through the Guards around it (lib/protocol/deadline.ts). It only
 * forwards; capabilities (the input validator) resolve through `unwrap()`.
 */
class TimedTool implements Tool, WrappingTool, DeadlineTool {
  readonly #inner: Tool;
  readonly #timeoutMs: number;

  constructor(inner: Tool, timeoutMs: number) {
    this.#inner = inner;
    this.#timeoutMs = timeoutMs;
    Object.freeze(this);
  }

  definition(): Definition {
    return this.#inner.definition();
  }

  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    return this.#inner.call(invocation, options);
  }

  unwrap(): Tool {
    return this.#inner;
  }

  timeoutMs(): number {
    return this.#timeoutMs;
  }
}

/**
 * The FuncTool of one method of `instance`. The method receives the decoded input and a frozen
 * ToolCall `{ signal, context, continuation }`; what it throws (Failure, CallError, anything)
 * passes through unchanged. Its deadline: `@Tool({ timeoutMs })`, else `defaultTimeoutMs` (ms),
 * else none declared (the binding's default applies).
 * @internal
 */
export function methodTool(
  instance: object,
  tool: ScannedTool,
  entry: ManifestTool,
  dto: DtoClass | null,
  defaultTimeoutMs?: number,
): Tool {
  const inputSchema = entry.definition.input_schema;
  let input: DtoInput<object>;
  try {
    input = dto === null ? emptyInput({ inputSchema }) : dtoInput(dto, { inputSchema });
  } catch (e) {
    // Name the tool: dtoInput names only the DTO.
    if (!(e instanceof ToolError)) throw e;
    throw toolRefusedAtBind(entry.name, `${tool.prototype.constructor.name}.${tool.methodName}`, e);
  }
  const method = tool.method;
  const { title, annotations } = tool.metadata;
  const outputSchema = entry.definition.output_schema;
  const func = FuncTool.create(
    {
      name: entry.name,
      description: entry.definition.description,
      inputSchema,
      decode: input.decode,
      ...(title === undefined ? {} : { title }),
      ...(annotations === undefined ? {} : { annotations }),
      ...(outputSchema === undefined ? {} : { outputSchema }),
    },
    (value, call) => method.call(instance, value, call) as unknown,
  );
  const timeoutMs = tool.metadata.timeoutMs ?? defaultTimeoutMs;
  return timeoutMs === undefined ? func : new TimedTool(func, timeoutMs);
}
