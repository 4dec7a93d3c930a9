import 'reflect-metadata';
import { IsInt } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { FuncTool, ToolError, bind } from '../../lib/protocol';
import { hasLoneSurrogate } from '../../lib/protocol/json';
import type { AdmissionIssue, JsonValue } from '../../lib/protocol';
import { anthropicToolResult, describeInvalidArguments, openAIToolMessage } from '../../lib/providers';

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

  it('names an unexpected member and says to remove it; the root is called "the arguments object"', () => {
    const issue: AdmissionIssue = {
      code: 'schema',
      path: [],
      message: 'must NOT have additional properties',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'count' },
    };
    expect(describeInvalidArguments('test_tool', refusal(issue))).toBe(
      'error: invalid arguments for tool "test_tool": the arguments object must NOT have additional properties ("count"; remove it); fix the arguments and call again',
    );
  });

  it('asks for one complete JSON object when the JSON is broken, with the offset (a root syntax issue reads as is)', () => {
    const issue: AdmissionIssue = { code: 'invalid_json', path: [], message: 'unexpected end of input', offset: 42 };
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      'error: invalid arguments for tool "make_file": unexpected end of input (at offset 42); send the arguments again as one complete JSON object',
    );
  });

  it('lists at most five issues, flattens whitespace and clips long messages', () => {
    const issues = Array.from({ length: 7 }, (_, i): AdmissionIssue => ({
      code: 'dto',
      path: ['tags', i],
      message: `bad\n\titem ${'x'.repeat(i === 0 ? 300 : 1)}`,
    }));
    const text = describeInvalidArguments('t', refusal(...issues));
    expect(text).toContain('/tags/0: bad item xxx');
    expect(text).toContain('/tags/4: bad item x; and 2 more; fix the arguments and call again');
    expect(text).not.toContain('/tags/5');
    expect(text).not.toContain('x'.repeat(201));
  });

  it('falls back to the message without its sentinel prefix when there are no issues', () => {
    const error = new ToolError(
      'ERR_INVALID_INVOCATION',
      'request: tool name "get_wether" does not match "get_weather"',
    );
    expect(describeInvalidArguments('get_wether', error)).toBe(
      'error: invalid arguments for tool "get_wether": request: tool name "get_wether" does not match "get_weather"; fix the call and try again',
    );
  });
});

describe('describeInvalidArguments caps what the model reads (issue 11 item 7)', () => {
  const tagged = bind(
    FuncTool.create(
      {
        name: 'tagged',
        inputSchema: {
          type: 'object',
          properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
          required: ['title'],
          additionalProperties: false,
        },
        decode: (value: JsonValue) => value,
      },
      () => 'ok',
    ),
  );

  function refused(args: string): ToolError {
    try {
      tagged.contract.prepare({ name: 'tagged', arguments: args });
    } catch (e) {
      expect(e).toBeInstanceOf(ToolError);
      return e as ToolError;
    }
    throw new Error('expected a refusal');
  }

  /** The issue texts between the head and the closing fix. */
  function shownIssues(text: string): string[] {
    return text
      .replace(/^error: invalid arguments for tool "tagged": /, '')
      .replace(/; (fix the arguments and call again|send the arguments again as one complete JSON object)$/, '')
      .split('; ');
  }

  it('shows every schema violation up to five, and counts the rest', () => {
    const error = refused('{"tags":[1,2,3,4,5,6],"extra":0}');
    expect(error.issues.map((i) => i.keyword)).toEqual([
      'required',
      'additionalProperties',
      'type',
      'type',
      'type',
      'type',
      'type',
      'type',
    ]);
    expect(describeInvalidArguments('tagged', error)).toBe(
      'error: invalid arguments for tool "tagged": the arguments object must have required member "title"; add it; ' +
        'the arguments object must NOT have member "extra"; remove it; /tags/0: must be string; /tags/1: must be string; ' +
        '/tags/2: must be string; and 3 more; fix the arguments and call again',
    );
  });

  it('caps the too_deep issue of a 10,001-deep value at 200 code units, its JSON Pointer included', () => {
    const args = `{"tags":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const error = refused(args);
    expect(error.issues.map((i) => i.code)).toEqual(['too_deep']);
    expect(error.issues[0].path).toHaveLength(10_000);
    const text = describeInvalidArguments('tagged', error);
    const [shown] = shownIssues(text);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown).toMatch(/^\/tags\/0\/0\/0.*\.\.\..*\/0\/0: nesting deeper than 10000 arrays and objects/);
    expect(text.length).toBeLessThan(400);
  });

  it('caps every issue, whoever made it, without splitting a surrogate pair', () => {
    const long = (i: number): AdmissionIssue => ({
      code: 'dto',
      path: Array.from({ length: 300 }, () => `k${i}`),
      message: `${'😀'.repeat(150)} is wrong`,
    });
    const text = describeInvalidArguments('tagged', refusal(...[0, 1, 2, 3, 4, 5].map(long)));
    const shown = shownIssues(text);
    expect(shown).toHaveLength(6);
    expect(shown[5]).toBe('and 1 more');
    for (const line of shown.slice(0, 5)) {
      expect(line.length).toBeLessThanOrEqual(200);
      expect(line.endsWith('...')).toBe(true);
    }
    expect(hasLoneSurrogate(text)).toBe(false);
  });
});

describe("describeInvalidArguments caps a DTO decoder's own issues the same way", () => {
  class Scores {
    @IsInt() a!: number;
    @IsInt() b!: number;
    @IsInt() c!: number;
    @IsInt() d!: number;
    @IsInt() e!: number;
    @IsInt() f!: number;
  }

  it("shows five of the decoder's issues, each at most 200 code units, and counts the rest", () => {
    const input = dtoInput(Scores);
    const scores = bind(
      FuncTool.create({ name: 'scores', inputSchema: { type: 'object' }, decode: input.decode }, () => 'ok'),
    );
    const name = 'n'.repeat(5_000);
    const args = JSON.stringify({ a: 'x', b: 'x', c: 'x', d: 'x', e: 'x', f: 'x', [name]: 1 });
    let error: unknown;
    try {
      scores.contract.prepare({ name: 'scores', arguments: args });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).issues.length).toBeGreaterThan(5);
    const text = describeInvalidArguments('scores', error as ToolError);
    const shown = text
      .replace(/^error: invalid arguments for tool "scores": /, '')
      .replace(/; fix the arguments and call again$/, '')
      .split('; ');
    expect(shown[shown.length - 1]).toBe(`and ${(error as ToolError).issues.length - 5} more`);
    for (const line of shown) expect(line.length).toBeLessThanOrEqual(200);
    expect(text).not.toContain('n'.repeat(201));
  });
});

describe('describeInvalidArguments on messages that repeat the path', () => {
  it('does not say the JSON Pointer twice', () => {
    const issue: AdmissionIssue = {
      code: 'invalid_json',
      path: ['lines_of_text', 4],
      message: 'unterminated string at /lines_of_text/4 (offset 136)',
      offset: 136,
    };
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      'error: invalid arguments for tool "make_file": /lines_of_text/4: unterminated string (offset 136); send the arguments again as one complete JSON object',
    );
  });
});

describe('describeInvalidArguments on the issues Contract.prepare reports', () => {
  const testTool = bind(
    FuncTool.create(
      {
        name: 'test_tool',
        inputSchema: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
            options: { type: 'object', properties: { depth: { type: 'integer' } }, additionalProperties: false },
          },
          additionalProperties: false,
        },
        decode: (value: JsonValue) => value,
      },
      () => 'ok',
    ),
  );
  const strictTool = bind(
    FuncTool.create(
      {
        name: 'test_tool',
        inputSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
        decode: (value: JsonValue) => value,
      },
      () => 'ok',
    ),
  );

  function refusedText(args: string, binding = testTool): string {
    let error: unknown;
    try {
      binding.contract.prepare({ name: 'test_tool', arguments: args });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    return describeInvalidArguments('test_tool', error as ToolError);
  }

  it('reads an undeclared root member from the issue, not from the Go-style message', () => {
    const call = {
      id: 'toolu_01BTPr2x4Nduos6gVrE19JZr',
      request: { name: 'test_tool', arguments: '{"input":"test"}' },
    };
    let error: unknown;
    try {
      testTool.contract.prepare(call.request);
    } catch (e) {
      error = e;
    }
    expect((error as ToolError).message).toBe(
      'tool: invalid invocation: arguments: (root): must NOT have member "input"; remove it',
    );
    const text =
      'error: invalid arguments for tool "test_tool": the arguments object must NOT have member "input"; remove it; fix the arguments and call again';
    expect(anthropicToolResult(call, { error })).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: text,
      is_error: true,
    });
    expect(openAIToolMessage(call, { error }).content).toBe(text);
  });

  it('renders every root issue without "(root)" or a stray "arguments:"', () => {
    expect(refusedText('{}', strictTool)).toBe(
      'error: invalid arguments for tool "test_tool": the arguments object must have required member "value"; add it; fix the arguments and call again',
    );
    expect(refusedText('[1]')).toBe(
      'error: invalid arguments for tool "test_tool": the arguments must be a JSON object, received an array; send the arguments as one JSON object; fix the arguments and call again',
    );
    expect(refusedText('{"value":"a","value":"b"}')).toBe(
      'error: invalid arguments for tool "test_tool": duplicate member name "value" at the top level (offset 13); send each member once; fix the arguments and call again',
    );
  });

  it('says a nested JSON Pointer once and lists allowed values once', () => {
    expect(refusedText('{"value":"a","options":{"depth":1,"z":0}}')).toBe(
      'error: invalid arguments for tool "test_tool": /options: must NOT have member "z"; remove it; fix the arguments and call again',
    );
    expect(refusedText('{"value":"a","options":{"depth":"deep"}}')).toBe(
      'error: invalid arguments for tool "test_tool": /options/depth: must be integer; fix the arguments and call again',
    );
    expect(refusedText('{"value":"a","units":"kelvin"}')).toBe(
      'error: invalid arguments for tool "test_tool": /units: must be one of ["celsius","fahrenheit"]; fix the arguments and call again',
    );
  });

  it('keeps the truncated-JSON text: pointer, rule, offset, and a request for one complete object', () => {
    expect(refusedText('{"value": "a", "lines": ["x", "unfinished')).toBe(
      'error: invalid arguments for tool "test_tool": /lines/1: unterminated string (offset 30); close it with \'"\'; send the arguments again as one complete JSON object',
    );
  });

  it('names the root "the arguments" for a DTO issue saying the value is not an object', () => {
    const issue: AdmissionIssue = {
      code: 'dto',
      path: [],
      constraint: 'type',
      message: 'must be an object, received array',
    };
    expect(describeInvalidArguments('t', refusal(issue))).toBe(
      'error: invalid arguments for tool "t": the arguments must be an object, received array; fix the arguments and call again',
    );
  });
});
