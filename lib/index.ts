/**
 * `scope-tool`, the main entry: the trust boundary between a language model and the code it may run.
 *
 * It exports the protocol (the port of the Go `tool` package: Contract, Binding, Guard, Registry,
 * FuncTool, ...), strict DTO inputs (`dtoInput`), the container that turns decorated toolsets into a
 * Registry (`createRegistry`), and the provider-neutral steps every provider shares: a proposed call
 * (`ProviderToolCall`, `AssembledToolCall`), its admission (`prepareToolCall`), its rendering for the
 * model (`renderOutcome`, `ToolOutcome`), the types every tools export returns (`ToolsExport`,
 * `KeywordNote`) and the Server-Sent Events reader that replays recorded streams into an assembler.
 *
 * Other entries: `scope-tool/openai`, `scope-tool/anthropic`, `scope-tool/gemini` (one per provider's
 * wire format, lib/openai.ts, lib/anthropic.ts, lib/gemini.ts), `scope-tool/decorators` (`Toolset`,
 * `Tool`, `Authorize`: the decorator `Tool` never shadows the protocol interface `Tool`),
 * `scope-tool/nest` and `scope-tool/mcp`.
 *
 * Every name is listed: helpers tagged `@internal` (`markRefusal`: only admission may mark an error
 * as the model's to fix) stay out of every entry, and spec/package/entries.spec.ts pins each list.
 * Names a user never needs stay in lib/protocol: the checks Binding and Contract run themselves
 * (`validateRequest`, `validateResult`, the I-JSON reader `admitJson` and its `JsonAdmission`), the
 * port of Go's `errors.Is` (`isError`), the wrapper bound (`MAX_WRAPPERS`) and the dialect URIs
 * (`DRAFT_07`, `DRAFT_2020_12`).
 */
export {
  Authorization,
  AuthorizationError,
  Binding,
  CallError,
  CompiledSchema,
  Continuation,
  Contract,
  DEFAULT_TIMEOUT_MS,
  DEFINITION_SCHEMA,
  Failure,
  FuncTool,
  Guard,
  INPUT_REQUEST_SCHEMA,
  InputRequest,
  InputValidatorError,
  Invocation,
  MAX_DEPTH,
  MAX_INPUT_BYTES,
  MAX_TIMEOUT_MS,
  OUTPUT_SCHEMA,
  Output,
  Registry,
  ToolError,
  bind,
  callerAuthorizer,
  canonicalJson,
  capability,
  classifyFailure,
  compileSchema,
  compileSchemaValue,
  decodeDefinition,
  encodeDefinition,
  findError,
  hasErrorCode,
  isAdmissionRefusal,
  isDeadlineTool,
  isInputValidatingTool,
  isWrappingTool,
  validateDefinition,
} from './protocol';
export type {
  AdmissionIssue,
  Authorizer,
  AuthorizerFunc,
  BindOptions,
  CallErrorConfig,
  CallOptions,
  ContentBlock,
  DeadlineTool,
  Definition,
  FailureConfig,
  FailureKind,
  Func,
  FuncCall,
  FuncConfig,
  GuardConfig,
  InputRequestConfig,
  InputRequestWire,
  InputValidatingTool,
  InputValidator,
  JsonObject,
  JsonValue,
  MediaBlock,
  MediaSource,
  OutputConfig,
  OutputWire,
  Request,
  Result,
  TextBlock,
  Tool,
  ToolAnnotations,
  ToolErrorCode,
  WrappingTool,
} from './protocol';
export { EMPTY_INPUT_SCHEMA, dtoInput, dtoWireNames, emptyInput } from './dto';
export type { DtoInput, DtoInputOptions } from './dto';
export { createRegistry, loadManifest } from './container';
export type { Constructor, CreateRegistryOptions, Manifest, ManifestSource, ManifestTool, Resolve } from './container';
export {
  isSuspendedOutcome,
  parseServerSentEvents,
  parseServerSentJson,
  prepareToolCall,
  renderOutcome,
} from './providers';
export type {
  AssembledToolCall,
  KeywordNote,
  OutcomeKind,
  PreparedToolCall,
  ProviderToolCall,
  RenderOutcomeOptions,
  RenderedOutcome,
  ServerSentEvent,
  ToolOutcome,
  ToolProvider,
  ToolsExport,
} from './providers';
