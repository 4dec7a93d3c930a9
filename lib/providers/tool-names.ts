/**
 * Tool-name rules per provider. scope-tool never renames a tool for a provider: a name the
 * provider refuses, or two names that the provider would take for the same tool, is an error at
 * export time, so what the model calls is always the registered name.
 *
 * - OpenAI Chat Completions and Responses: `^[a-zA-Z0-9_-]{1,64}$` (function `name`).
 * - Anthropic Messages: `^[a-zA-Z0-9_-]{1,128}$` (tool `name`).
 * - Gemini: starts with a letter or an underscore, then letters, digits, `_`, `.`, `:` or `-`, at
 *   most 64 characters (`FunctionDeclaration.name`).
 * Names are compared exactly (every provider above matches names case-sensitively), so a
 * collision is the same name exported twice.
 */
import { ToolError } from '../protocol';
import type { Definition } from '../protocol';
import { providerName } from './schema-review';
import type { ToolProvider } from './schema-review';
import { quoteToolName } from './tool-call';

interface NameRule {
  readonly pattern: RegExp;
  readonly text: string;
  /** The key under which the provider tells tools apart. */
  readonly key: (name: string) => string;
}

const OPENAI: NameRule = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  text: '1 to 64 ASCII letters, digits, "_" or "-"',
  key: (name) => name,
};

const RULES: Readonly<Record<ToolProvider, NameRule>> = {
  'openai-chat': OPENAI,
  'openai-responses': OPENAI,
  anthropic: {
    pattern: /^[a-zA-Z0-9_-]{1,128}$/,
    text: '1 to 128 ASCII letters, digits, "_" or "-"',
    key: (name) => name,
  },
  gemini: {
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    text: 'a letter or "_" first, then ASCII letters, digits, "_", ".", ":" or "-", at most 64 characters',
    key: (name) => name,
  },
};

/**
 * Checks the names of definitions exported together to one provider.
 * @param where - the export function, for messages (`geminiTools`)
 * @throws ToolError ERR_INVALID_DEFINITION naming the tool and the provider's rule when a name is
 *   refused, or naming both positions when two definitions collide
 * @internal
 */
export function checkToolNames(provider: ToolProvider, definitions: readonly Definition[], where: string): void {
  const rule = RULES[provider];
  const seen = new Map<string, number>();
  definitions.forEach((definition, index) => {
    const name = (definition as { name?: unknown } | null | undefined)?.name;
    if (typeof name !== 'string' || !rule.pattern.test(name)) {
      const shown = typeof name === 'string' ? quoteToolName(name) : `(${typeof name})`;
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `${where}: definitions[${index}]: tool name ${shown} is refused by ${providerName(provider)}, which requires ${rule.text}; ` +
          'rename the tool (scope-tool never renames tools for a provider)',
      );
    }
    const key = rule.key(name);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new ToolError(
        'ERR_INVALID_DEFINITION',
        `${where}: definitions[${first}] and definitions[${index}] are both named ${quoteToolName(name)}; ` +
          `${providerName(provider)} needs one tool per name; export each tool once`,
      );
    }
    seen.set(key, index);
  });
}
