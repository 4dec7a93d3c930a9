import type { ProviderToolCall } from 'scope-tool';

/**
 * The recorded Anthropic calls (samples/fixtures) were made to the Anthropic SDK's test tools; this
 * assistant's tools are named for what they do. The replay sends each recorded call to the tool
 * of the assistant's name: the arguments are replayed as recorded.
 */
export const ASSISTANT_NAMES: Readonly<Record<string, string>> = {
  test_tool: 'check_connection',
  make_file: 'write_note_file',
  submit_analysis: 'save_analysis_note',
};

/** The recorded call, under the name of the assistant's tool that answers it. */
export function asAssistantCall<T extends ProviderToolCall>(call: T): T {
  const name = ASSISTANT_NAMES[call.request.name];
  return name === undefined ? call : { ...call, request: { ...call.request, name } };
}

/** One line saying which recorded names the replay renames. */
export function renamedLine(): string {
  const pairs = Object.entries(ASSISTANT_NAMES).map(([recorded, name]) => `${recorded} → ${name}`);
  return `recorded calls to the Anthropic SDK's test tools are sent to this assistant's tools: ${pairs.join(', ')}`;
}
