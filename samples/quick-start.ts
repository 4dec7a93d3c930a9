import 'reflect-metadata';
import { IsString, Length, Matches } from 'class-validator';
import { InputRequest, createRegistry, hasErrorCode, isSuspendedOutcome, renderOutcome } from 'scope-tool';
import type { Authorization, CallOptions, Continuation, ToolOutcome } from 'scope-tool';
import { Authorize, Tool, Toolset } from 'scope-tool/decorators';
import type { ToolCall } from 'scope-tool/decorators';

/** Who is calling: your code passes it as `context` on every call; policies read it. */
export interface Caller {
  readonly user: string;
  readonly scopes: readonly string[];
}

/** A policy: only callers holding the `email:send` scope may send. */
function canSendEmail(_authorization: Authorization, options: CallOptions): boolean {
  return (options.context as Caller | undefined)?.scopes.includes('email:send') ?? false;
}

class SendEmailInput {
  /** The recipient's address, e.g. ada@example.com */
  @IsString() @Matches(/^[^@\s]+@[^@\s]+$/) to!: string;
  /** The message. */
  @IsString() @Length(1, 2000) body!: string;
}

@Toolset()
export class EmailTools {
  readonly sent: string[] = [];

  /** Send an email, once the person confirms it. */
  @Tool({ name: 'send_email' })
  @Authorize(canSendEmail)
  sendEmail(input: SendEmailInput, call: ToolCall): InputRequest | string {
    if (call.continuation === undefined) {
      return InputRequest.create({
        prompt: JSON.stringify(`Send this email to ${input.to}?`),
        responseSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
        continuationState: '{}',
      });
    }
    const { approve } = JSON.parse(call.continuation.response) as { approve: boolean };
    if (!approve) return 'Not sent: the person declined.';
    this.sent.push(input.to);
    return `Sent to ${input.to}.`;
  }
}

/**
 * Runs one tool call the model proposed, asks the person when the tool asks (`ask` resolves their
 * answer as JSON text), and returns the text the model is sent back.
 */
export async function runToolCall(
  manifest: string,
  tools: EmailTools,
  args: string,
  caller: Caller,
  ask: (prompt: string) => Promise<string>,
): Promise<string> {
  const registry = createRegistry({ manifest, toolsets: [tools] });
  const request = { name: 'send_email', arguments: args };
  let outcome: ToolOutcome;
  try {
    const binding = registry.resolve(request.name)!;
    outcome = { result: await binding.call(binding.contract.prepare(request), { context: caller }) };
    while (isSuspendedOutcome(outcome)) {
      const { inputRequest } = outcome.result;
      let continuation: Continuation | undefined;
      while (continuation === undefined) {
        try {
          continuation = inputRequest.continuation(await ask(inputRequest.prompt));
        } catch (refused) {
          if (!hasErrorCode(refused, 'ERR_INVALID_INPUT_REQUEST')) throw refused; // not JSON, or not the form: ask again
        }
      }
      outcome = { result: await binding.call(binding.contract.prepare(request, continuation), { context: caller }) };
    }
  } catch (error) {
    outcome = { error }; // refused arguments, a refusing policy, a failing tool: the model gets a short text
  }
  return renderOutcome(request.name, outcome).output.asText() ?? '';
}
