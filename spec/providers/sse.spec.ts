import { parseServerSentEvents, parseServerSentJson } from '../../lib/providers';
import { fixtureText } from './fixtures';

describe('parseServerSentEvents', () => {
  it('reads every event of the recorded Anthropic stream with its type', () => {
    const events = parseServerSentEvents(fixtureText('tool_use_response.sse'));
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[2].data).toBe('{"type": "ping"}');
  });

  it('joins data lines with LF, drops one leading space, skips comments and accepts CR and CRLF', () => {
    const text = ': comment\r\nevent: a\r\ndata:  two spaces\r\ndata:x\r\nid: 7\r\n\r\ndata: b\r\rdata: c\n\n';
    expect(parseServerSentEvents(text)).toEqual([
      { event: 'a', data: ' two spaces\nx', id: '7' },
      { event: 'message', data: 'b', id: '7' },
      { event: 'message', data: 'c', id: '7' },
    ]);
  });

  it('discards a final event without its blank line and events without data', () => {
    expect(parseServerSentEvents('\ufeffevent: only\n\ndata: cut')).toEqual([]);
  });
});

describe('parseServerSentJson', () => {
  it('decodes JSON payloads and skips [DONE] and broken data without throwing', () => {
    expect(parseServerSentJson('data: {"a":1}\n\ndata: [DONE]\n\ndata: {"b":\n\n')).toEqual([{ a: 1 }]);
  });
});
