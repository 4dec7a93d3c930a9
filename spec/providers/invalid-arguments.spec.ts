import 'reflect-metadata';
import { IsInt } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { FuncTool, ToolError, bind } from '../../lib/protocol';
import { hasLoneSurrogate } from '../../lib/protocol/json';
import type { AdmissionIssue, JsonValue } from '../../lib/protocol';
import { anthropicToolResult, describeInvalidArguments, openAIToolMessage } from '../../lib/providers';

/**
 * describeInvalidArguments' own wording, pinned here once: the head naming the tool, how the root
 * reads, and the two closing fixes. The rules inside come from the issues (their builders' specs pin them).
 */
const head = (tool: string): string => `error: invalid arguments for tool "${tool}": `;
const ROOT = 'the arguments object';
const FIX = 'fix the arguments and call again';
const RESEND = 'send the arguments again as one complete JSON object';

/** An issue's rule without the location its message starts with (`(root): `, `/a/0: `). */
const rule = (issue: AdmissionIssue): string => issue.message.replace(/^(\(root\)|(\/[^:]*)?): /, '');

function refusal(...issues: AdmissionIssue[]): ToolError {
  return new ToolError('ERR_INVALID_INVOCATION', 'arguments: refused', { issues });
}

describe('describeInvalidArguments', () => {
  it('frames the issues: the tool, each JSON Pointer and rule, and the fix (the wording, pinned once)', () => {
    const issue: AdmissionIssue = { code: 'schema', path: ['units'], message: 'must be one of the units' };
    expect(describeInvalidArguments('get_weather', refusal(issue))).toBe(
      'error: invalid arguments for tool "get_weather": /units: must be one of the units; fix the arguments and call again',
    );
    expect(describeInvalidArguments('get_weather', refusal(issue))).toBe(
      `${head('get_weather')}/units: ${rule(issue)}; ${FIX}`,
    );
  });

  it('names the tool, the JSON Pointer, the rule and the allowed values of an enum', () => {
    const issue: AdmissionIssue = {
      code: 'schema',
      path: ['units'],
      message: 'must be equal to one of the allowed values',
      keyword: 'enum',
      params: { allowedValues: ['celsius', 'fahrenheit'] },
    };
    expect(describeInvalidArguments('get_weather', refusal(issue))).toBe(
      `${head('get_weather')}/units: ${issue.message} (celsius, fahrenheit); ${FIX}`,
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
      `${head('test_tool')}${ROOT} ${issue.message} ("count"; remove it); ${FIX}`,
    );
  });

  it('asks for one complete JSON object when the JSON is broken, with the offset (a root syntax issue reads as is)', () => {
    const issue: AdmissionIssue = { code: 'invalid_json', path: [], message: 'unexpected end of input', offset: 42 };
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      `${head('make_file')}${issue.message} (at offset 42); ${RESEND}`,
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
    expect(text).toContain(`/tags/4: bad item x; and 2 more; ${FIX}`);
    expect(text).not.toContain('/tags/5');
    expect(text).not.toContain('x'.repeat(201));
  });

  it('falls back to the message without its sentinel prefix when there are no issues', () => {
    const detail = 'request: tool name "get_wether" does not match "get_weather"';
    const error = new ToolError('ERR_INVALID_INVOCATION', detail);
    expect(error.message).not.toBe(detail); // the code's sentinel prefix, dropped below
    expect(describeInvalidArguments('get_wether', error)).toBe(
      `${head('get_wether')}${detail}; fix the call and try again`,
    );
  });
});

describe('describeInvalidArguments caps what the model reads', () => {
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
      .replace(head('tagged'), '')
      .replace(new RegExp(`; (${FIX}|${RESEND})$`), '')
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
    const [required, extra, ...items] = error.issues;
    expect(describeInvalidArguments('tagged', error)).toBe(
      head('tagged') +
        [
          `${ROOT} ${rule(required)}`,
          `${ROOT} ${rule(extra)}`,
          ...items.slice(0, 3).map((i) => `/tags/${String(i.path[1])}: ${rule(i)}`),
          'and 3 more',
          FIX,
        ].join('; '),
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
    // The pointer keeps its start and end around `...`, then the rule.
    expect(shown).toMatch(/^\/tags\/0\/0\/0.*\.\.\..*\/0\/0: /);
    expect(shown).toContain(`/0/0: ${error.issues[0].message.slice(0, 20)}`);
    expect(text.length).toBeLessThan(400);
  });

  it('says the too_deep pointer once and keeps the fix, cutting the pointer instead', () => {
    // Regression (new-user trial, finding 12b): `/a/0/.../0: nesting deeper than 10000 arrays and
    // objects at /a/0/0/0/...` said the pointer twice and the 200-unit cut dropped the fix.
    const error = refused(`{"a":${'['.repeat(10_001)}${']'.repeat(10_001)}}`);
    expect(error.issues.map((i) => i.code)).toEqual(['too_deep']);
    const text = describeInvalidArguments('tagged', error);
    // The one issue is the text between the head and the closing fix, its own fix included.
    const shown = text.replace(head('tagged'), '').replace(`; ${FIX}`, '');
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown.split('/a/0/0').length - 1).toBe(1);
    expect(shown).not.toContain(' at /a');
    expect(error.issues[0].message).toMatch(/; send a flatter value$/);
    expect(shown.endsWith('; send a flatter value')).toBe(true);
  });

  it('cuts a long rule before its fix, keeping the fix whole', () => {
    const issue: AdmissionIssue = {
      code: 'dto',
      path: ['k'.repeat(300)],
      message: `must be one of ${'x'.repeat(400)}; send one of the listed values`,
    };
    const shown = describeInvalidArguments('tagged', refusal(issue))
      .replace(head('tagged'), '')
      .replace(`; ${FIX}`, '');
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown.endsWith('...; send one of the listed values')).toBe(true);
    expect(shown.startsWith(`/${'k'.repeat(19)}...`)).toBe(true);
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
    expect(text.startsWith(head('scores'))).toBe(true);
    expect(text.endsWith(`; ${FIX}`)).toBe(true);
    const shown = text.slice(head('scores').length, -`; ${FIX}`.length).split('; ');
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
    const once = issue.message.replace(' at /lines_of_text/4', '');
    expect(describeInvalidArguments('make_file', refusal(issue))).toBe(
      `${head('make_file')}/lines_of_text/4: ${once}; ${RESEND}`,
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

  /** The model's text for refused `args`, and the one issue the refusal carries. */
  function refused(args: string, binding = testTool): { text: string; issue: AdmissionIssue } {
    let error: unknown;
    try {
      binding.contract.prepare({ name: 'test_tool', arguments: args });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).issues).toHaveLength(1);
    return { text: describeInvalidArguments('test_tool', error as ToolError), issue: (error as ToolError).issues[0] };
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
    const [issue] = (error as ToolError).issues;
    expect(issue).toMatchObject({ path: [], keyword: 'additionalProperties', params: { additionalProperty: 'input' } });
    expect((error as ToolError).message).toContain(`(root): ${rule(issue)}`);
    const text = `${head('test_tool')}${ROOT} ${rule(issue)}; ${FIX}`;
    expect(anthropicToolResult(call, { error })).toEqual({
      type: 'tool_result',
      tool_use_id: call.id,
      content: text,
      is_error: true,
    });
    expect(openAIToolMessage(call, { error }).content).toBe(text);
  });

  it('renders every root issue without "(root)" or a stray "arguments:"', () => {
    const required = refused('{}', strictTool);
    expect(required.issue).toMatchObject({ path: [], keyword: 'required' });
    expect(required.text).toBe(`${head('test_tool')}${ROOT} ${rule(required.issue)}; ${FIX}`);
    // A value that is not an object: "the arguments", not "the arguments object".
    const array = refused('[1]');
    expect(array.issue).toMatchObject({ path: [], keyword: 'type' });
    expect(array.text).toBe(`${head('test_tool')}the arguments ${rule(array.issue)}; ${FIX}`);
    // A rule that does not start with a verb locates itself: it reads as is.
    const duplicate = refused('{"value":"a","value":"b"}');
    expect(duplicate.issue).toMatchObject({ code: 'duplicate_member', path: [] });
    expect(duplicate.text).toBe(`${head('test_tool')}${duplicate.issue.message}; ${FIX}`);
    for (const { text } of [required, array, duplicate]) {
      expect(text).not.toContain('(root)');
      expect(text).not.toContain('arguments:');
    }
  });

  it('says a nested JSON Pointer once and lists allowed values once', () => {
    for (const [args, pointer] of [
      ['{"value":"a","options":{"depth":1,"z":0}}', '/options'],
      ['{"value":"a","options":{"depth":"deep"}}', '/options/depth'],
      ['{"value":"a","units":"kelvin"}', '/units'],
    ]) {
      const { text, issue } = refused(args);
      expect(issue.message.startsWith(`${pointer}: `)).toBe(true); // the issue says it; the text says it once
      expect(text).toBe(`${head('test_tool')}${pointer}: ${rule(issue)}; ${FIX}`);
    }
    // The allowed values, which the rule already lists, are not added a second time.
    expect(refused('{"value":"a","units":"kelvin"}').text.match(/celsius/g)).toHaveLength(1);
  });

  it('keeps the truncated-JSON text: pointer, rule, offset, and a request for one complete object', () => {
    const { text, issue } = refused('{"value": "a", "lines": ["x", "unfinished');
    expect(issue).toMatchObject({ code: 'invalid_json', path: ['lines', 1], offset: 30 });
    // The issue's `at /lines/1` becomes the leading pointer.
    expect(text).toBe(`${head('test_tool')}/lines/1: ${issue.message.replace(' at /lines/1', '')}; ${RESEND}`);
  });

  it('names the root "the arguments" for a DTO issue saying the value is not an object', () => {
    const issue: AdmissionIssue = {
      code: 'dto',
      path: [],
      constraint: 'type',
      message: 'must be an object, received array',
    };
    expect(describeInvalidArguments('t', refusal(issue))).toBe(`${head('t')}the arguments ${issue.message}; ${FIX}`);
  });
});
