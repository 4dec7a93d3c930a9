/**
 * A decorator refusal: ToolError ERR_INVALID_TOOL naming the decorator and where it was applied
 * (`@Tool() on NotesTools.createNote: ...`), then the rule broken (`rule`: a few words of it).
 */
export function refusedBy(decorator: string, place: string, rule: string): ReturnType<typeof expect.objectContaining> {
  return expect.objectContaining({
    code: 'ERR_INVALID_TOOL',
    message: expect.stringMatching(new RegExp(`${escape(decorator)} on ${escape(place)}: .*${escape(rule)}`)),
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
