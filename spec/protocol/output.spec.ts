import { OUTPUT_SCHEMA, Output, ToolError } from '../../lib/protocol';
import { MAX_INPUT_BYTES } from '../../lib/protocol';
import { thrownBy } from './helpers';

const code = (fn: () => unknown) => (thrownBy(fn) as ToolError).code;

describe('Output.text', () => {
  it('makes one text block, and Output.empty for ""', () => {
    expect(Output.text('hi').content).toEqual([{ kind: 'text', text: 'hi' }]);
    expect(Output.text('')).toBe(Output.empty);
    expect(Output.empty.isEmpty).toBe(true);
    expect(Output.empty.asText()).toBe('');
  });

  it('refuses lone surrogates', () => {
    expect(code(() => Output.text('\ud800'))).toBe('ERR_INVALID_OUTPUT');
  });
});

describe('Output.json', () => {
  it('keeps the details text exactly, whitespace and number spelling included', () => {
    const output = Output.json(' {"n": 1.0} ');
    expect(output.details).toBe(' {"n": 1.0} ');
    expect(output.asText()).toBe(' {"n": 1.0} ');
    expect(Output.json('null').asText()).toBe('null');
  });

  it('refuses empty, invalid and oversized details', () => {
    expect((thrownBy(() => Output.json('')) as ToolError).message).toBe(
      'tool: invalid output: details must not be empty',
    );
    expect(code(() => Output.json('{'))).toBe('ERR_INVALID_OUTPUT');
    expect(code(() => Output.json('{} {}'))).toBe('ERR_INVALID_OUTPUT');
    expect(code(() => Output.json(`"${'x'.repeat(MAX_INPUT_BYTES)}"`))).toBe('ERR_INVALID_OUTPUT');
  });
});

describe('Output.create', () => {
  const png = {
    kind: 'media',
    media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'iVBORw0KGgo=' } },
  } as const;

  it('validates and freezes blocks', () => {
    const output = Output.create({ content: [{ kind: 'text', text: 'a' }, png], details: '{"ok":true}' });
    expect(output.content).toHaveLength(2);
    expect(Object.isFrozen(output.content[1])).toBe(true);
    expect(output.details).toBe('{"ok":true}');
    expect(Output.create({})).toBe(Output.empty);
  });

  it.each([
    ['an empty text', { kind: 'text', text: '' }, 'content[0]: text must not be empty'],
    ['an unknown kind', { kind: 'reasoning', text: 'x' }, 'content[0]: kind must be "text" or "media"'],
    ['an extra member', { kind: 'text', text: 'x', citations: [] }, 'unknown member "citations"'],
    [
      'a bad MIME type',
      { kind: 'media', media: { mime: 'png', source: { kind: 'uri', uri: 'https://x/y.png' } } },
      'media.mime "png"',
    ],
    [
      'bad base64',
      { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: 'abc' } } },
      'padded base64',
    ],
    [
      'empty bytes',
      { kind: 'media', media: { mime: 'image/png', source: { kind: 'bytes', bytes: '' } } },
      'padded base64',
    ],
    [
      'a relative URI',
      { kind: 'media', media: { mime: 'image/png', source: { kind: 'uri', uri: '/x.png' } } },
      'absolute URI',
    ],
    [
      'a blank reference',
      { kind: 'media', media: { mime: 'image/png', source: { kind: 'reference', ref: '  ' } } },
      'must not be blank',
    ],
    [
      'two sources',
      { kind: 'media', media: { mime: 'image/png', source: { kind: 'uri', uri: 'https://x', ref: 'y' } } },
      'unknown member "ref"',
    ],
  ])('refuses %s', (_label, block, text) => {
    const err = thrownBy(() => Output.create({ content: [block as never] })) as ToolError;
    expect(err.code).toBe('ERR_INVALID_OUTPUT');
    expect(err.message).toContain(text);
  });

  it('accepts MIME parameters, URIs and references', () => {
    expect(() =>
      Output.create({
        content: [
          {
            kind: 'media',
            media: { mime: 'text/plain; charset=utf-8', source: { kind: 'uri', uri: 'https://example.com/a.txt' } },
          },
          { kind: 'media', media: { mime: 'application/pdf', source: { kind: 'reference', ref: 'file-123' } } },
        ],
      }),
    ).not.toThrow();
  });
});

describe('Output.asText', () => {
  it('joins text blocks without a separator and ignores details', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'a' },
        { kind: 'text', text: 'b' },
      ],
      details: '1',
    });
    expect(output.asText()).toBe('ab');
  });

  it('is undefined when any block is media', () => {
    const output = Output.create({
      content: [
        { kind: 'text', text: 'a' },
        { kind: 'media', media: { mime: 'image/png', source: { kind: 'reference', ref: 'r' } } },
      ],
    });
    expect(output.asText()).toBeUndefined();
  });
});

describe('Output wire form', () => {
  it('omits empty members and round-trips through parse', () => {
    expect(JSON.stringify(Output.empty)).toBe('{}');
    const output = Output.create({ content: [{ kind: 'text', text: 'a' }], details: '{"n":1}' });
    const wire = JSON.stringify(output);
    expect(wire).toBe('{"content":[{"kind":"text","text":"a"}],"details":{"n":1}}');
    const parsed = Output.parse(wire);
    expect(parsed.content).toEqual(output.content);
    expect(parsed.details).toBe('{"n":1}');
  });

  it('parses strictly', () => {
    expect(code(() => Output.parse('{"content":[],"extra":1}'))).toBe('ERR_INVALID_OUTPUT');
    expect(code(() => Output.parse('[]'))).toBe('ERR_INVALID_OUTPUT');
    expect(code(() => Output.parse('{"content":[{"kind":"text","text":""}]}'))).toBe('ERR_INVALID_OUTPUT');
  });

  it('publishes a wire schema and is immutable', () => {
    expect(OUTPUT_SCHEMA.additionalProperties).toBe(false);
    expect(Object.isFrozen(OUTPUT_SCHEMA.properties)).toBe(true);
    expect(Object.isFrozen(Output.text('x'))).toBe(true);
    expect(() => new (Output as unknown as new (t: symbol) => unknown)(Symbol('Output'))).toThrow(ToolError);
  });
});
