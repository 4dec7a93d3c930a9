describe('lib/providers at run time', () => {
  it('loads without the provider SDKs (they are type-only imports)', () => {
    const refuse = () => {
      throw new Error('a provider SDK was loaded at run time');
    };
    jest.isolateModules(() => {
      jest.doMock('openai', refuse);
      jest.doMock('openai/resources/chat/completions', refuse);
      jest.doMock('@anthropic-ai/sdk', refuse);
      jest.doMock('@anthropic-ai/sdk/resources/messages', refuse);
      jest.doMock('openai/resources/responses/responses', refuse);
      jest.doMock('@google/genai', refuse);
      const providers = require('../../lib/providers') as typeof import('../../lib/providers');
      expect(typeof providers.openAIToolMessage).toBe('function');
      expect(typeof providers.anthropicToolResult).toBe('function');
      expect(typeof providers.openAIFunctionCallOutput).toBe('function');
      expect(typeof providers.geminiFunctionResponse).toBe('function');
      expect(typeof providers.restoreStrictToolCall).toBe('function');
    });
  });
});
