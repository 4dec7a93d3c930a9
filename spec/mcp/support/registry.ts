/**
 * The registry the MCP server specs serve: one tool per behavior they check (completed call,
 * refused call, failure with secret diagnostics, suspension, cancellation, media, progress).
 */
import { CallError, Failure, FuncTool, Guard, InputRequest, Output, Registry, ToolError } from '../../../lib/protocol';
import type { JsonObject, JsonValue } from '../../../lib/protocol';

/** A text that must never reach an MCP client. */
export const SECRET = 'SECRET-diagnostic-7f3a';

/** The model-facing output of the Failure book_flight throws. */
export const PAST_DATE = 'Invalid departure date: must be in the future.';

/** What file_note returns once resumed with an approving answer. */
export function filed(title: string, state: string): string {
  return `Filed "${title}" (state ${state}).`;
}

const object = (properties: JsonObject, required: string[] = []): JsonObject => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

function decodeObject(value: JsonValue): Record<string, JsonValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ToolError('ERR_INVALID_INVOCATION', 'not an object');
  return value as Record<string, JsonValue>;
}

/** What the specs observe of the tools' runs. */
export interface Observed {
  aborted: string[];
  contexts: unknown[];
  started: (name: string) => void;
}

/** Resolves when `signal` aborts, never before. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal === undefined) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Builds the registry; `observed` records aborts and contexts. */
export function testRegistry(observed: Observed = { aborted: [], contexts: [], started: () => undefined }): Registry {
  const tool = <In>(
    name: string,
    inputSchema: JsonObject,
    fn: (
      input: Record<string, JsonValue>,
      call: { signal?: AbortSignal; context?: unknown; continuation?: { response: string; state: string } },
    ) => unknown,
  ) =>
    FuncTool.create<Record<string, JsonValue>, unknown>(
      { name, description: `The ${name} tool.`, inputSchema, decode: decodeObject },
      (input, call) => {
        observed.contexts.push(call.context);
        observed.started(name);
        return fn(input, call) as In;
      },
    );

  const weather = tool(
    'get_weather',
    object({ location: { type: 'string', minLength: 1 }, unit: { enum: ['celsius', 'fahrenheit'] } }, ['location']),
    (input) => `Weather in ${String(input.location)}: 18 degrees, cloudy`,
  );
  const forecast = tool('forecast', object({ city: { type: 'string' } }, ['city']), (input) => ({
    city: input.city,
    days: [18, 19, 21],
  }));
  const refused = new Guard({ tool: tool('delete_all', object({}), () => 'deleted'), authorizer: () => false });
  const failing = tool('charge_card', object({ amount: { type: 'integer', minimum: 1 } }, ['amount']), () => {
    throw new CallError({ cause: new Error(`${SECRET} gateway timeout`), evidence: Output.text(`${SECRET} evidence`) });
  });
  const failure = tool('book_flight', object({ date: { type: 'string' } }, ['date']), () => {
    throw new Failure({
      kind: 'failed',
      output: Output.text(PAST_DATE),
      cause: new Error(SECRET),
    });
  });
  const boom = tool('boom', object({}), () => {
    throw new Error(`${SECRET} stack`);
  });
  const confirm = tool('file_note', object({ text: { type: 'string' } }, ['text']), (input, call) => {
    if (call.continuation === undefined) {
      return InputRequest.create({
        prompt: JSON.stringify(`File the note "${String(input.text)}"?`),
        responseSchema: object(
          { approve: { type: 'boolean' }, title: { type: 'string', minLength: 1, maxLength: 20 } },
          ['approve'],
        ),
        continuationState: '{"step":"confirm"}',
      });
    }
    const answer = JSON.parse(call.continuation.response) as { approve: boolean; title?: string };
    return answer.approve ? filed(answer.title ?? 'untitled', call.continuation.state) : 'Not filed.';
  });
  const yesNo = tool('ask_yes_no', object({}), (_input, call) => {
    if (call.continuation === undefined) {
      return InputRequest.create({ prompt: '"Proceed?"', responseSchema: { type: 'boolean' }, continuationState: '1' });
    }
    return `answered ${call.continuation.response}`;
  });
  const nested = tool('ask_address', object({}), () =>
    InputRequest.create({
      prompt: '"Where?"',
      responseSchema: object({ address: object({ street: { type: 'string' } }, ['street']) }, ['address']),
      continuationState: '1',
    }),
  );
  const slow = tool('slow', object({}), async (_input, call) => {
    try {
      return await untilAborted(call.signal);
    } catch (reason) {
      observed.aborted.push('slow');
      throw reason;
    }
  });
  const media = tool('media', object({}), () =>
    Output.create({
      content: [
        { kind: 'text', text: 'Here you go:' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } } },
        { kind: 'media', media: { mime: 'audio/wav', source: { kind: 'bytes', bytes: 'UklGRg==' } } },
        {
          kind: 'media',
          media: { mime: 'application/pdf', source: { kind: 'uri', uri: 'https://example.com/docs/report.pdf' } },
        },
        { kind: 'media', media: { mime: 'application/zip', source: { kind: 'bytes', bytes: 'UEsDBA==' } } },
        { kind: 'media', media: { mime: 'image/jpeg', source: { kind: 'reference', ref: 'blob-42' } } },
      ],
      details: '{"pages":3}',
    }),
  );
  return new Registry(weather, forecast, refused, failing, failure, boom, confirm, yesNo, nested, slow, media);
}
