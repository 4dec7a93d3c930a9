/**
 * A parser for Server-Sent Events text (the `text/event-stream` format of the WHATWG HTML
 * standard, section 9.2 "Server-sent events"), enough to replay recorded provider streams (`.sse`
 * files) through the stream assemblers. It never throws.
 */

/** One dispatched event: its type (`event:` field, default `message`), data, and last event id. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/**
 * Parses a complete event-stream text into its events, as the WHATWG "interpret an event stream"
 * algorithm does: lines end with CRLF, LF or CR; a leading U+FEFF is skipped; `:` lines are
 * comments; `data:` lines join with LF; one space after the colon is dropped; a blank line
 * dispatches; an event with no data is dropped; `retry` is ignored; a final event not followed by a
 * blank line is discarded, as the standard says for a stream that ends.
 * @param text - the stream text (UTF-16, as read from a UTF-8 file)
 * @returns the events in order
 */
export function parseServerSentEvents(text: string): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lines = body.split(/\r\n|\r|\n/);
  // The last element follows the final line terminator (or is an unterminated line): never dispatches.
  let type = '';
  let data: string[] = [];
  let lastId: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const terminated = i < lines.length - 1;
    if (line === '') {
      if (terminated && data.length > 0) {
        events.push({
          event: type === '' ? 'message' : type,
          data: data.join('\n'),
          ...(lastId === undefined ? {} : { id: lastId }),
        });
      }
      type = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  }
  return events;
}

/**
 * Parses the `data` of each event as JSON, skipping events whose data is not JSON (such as
 * OpenAI's final `[DONE]`). Never throws.
 * @returns the decoded payloads in order (unvalidated: the assemblers check every field they read)
 */
export function parseServerSentJson(text: string): unknown[] {
  const payloads: unknown[] = [];
  for (const event of parseServerSentEvents(text)) {
    try {
      payloads.push(JSON.parse(event.data));
    } catch {
      // not JSON: a sentinel such as [DONE], or a truncated recording
    }
  }
  return payloads;
}
