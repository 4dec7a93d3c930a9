/**
 * `scope-tool/gemini`: projections to and from the Google Gemini API wire format
 * (`generateContent`). Typed against the `@google/genai` types, which are type-only imports: this
 * entry loads no SDK at run time.
 *
 * - definitions → `tools`: `geminiTools` (`exportGeminiFunctionDeclarations` also returns the
 *   keyword notes Gemini ignores);
 * - a response → its `functionCall` parts: `geminiFunctionCalls`, `geminiContentFunctionCalls`;
 * - an outcome → a `functionResponse` part (`geminiFunctionResponse`), and the parts of one turn →
 *   the content that carries them (`geminiFunctionResponseContent`).
 *
 * The provider-neutral steps (`prepareToolCall`, `renderOutcome`) and the shared types
 * (`ProviderToolCall`, `AssembledToolCall`, `ToolOutcome`, `ToolsExport`, `KeywordNote`) are in
 * the main entry, `scope-tool`.
 */
export {
  exportGeminiFunctionDeclarations,
  geminiContentFunctionCalls,
  geminiFunctionCalls,
  geminiFunctionResponse,
  geminiFunctionResponseContent,
  geminiTools,
} from './providers';
export type { GeminiContentLike, GeminiResponseLike } from './providers';
