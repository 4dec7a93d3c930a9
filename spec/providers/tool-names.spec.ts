import { ToolError } from '../../lib/protocol';
import type { Definition } from '../../lib/protocol';
import { anthropicTools, geminiTools, openAIChatTools, openAIResponsesTools } from '../../lib/providers';

const schema = { type: 'object', properties: {} } as const;
const named = (name: string): Definition => ({ name, inputSchema: { ...schema } });

describe('tool names per provider', () => {
  it('refuses a name Gemini refuses (leading digit or dash) that OpenAI and Anthropic accept', () => {
    const definitions = [named('2fa_check')];
    expect(openAIChatTools(definitions)).toHaveLength(1);
    expect(anthropicTools(definitions)).toHaveLength(1);
    expect(() => geminiTools(definitions)).toThrow(ToolError);
    expect(() => geminiTools(definitions)).toThrow(
      'tool: invalid definition: geminiTools: definitions[0]: tool name "2fa_check" is refused by Gemini, which requires a letter or "_" first',
    );
  });

  it('refuses names OpenAI refuses instead of renaming them', () => {
    expect(() => openAIResponsesTools([named('files.read')])).toThrow(
      /definitions\[0\]: tool name "files\.read" is refused by OpenAI Responses.*scope-tool never renames tools/,
    );
    expect(() => openAIChatTools([named('x'.repeat(65))])).toThrow(
      /refused by OpenAI Chat Completions, which requires 1 to 64/,
    );
  });

  it('accepts up to 128 characters for Anthropic and dots for Gemini', () => {
    expect(anthropicTools([named('a'.repeat(128))])).toHaveLength(1);
    expect(geminiTools([named('files.read')])[0].functionDeclarations).toHaveLength(1);
    expect(() => anthropicTools([named('a'.repeat(129))])).toThrow(/refused by Anthropic Messages/);
  });

  it('refuses two definitions with the same name, naming both positions, for every provider', () => {
    const twice = [named('ping'), named('pong'), named('ping')];
    for (const exportTools of [openAIChatTools, openAIResponsesTools, anthropicTools, geminiTools]) {
      expect(() => exportTools(twice)).toThrow(
        /definitions\[0\] and definitions\[2\] are both named "ping"; .* needs one tool per name/,
      );
    }
  });
});
