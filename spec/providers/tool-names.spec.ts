import { ToolError } from '../../lib/protocol';
import type { Definition } from '../../lib/protocol';
import { anthropicTools, geminiTools, openAIChatTools, openAIResponsesTools } from '../../lib/providers';

const schema = { type: 'object', properties: {} } as const;
const named = (name: string): Definition => ({ name, inputSchema: { ...schema } });

/** The text of the ERR_INVALID_DEFINITION an export throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_DEFINITION');
    return (e as ToolError).message;
  }
  throw new Error('expected a refusal');
}

describe('tool names per provider', () => {
  it('refuses a name Gemini refuses (leading digit or dash) that OpenAI and Anthropic accept', () => {
    const definitions = [named('2fa_check')];
    expect(openAIChatTools(definitions)).toHaveLength(1);
    expect(anthropicTools(definitions)).toHaveLength(1);
    expect(() => geminiTools(definitions)).toThrow(ToolError);
    // The wording of a refused name, built in lib/providers/tool-names.ts, pinned here once.
    expect(() => geminiTools(definitions)).toThrow(
      'tool: invalid definition: geminiTools: definitions[0]: tool name "2fa_check" is refused by Gemini, which requires a letter or "_" first',
    );
  });

  it('refuses names OpenAI refuses instead of renaming them', () => {
    const dotted = refusal(() => openAIResponsesTools([named('files.read')]));
    expect(dotted).toContain('definitions[0]: tool name "files.read"');
    expect(dotted).toContain('OpenAI Responses');
    expect(refusal(() => openAIChatTools([named('x'.repeat(65))]))).toContain('OpenAI Chat Completions');
  });

  it('accepts up to 128 characters for Anthropic and dots for Gemini', () => {
    expect(anthropicTools([named('a'.repeat(128))])).toHaveLength(1);
    expect(geminiTools([named('files.read')])[0].functionDeclarations).toHaveLength(1);
    expect(refusal(() => anthropicTools([named('a'.repeat(129))]))).toContain('Anthropic Messages');
  });

  it('refuses two definitions with the same name, naming both positions, for every provider', () => {
    const twice = [named('ping'), named('pong'), named('ping')];
    for (const exportTools of [openAIChatTools, openAIResponsesTools, anthropicTools, geminiTools]) {
      const text = refusal(() => exportTools(twice));
      expect(text).toContain('definitions[0] and definitions[2]');
      expect(text).toContain('"ping"');
    }
  });
});
