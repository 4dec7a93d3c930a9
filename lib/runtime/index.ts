/**
 * scope-tool/runtime: the driving runtime (issue 13). Runs a model turn's tool calls to one outcome
 * per call id, commits suspensions to a SuspensionStore before announcing them, resumes each call
 * exactly once, keeps per-thread call budgets, and renders outcomes in each provider's format.
 * Imports lib/protocol and lib/providers only (docs/architecture.md section 1); store drivers load on use.
 * Every name is pinned in spec/package/entries.ts: a store or helper added here is added there too.
 */
export { DEFAULT_SUSPENSION_TTL_MS, MAX_LEASE_MS, MAX_SUSPENSION_TTL_MS, Runtime, providerCallIdOf } from './runtime';
export type { ResumeInput, RuntimeBudget, RuntimeConfig, TurnInput } from './runtime';
export type { CallOutcome, CallOutcomeKind, SettledCallOutcome, SuspendedCallOutcome } from './outcome';
export { RuntimeError } from './errors';
export { TRACER_NAME, TracingError } from '../tracing';
export type { ToolTracingOption, ToolTracingOptions, TracingErrorCode } from '../tracing';
export type { AnswerIssue, RuntimeErrorCode } from './errors';
export { toAnthropicMessage, toGeminiContent, toOpenAIChatMessages, toOpenAIResponsesItems } from './render';
export { MAX_SUSPENSION_ROUNDS, argumentsDigest, contractFingerprint, idempotencyKeyOf, roundKey } from './identity';
export {
  MemoryStore,
  POSTGRES_SCHEMA_VERSION,
  PostgresStore,
  SQLITE_SCHEMA_VERSION,
  SqliteStore,
  StoreError,
} from './stores';
export type { MemoryStoreOptions, PostgresStoreOptions, SqliteStoreOptions, StoreErrorCode } from './stores';
export { DEFAULT_LEASE_MS, MAX_ID_BYTES, SUSPENSION_RECORD_VERSION } from './store';
export type {
  BeginResult,
  CallCounts,
  CallKey,
  CountOptions,
  ListFilter,
  RunningCall,
  SettledCall,
  StoredOutcome,
  SuspensionRecord,
  SuspensionStore,
  TakeResult,
} from './store';
export {
  DEFAULT_MAX_STEPS,
  LoopError,
  runAnthropicMessagesLoop,
  runOpenAIChatLoop,
  runOpenAIResponsesLoop,
} from './loops';
export type {
  AnthropicMessagesLoopOptions,
  AnthropicMessagesLoopRequest,
  AnthropicMessagesLoopResult,
  LoopAnswer,
  LoopErrorCode,
  LoopOptions,
  LoopProgress,
  LoopStatus,
  OpenAIChatLoopOptions,
  OpenAIChatLoopRequest,
  OpenAIChatLoopResult,
  OpenAIResponsesLoopOptions,
  OpenAIResponsesLoopRequest,
  OpenAIResponsesLoopResult,
} from './loops';
