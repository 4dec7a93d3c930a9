/**
 * scope-tool protocol: the provider-neutral port of the Go `tool` package. Every public name of
 * docs/architecture.md section 2. Importing this module does nothing but define.
 */
export { MAX_INPUT_BYTES, MAX_DEPTH, admitJson, canonicalJson } from './json';
export type { JsonAdmission } from './json';
export { CompiledSchema, DRAFT_07, DRAFT_2020_12, compileSchema, compileSchemaValue } from './schema';
export type { JsonObject, JsonValue } from './json';
export { ToolError, findError, hasErrorCode, isError } from './errors';
export type { AdmissionIssue, ToolErrorCode } from './errors';
export { DEFINITION_SCHEMA, decodeDefinition, encodeDefinition, validateDefinition } from './definition';
export type { Definition, ToolAnnotations } from './definition';
export { validateRequest } from './request';
export type { Request } from './request';
export { OUTPUT_SCHEMA, Output } from './output';
export type { OutputConfig, OutputWire } from './output';
export type { ContentBlock, MediaBlock, MediaSource, TextBlock } from './content';
export type { CallOptions, Tool } from './tool';
export { Contract, Invocation } from './contract';
export { isAdmissionRefusal, markRefusal } from './refusal';
export type { InputValidator } from './contract';
export { Binding, bind } from './binding';
export type { BindOptions } from './binding';
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, isDeadlineTool } from './deadline';
export type { DeadlineTool } from './deadline';
export { validateResult } from './result';
export type { Result } from './result';
export { Continuation, INPUT_REQUEST_SCHEMA, InputRequest, InputValidatorError, isInputValidatingTool } from './input';
export type { InputRequestConfig, InputRequestWire, InputValidatingTool } from './input';
export { Failure, classifyFailure } from './failure';
export type { FailureConfig, FailureKind } from './failure';
export { CallError } from './call-error';
export type { CallErrorConfig } from './call-error';
export { Authorization, AuthorizationError, Guard, callerAuthorizer } from './authorization';
export type { Authorizer, AuthorizerFunc, GuardConfig } from './authorization';
export { MAX_WRAPPERS, capability, isWrappingTool } from './capability';
export type { WrappingTool } from './capability';
export { Registry } from './registry';
export { FuncTool } from './func';
export type { Func, FuncCall, FuncConfig } from './func';
