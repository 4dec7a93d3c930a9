import 'reflect-metadata';
import { IsString, Length, Matches } from 'class-validator';
import { InputRequest, createRegistry, isSuspendedOutcome, prepareToolCall, renderOutcome } from 'scope-tool';
import type { Authorization, CallOptions, Continuation, ProviderToolCall, ToolOutcome } from 'scope-tool';
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
        responseSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean' } },
          required: ['approve'],
          additionalProperties: false, // closed: {"approve":true,"extra":1} is refused too
        },
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
 * Runs one tool call the model proposed, asks the person when the tool asks (`ask` shows the question and
 * resolves their answer as JSON text; `refused`: why their last answer was refused), and returns the model's text.
 */
export async function runToolCall(
  manifestPath: string,
  tools: EmailTools,
  call: ProviderToolCall,
  caller: Caller,
  ask: (prompt: string, refused?: string) => Promise<string>,
): Promise<string> {
  const registry = createRegistry({ manifest: manifestPath, toolsets: [tools] });
  let outcome: ToolOutcome;
  try {
    const { binding, invocation } = prepareToolCall(registry, call); // an unknown tool, bad arguments: refused
    outcome = { result: await binding.call(invocation, { context: caller }) };
    while (isSuspendedOutcome(outcome)) {
      const { inputRequest } = outcome.result;
      let continuation: Continuation | undefined;
      let refused: string | undefined;
      while (continuation === undefined) {
        const answer = await ask(JSON.parse(inputRequest.prompt) as string, refused); // a prompt is JSON text
        try {
          continuation = inputRequest.continuation(answer);
        } catch (error) {
          refused = (error as Error).message; // ERR_INVALID_INPUT_REQUEST: not JSON, or not the form
        }
      }
      const resumed = prepareToolCall(registry, call, continuation).invocation;
      outcome = { result: await binding.call(resumed, { context: caller }) };
    }
  } catch (error) {
    outcome = { error }; // an unknown tool, refused arguments, a refusing policy, a failing tool: a short text
  }
  return renderOutcome(call.request.name, outcome).output.asText() ?? '';
}
