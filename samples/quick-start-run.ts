import { createInterface } from 'node:readline/promises';
import type { ProviderToolCall } from 'scope-tool';
import { EmailTools, runToolCall } from './quick-start';

/**
 * Proposes one `send_email` call as a model would, asks its question on the terminal (`input`, `output`),
 * and prints the text the model is sent. `manifestPath` is read relative to the working directory.
 */
export async function runInTerminal(
  manifestPath: string,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<string> {
  const call: ProviderToolCall = {
    id: 'call_1',
    request: { name: 'send_email', arguments: '{"to":"ada@example.com","body":"The meeting moved to 3 pm."}' },
  };
  const caller = { user: 'alice', scopes: ['email:send'] }; // without 'email:send' the policy refuses
  const terminal = createInterface({ input, output });
  try {
    const text = await runToolCall(manifestPath, new EmailTools(), call, caller, async (question, refused) => {
      if (refused !== undefined) output.write(`Not accepted: ${refused}\n`);
      return terminal.question(`${question} Answer {"approve":true} or {"approve":false}: `);
    });
    output.write(`The model is sent: ${text}\n`);
    return text;
  } finally {
    terminal.close();
  }
}

if (require.main === module) {
  runInTerminal(process.argv[2] ?? 'tools.manifest.json').catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
