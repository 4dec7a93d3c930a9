/**
 * What a provider does with each keyword of an exported input schema. One rule for every
 * provider: the schema a provider shows its model may be WIDER than the contract (admission
 * still enforces every keyword and tells the model what to fix), never narrower or different in
 * meaning. So a keyword a provider ignores, or one an export must remove, is reported as a
 * `KeywordNote`; a keyword the provider would silently misread is a ToolError at export time.
 *
 * Profiles:
 * - OpenAI Chat Completions and Responses without `strict`, Anthropic Messages: the schema is
 *   shown to the model as is; nothing is reported.
 * - OpenAI with `strict: true`: see `strict.ts`.
 * - Gemini `parametersJsonSchema`: the `@google/genai` documentation of its JSON Schema support
 *   lists `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`, `description`, `enum` (for
 *   strings and numbers), `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`,
 *   `anyOf`, `oneOf` ("interpreted the same as anyOf"), `properties`, `additionalProperties`,
 *   `required` and `propertyOrdering`; other keywords are ignored (reported), except those that
 *   declare members or alternatives (`allOf`, `if`/`then`/`else`, `dependentSchemas`,
 *   `dependencies`, `patternProperties`, `unevaluatedProperties`, dynamic references), which
 *   would change the shape the model sees; `oneOf` (read as anyOf), an `enum` with values other
 *   than strings and numbers, and a `$ref` with constraining siblings are misread as well.
 */
import { ToolError } from '../protocol';
import type { Definition, JsonObject } from '../protocol';
import { ANNOTATION_KEYWORDS, isJsonObject, walkSchema } from './schema-keywords';
import { quoteToolName } from './tool-call';

/** The wire formats scope-tool exports definitions to. */
export type ToolProvider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/**
 * One keyword of an exported input schema that the provider will not enforce.
 *
 * - `tool`: the definition's name; `pointer`: RFC 6901 JSON Pointer of the subschema holding the
 *   keyword in the definition's input schema (`""` for the root); `keyword`: the keyword.
 * - `action`: `ignored` (sent, but the provider does not apply it) or `removed` (left out of the
 *   exported schema because the provider refuses it).
 * - `message`: one line saying the above, and that admission still enforces the keyword.
 */
export interface KeywordNote {
  readonly provider: ToolProvider;
  readonly tool: string;
  readonly pointer: string;
  readonly keyword: string;
  readonly action: 'ignored' | 'removed';
  readonly message: string;
}

/** Provider definitions export: the provider's tool entries and the keywords it will not enforce. */
export interface ToolsExport<T> {
  readonly tools: T[];
  readonly notes: KeywordNote[];
}

const PROVIDER_NAMES: Readonly<Record<ToolProvider, string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  gemini: 'Gemini',
};

/** The provider's display name, for messages. @internal */
export function providerName(provider: ToolProvider): string {
  return PROVIDER_NAMES[provider];
}

/** Builds a KeywordNote with its message. @internal */
export function keywordNote(
  provider: ToolProvider,
  tool: string,
  pointer: string,
  keyword: string,
  action: 'ignored' | 'removed',
): KeywordNote {
  const where = pointer === '' ? 'the root' : pointer;
  const what = action === 'ignored' ? 'ignores' : 'does not support (removed from the exported schema)';
  const message = `tool ${quoteToolName(tool)}: ${where}: ${providerName(provider)} ${what} "${keyword}"; scope-tool admission still enforces it`;
  return Object.freeze({ provider, tool, pointer, keyword, action, message });
}

/**
 * The export-time refusal of a schema a provider would misread: names the export function, the
 * tool, the JSON Pointer and the keyword, then the reason and the fix. @internal
 */
export function misreadError(where: string, tool: string, pointer: string, keyword: string, why: string): ToolError {
  const at = pointer === '' ? '(root)' : pointer;
  return new ToolError(
    'ERR_INVALID_DEFINITION',
    `${where}: tool ${quoteToolName(tool)}: ${at}: keyword "${keyword}": ${why}`,
  );
}

const GEMINI_SUPPORTED = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

const GEMINI_SHAPE_KEYWORDS = new Set([
  'allOf',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'unevaluatedProperties',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
]);

/**
 * Reviews a definition's input schema for Gemini `parametersJsonSchema` (see the module notes).
 * @returns the keywords Gemini ignores, in schema order
 * @throws ToolError ERR_INVALID_DEFINITION naming the tool, the JSON Pointer and the keyword of
 *   the first construct Gemini would misread
 * @internal
 */
export function reviewGeminiSchema(where: string, definition: Definition, schema: JsonObject): KeywordNote[] {
  const notes: KeywordNote[] = [];
  const tool = definition.name;
  walkSchema(schema, ({ pointer, schema: node }) => {
    if (!isJsonObject(node)) return;
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === 'oneOf') {
        throw misreadError(
          where,
          tool,
          pointer,
          keyword,
          'Gemini reads oneOf as anyOf (at least one branch instead of exactly one); use anyOf, with branches that cannot both match',
        );
      }
      if (GEMINI_SHAPE_KEYWORDS.has(keyword)) {
        throw misreadError(
          where,
          tool,
          pointer,
          keyword,
          'Gemini ignores this keyword, which declares members or alternatives, so its model would see a different shape; declare the members with properties (and anyOf for alternatives)',
        );
      }
      if (
        keyword === 'enum' &&
        Array.isArray(value) &&
        !value.every((v) => typeof v === 'string' || typeof v === 'number')
      ) {
        throw misreadError(
          where,
          tool,
          pointer,
          keyword,
          'Gemini supports enum values that are strings or numbers only; use const or type for booleans and null',
        );
      }
      if (keyword === '$ref') {
        const sibling = Object.keys(node).find((k) => !k.startsWith('$') && !ANNOTATION_KEYWORDS.has(k));
        if (sibling !== undefined) {
          throw misreadError(
            where,
            tool,
            pointer,
            keyword,
            `Gemini allows no keyword beside $ref but those starting with "$" ("${sibling}" found); move "${sibling}" into the referenced schema or wrap with anyOf`,
          );
        }
      }
      if (!GEMINI_SUPPORTED.has(keyword) && !ANNOTATION_KEYWORDS.has(keyword)) {
        notes.push(keywordNote('gemini', tool, pointer, keyword, 'ignored'));
      }
    }
  });
  return notes;
}
