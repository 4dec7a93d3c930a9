import type OpenAI from 'openai';
import type { Registry } from 'scope-tool';
import { Runtime, runOpenAIChatLoop } from 'scope-tool/runtime';
import type { SuspensionStore } from 'scope-tool/runtime';

/** Asks a person (prompt: JSON text) and resolves their answer as JSON text. */
export type AskPerson = (prompt: string) => Promise<string>;

export async function chat(
  openai: OpenAI,
  registry: Registry,
  store: SuspensionStore,
  threadId: string,
  question: string,
  ask: AskPerson,
  context?: unknown, // what your @Authorize policies read: the user, their scopes
): Promise<string | null> {
  const runtime = new Runtime({ registry, store });
  const options = { runtime, registry, threadId, context };
  const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: question }] };
  let run = await runOpenAIChatLoop(openai, request, options);
  while (run.status === 'suspended') {
    // run.messages and the store are all a later process needs: store the messages, answer later.
    const answers = [];
    for (const { record, inputRequest } of run.waiting) {
      // record.callId names the question asked (`<call id>#2` when the tool asks again)
      answers.push({ callId: record.callId, answer: await ask(inputRequest.prompt) });
    }
    run = await runOpenAIChatLoop(openai, { ...request, messages: run.messages }, { ...options, answers });
  }
  if (run.status === 'max-steps') throw new Error(`still calling tools after ${run.steps} requests`);
  return run.response.choices[0].message.content;
}
