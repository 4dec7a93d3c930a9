import { ToolError } from '../../lib/protocol';
import type { AdmissionIssue } from '../../lib/protocol';
import { describeInvalidArguments, jsonPointer } from '../../lib/providers';

function refusal(...issues: AdmissionIssue[]): ToolError {
  return new ToolError('ERR_INVALID_INVOCATION', 'arguments: refused', { issues });
}

describe('describeInvalidArguments', () => {
  it('names the tool, the JSON Pointer, the rule and the allowed values of an enum', () => {
    const issue: AdmissionIssue = {
      code: 'schema',
      path: ['units'],
      message: 'must be equal to one of the allowed values',
      keyword: 'enum',
      params: { allowedValues: ['celsius', 'fahrenheit'] },
    };
    expect(describeInvalidArguments('get_weather', refusal(issue))).toBe(
      'error: invalid arguments for tool "get_weather": /units: must be equal to one of the allowed values (celsius, fahrenheit); fix the arguments and call again',
    );
  });

  it('names an unexpected member and says to remove it; the root is called "arguments"', () => {
    const issue: AdmissionIssue = {
      code: 'schema',
      path: [],
      message: 'must NOT have additional properties',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'count' },
    };
    expect(describeInvalidArguments('test_tool', refusal(issue))).toBe(
      'error: invalid arguments for tool "test_tool": arguments: must NOT have additional properties ("count"; remove it); fix the arguments and call again',
    );
  });

  it('asks for one complete JSON object when the JSON is broken, with the offset', () => {
    const issue: AdmissionIssue = { code: 'invalid_json', path: [], message: 'unexpected end of input', offset: 42 };
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      'error: invalid arguments for tool "make_file": arguments: unexpected end of input (at offset 42); send the arguments again as one complete JSON object',
    );
  });

  it('lists at most five issues, flattens whitespace and clips long messages', () => {
    const issues = Array.from({ length: 7 }, (_, i): AdmissionIssue => ({ code: 'dto', path: ['tags', i], message: `bad\n\titem ${'x'.repeat(i === 0 ? 300 : 1)}` }));
    const text = describeInvalidArguments('t', refusal(...issues));
    expect(text).toContain('/tags/0: bad item xxx');
    expect(text).toContain('/tags/4: bad item x; and 2 more; fix the arguments and call again');
    expect(text).not.toContain('/tags/5');
    expect(text).not.toContain('x'.repeat(201));
  });

  it('falls back to the message without its sentinel prefix when there are no issues', () => {
    const error = new ToolError('ERR_INVALID_INVOCATION', 'request: tool name "get_wether" does not match "get_weather"');
    expect(describeInvalidArguments('get_wether', error)).toBe(
      'error: invalid arguments for tool "get_wether": request: tool name "get_wether" does not match "get_weather"; fix the call and try again',
    );
  });
});

describe('jsonPointer', () => {
  it('escapes ~ and / as RFC 6901 says', () => {
    expect(jsonPointer(['a/b', 'm~n', 0])).toBe('/a~1b/m~0n/0');
    expect(jsonPointer([])).toBe('');
  });
});

describe('describeInvalidArguments on messages that repeat the path', () => {
  it('does not say the JSON Pointer twice', () => {
    const issue: AdmissionIssue = { code: 'invalid_json', path: ['lines_of_text', 4], message: 'unterminated string at /lines_of_text/4 (offset 136)', offset: 136 };
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      'error: invalid arguments for tool "make_file": /lines_of_text/4: unterminated string (offset 136); send the arguments again as one complete JSON object',
    );
  });
});
