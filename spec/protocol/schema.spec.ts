import Ajv2020 from 'ajv/dist/2020';
import AjvDraft07 from 'ajv';
import { hasErrorCode, ToolError } from '../../lib/protocol/errors';
import { admitJson, MAX_DEPTH, MAX_INPUT_BYTES } from '../../lib/protocol/json';
import { DATE_TIME_PATTERN, describeFormat } from '../../lib/protocol/formats';
import type { JsonValue } from '../../lib/protocol/json';
import {
  compileSchema,
  compileSchemaValue,
  DRAFT_07,
  DRAFT_2020_12,
  MAX_ALL_ERRORS_NODES,
  MAX_SCHEMA_ISSUES,
  sameValidation,
} from '../../lib/protocol/schema';

function compileError(schema: unknown): ToolError {
  try {
    if (typeof schema === 'string') compileSchema(schema);
    else compileSchemaValue(schema);
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect(hasErrorCode(e, 'ERR_INVALID_SCHEMA')).toBe(true);
    return e as ToolError;
  }
  throw new Error(`expected ${JSON.stringify(schema)} to be refused`);
}

function parse(text: string): JsonValue {
  const r = admitJson(text);
  if (!r.ok) throw new Error(r.issue.message);
  return r.value;
}

const NOTE = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['title'],
  additionalProperties: false,
};

describe('compileSchema: the document (docs/reference-semantics.md section 3.1)', () => {
  it('refuses an empty document', () => {
    expect(compileError('').message).toBe('jsonschema: invalid schema: document is empty');
  });

  it('refuses a document over 1,048,576 UTF-8 bytes', () => {
    const text = `{"description":"${'\u00e9'.repeat(MAX_INPUT_BYTES / 2)}"}`;
    expect(compileError(text).message).toBe('jsonschema: invalid schema: document exceeds 1048576 bytes');
  });

  it.each(['{"a":1,"a":2}', '{} {}', ' ', '{"type":"string"', '\ufeff{}'])(
    'refuses %j as not RFC 7493 JSON, carrying the admission issue',
    (text) => {
      const err = compileError(text);
      expect(err.message).toBe('jsonschema: invalid schema: document is not valid RFC 7493 JSON');
      expect(err.issues).toHaveLength(1);
    },
  );

  it('compiles a valid document', () => {
    expect(compileSchema(JSON.stringify(NOTE)).validate({ title: 'x' })).toEqual([]);
  });
});

describe('compileSchemaValue: what is a schema', () => {
  it.each([
    [{ type: 'not-a-type' }, '/type: must be equal to one of the allowed values'],
    [{ minLength: -1 }, '/minLength: must be >= 0'],
    [[], 'a schema must be a JSON object or boolean, not an array'],
    [null, 'a schema must be a JSON object or boolean, not null'],
    [42, 'a schema must be a JSON object or boolean, not a number'],
    [{ type: 'string', garbage: 1 }, 'strict mode: unknown keyword: "garbage"'],
    [{ type: 'string', format: 'no-such-format' }, 'unknown format "no-such-format"'],
    [{ type: 'string', pattern: '[' }, 'pattern "[" is not a valid ECMA-262 regular expression with the u flag'],
    [{ a: undefined }, 'schema is not a JSON value'],
  ])('refuses %j: %s', (schema, reason) => {
    expect(compileError(schema).message).toContain(`jsonschema: invalid schema: ${reason}`);
  });

  it('refuses format "url" pointing to "uri" (the url regex backtracks on long strings)', () => {
    expect(compileError({ type: 'string', format: 'url' }).message).toMatch(
      /unknown format "url".*use "uri" \(RFC 3986\)$/,
    );
  });

  it('accepts true and false as schemas', () => {
    expect(compileSchemaValue(true).validate({ any: 1 })).toEqual([]);
    expect(compileSchemaValue(false).validate({})).toHaveLength(1);
  });

  it('accepts the annotations model-facing schemas use', () => {
    const schema = {
      title: 'T',
      description: 'D',
      default: {},
      examples: [{}],
      $comment: 'c',
      deprecated: false,
      type: 'object',
    };
    expect(compileSchemaValue(schema).validate({})).toEqual([]);
  });

  it('never fetches a remote $ref: it is refused at compile', () => {
    expect(compileError({ $ref: 'https://example.com/x' }).message).toContain(
      "can't resolve reference https://example.com/x",
    );
  });

  it("does not let one schema's $id satisfy another schema's remote $ref", () => {
    compileSchemaValue({ $id: 'https://example.com/shared', type: 'string' });
    compileSchemaValue({ $defs: { s: { $id: 'https://example.com/nested', type: 'string' } } });
    expect(compileError({ $ref: 'https://example.com/shared' }).message).toContain("can't resolve reference");
    expect(compileError({ $ref: 'https://example.com/nested' }).message).toContain("can't resolve reference");
  });

  it('compiles the same $id twice (no global registration)', () => {
    const s = { $id: 'https://example.com/twice', type: 'string' };
    compileSchemaValue(s);
    expect(compileSchemaValue({ ...s, minLength: 1 }).validate('')).toHaveLength(1);
  });

  it('resolves local $ref and $defs', () => {
    const c = compileSchemaValue({ $defs: { n: { type: 'integer' } }, type: 'array', items: { $ref: '#/$defs/n' } });
    expect(c.validate([1, 2])).toEqual([]);
    expect(c.validate([1, 'x'])[0]).toMatchObject({ path: [1], message: '/1: must be integer' });
  });

  it('refuses a properties entry named __proto__, which Ajv would silently not check', () => {
    expect(compileError(parse('{"properties":{"__proto__":{"type":"string"}}}')).message).toContain('"__proto__"');
  });
});

describe('compileSchemaValue: dialects', () => {
  it('uses draft 2020-12 by default (prefixItems is a keyword)', () => {
    const c = compileSchemaValue({ type: 'array', prefixItems: [{ type: 'string' }] });
    expect(c.validate([1])[0]).toMatchObject({ keyword: 'type', path: [0] });
  });

  it('accepts an explicit 2020-12 $schema', () => {
    expect(compileSchemaValue({ $schema: DRAFT_2020_12, type: 'string' }).validate(1)).toHaveLength(1);
  });

  it('selects draft-07 by $schema (definitions, array items)', () => {
    const c = compileSchemaValue({
      $schema: DRAFT_07,
      definitions: { s: { type: 'string' } },
      items: [{ $ref: '#/definitions/s' }],
    });
    expect(c.validate(['a', 1])).toEqual([]);
    expect(c.validate([1])[0]).toMatchObject({ keyword: 'type', path: [0] });
  });

  it('refuses prefixItems under draft-07 (unknown keyword there)', () => {
    expect(compileError({ $schema: DRAFT_07, prefixItems: [] }).message).toContain('unknown keyword: "prefixItems"');
  });

  it('refuses any other $schema, naming the two it accepts', () => {
    const msg = compileError({ $schema: 'http://json-schema.org/draft-04/schema#' }).message;
    expect(msg).toContain('unsupported $schema "http://json-schema.org/draft-04/schema#"');
    expect(msg).toContain(DRAFT_07);
  });
});

describe('CompiledSchema.validate', () => {
  const note = compileSchemaValue(NOTE);

  it('reports the first violation with path segments, keyword, params and a message', () => {
    expect(note.validate({ title: 'x', tags: ['a', 3] })).toEqual([
      {
        code: 'schema',
        path: ['tags', 1],
        message: '/tags/1: must be string',
        keyword: 'type',
        params: { type: 'string' },
      },
    ]);
  });

  it('says which member to add or remove', () => {
    expect(note.validate({})[0].message).toBe('(root): must have required member "title"; add it');
    expect(note.validate({ title: 'x', extra: 1 })[0].message).toBe('(root): must NOT have member "extra"; remove it');
  });

  it('names a member whose name propertyNames refuses, and why, once (it read "must NOT be valid")', () => {
    const records = compileSchemaValue({
      type: 'object',
      properties: {
        meta: { type: 'object', propertyNames: { not: { enum: ['__proto__', 'constructor'] } } },
        tags: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
      },
    });
    const seen = (value: JsonValue) => records.validate(value).map((i) => [i.message, i.params]);
    expect(seen(JSON.parse('{"meta":{"__proto__":"x"}}') as JsonValue)).toEqual([
      [
        '/meta: must NOT have member "__proto__": the name is not allowed; rename or remove it',
        { propertyName: '__proto__' },
      ],
    ]);
    expect(seen({ tags: { ok: 1, A1: 2 } })).toEqual([
      [
        '/tags: must NOT have member "A1": its name must match pattern "^[a-z]+$"; rename or remove it',
        { pattern: '^[a-z]+$', propertyName: 'A1' },
      ],
    ]);
  });

  it('says a null member may be left out when the schema lets it be absent', () => {
    // Regression (new-user trial, finding 12c): `{"lines":null}` on an optional member said only
    // `/lines: must be integer`.
    const c = compileSchemaValue({
      type: 'object',
      properties: {
        lines: { type: 'integer' },
        path: { type: 'string' },
        opt: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
      required: ['path'],
      dependentRequired: { opt: ['lines'] },
    });
    const messages = (v: unknown) => c.validate(v as JsonValue).map((i) => i.message);
    expect(messages({ lines: null, path: 'x' })).toEqual(['/lines: must be integer; or leave "lines" out']);
    expect(c.validate({ lines: null, path: 'x' })[0]).toMatchObject({ keyword: 'type', path: ['lines'] });
    // Required, required one level down, or required by another member: no such hint.
    expect(messages({ path: null })).toEqual(['/path: must be string']);
    expect(messages({ path: 'x', opt: { n: null }, lines: 1 })).toEqual(['/opt/n: must be integer']);
    expect(messages({ path: 'x', opt: {}, lines: null })).toContain('/lines: must be integer');
    // Another member missing already does not count against this one.
    expect(messages({ lines: null })).toContain('/lines: must be integer; or leave "lines" out');
    // An array item is not a member.
    expect(compileSchemaValue({ type: 'array', items: { type: 'string' } }).validate([null])[0].message).toBe(
      '/0: must be string',
    );
  });

  it('does not let inherited names (toString, constructor) satisfy required', () => {
    expect(
      compileSchemaValue({ required: ['toString', 'constructor'] })
        .validate({})
        .map((i) => i.params),
    ).toEqual([{ missingProperty: 'toString' }, { missingProperty: 'constructor' }]);
  });

  it('unescapes ~1 and ~0 in the path and keeps numeric member names as strings', () => {
    const c = compileSchemaValue({ additionalProperties: { type: 'string' } });
    expect(c.validate({ 'a/b~c': 1 })[0].path).toEqual(['a/b~c']);
    expect(c.validate({ '0': 1 })[0].path).toEqual(['0']);
  });

  it('asserts formats: date-time, email, uri', () => {
    const c = compileSchemaValue({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri' },
      },
    });
    expect(c.validate({ when: '2024-05-01T10:00:00Z', mail: 'a@example.com', link: 'https://example.com/x' })).toEqual(
      [],
    );
    expect(c.validate({ when: 'yesterday' })[0]).toMatchObject({
      keyword: 'format',
      message: `/when: must be ${describeFormat('date-time')}`,
    });
    expect(c.validate({ mail: 'not an email' })[0]).toMatchObject({ keyword: 'format', path: ['mail'] });
    expect(c.validate({ link: 'relative/path' })[0]).toMatchObject({ keyword: 'format', path: ['link'] });
  });

  it('says a refused date-time in words, not as the pattern scope-tool writes (issue 15 item 5b)', () => {
    // A Date member's schema: format date-time and DATE_TIME_PATTERN (lib/protocol/formats.ts).
    const c = compileSchemaValue({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN } },
    });
    const issues = c.validate({ at: '2025-07-01' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['at'], message: `/at: must be ${describeFormat('date-time')}` });
    expect(issues[0].message).not.toContain('\\d');
    expect(c.validate({ at: '2025-07-01T00:00:00Z' })).toEqual([]);
    // Any other pattern is shown as written.
    const other = compileSchemaValue({ type: 'string', pattern: '^[a-z]+$' });
    expect(other.validate('ABC')[0]).toMatchObject({
      keyword: 'pattern',
      message: '(root): must match pattern "^[a-z]+$"',
    });
  });

  it('uses JavaScript regular expressions with the u flag', () => {
    const c = compileSchemaValue({ type: 'string', pattern: '^\\p{Lu}' });
    expect(c.validate('\u00c9cole')).toEqual([]);
    expect(c.validate('\u00e9cole')[0]).toMatchObject({ keyword: 'pattern' });
  });

  it('gives too_deep, not a RangeError, for a deep value against a recursive schema', () => {
    const tree = compileSchemaValue({
      $defs: { n: { type: 'array', items: { $ref: '#/$defs/n' } } },
      $ref: '#/$defs/n',
    });
    const deep = parse(`${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`);
    let issues: readonly unknown[] = [];
    expect(() => {
      issues = tree.validate(deep);
    }).not.toThrow();
    expect(issues).toEqual([expect.objectContaining({ code: 'too_deep', path: [] })]);
    expect(tree.validate(parse('[[[]]]'))).toEqual([]);
  });

  it('reports a schema nested too deeply to compile as ERR_INVALID_SCHEMA', () => {
    let schema: JsonValue = { type: 'string' };
    for (let i = 0; i < 5_000; i++) schema = { items: schema };
    expect(compileError(schema).message).toMatch(/^jsonschema: invalid schema: /);
  });
});

describe('compileSchemaValue: the value', () => {
  it("keeps the author's member order and deep-freezes a copy", () => {
    const authored = { type: 'object', required: ['b'], properties: { z: { type: 'string' }, b: { type: 'number' } } };
    const c = compileSchemaValue(authored);
    expect(JSON.stringify(c.value)).toBe(JSON.stringify(authored));
    expect(c.value).not.toBe(authored);
    expect(Object.isFrozen(c.value)).toBe(true);
    expect(Object.isFrozen((c.value as { properties: { z: object } }).properties.z)).toBe(true);
    authored.properties.z.type = 'number';
    expect(c.validate({ z: 'still a string', b: 1 })).toEqual([]);
  });

  it('keeps a __proto__ member of data (const) as an own property', () => {
    const c = compileSchemaValue(parse('{"const":{"__proto__":1}}'));
    expect(Object.getPrototypeOf((c.value as { const: object }).const)).toBe(Object.prototype);
    expect(c.validate(parse('{"__proto__":1}'))).toEqual([]);
    expect(c.validate({})).toHaveLength(1);
  });
});

describe('compileSchemaValue: cache', () => {
  afterEach(() => jest.restoreAllMocks());

  it('compiles a schema once and reuses the validator for the same canonical form', () => {
    const compile2020 = jest.spyOn(Ajv2020.prototype, 'compile');
    const a = compileSchemaValue({
      type: 'object',
      properties: { cacheProbeA: { type: 'string' }, cacheProbeB: { type: 'number' } },
    });
    const b = compileSchemaValue({
      properties: { cacheProbeB: { type: 'number' }, cacheProbeA: { type: 'string' } },
      type: 'object',
    });
    expect(compile2020).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(b.value)).not.toBe(JSON.stringify(a.value));
    expect(b.validate({ cacheProbeA: 1 })).toHaveLength(1);
  });

  it('creates Ajv instances lazily, one per dialect', () => {
    const compile07 = jest.spyOn(AjvDraft07.prototype, 'compile');
    compileSchemaValue({ $schema: DRAFT_07, title: 'cache probe 07' });
    compileSchemaValue({ $schema: DRAFT_07, title: 'cache probe 07' });
    expect(compile07).toHaveBeenCalledTimes(1);
  });
});

describe('CompiledSchema.validate reports every violation', () => {
  const create = compileSchemaValue({
    type: 'object',
    properties: {
      title: { type: 'string' },
      count: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['title', 'count'],
    additionalProperties: false,
  });

  it('lists each violation, not only the first, in one pass over a refused value', () => {
    expect(
      create.validate({ count: 0, tags: ['a', 2], extra: true }).map((i) => [i.path, i.keyword, i.params]),
    ).toEqual([
      [[], 'required', { missingProperty: 'title' }],
      [[], 'additionalProperties', { additionalProperty: 'extra' }],
      [['count'], 'minimum', { comparison: '>=', limit: 1 }],
      [['tags', 1], 'type', { type: 'string' }],
    ]);
    expect(create.validate({ title: 't', count: 2 })).toEqual([]);
  });

  it('keeps the first MAX_SCHEMA_ISSUES issues of a huge array, and the first one only past MAX_ALL_ERRORS_NODES values', () => {
    expect(MAX_SCHEMA_ISSUES).toBe(10);
    expect(MAX_ALL_ERRORS_NODES).toBe(10_000);
    const small = create.validate({ title: 't', count: 1, tags: new Array(5_000).fill(0) });
    expect(small.map((i) => i.path)).toEqual(Array.from({ length: 10 }, (_, i) => ['tags', i]));
    // 1 MiB of `0,` (524,288 wrong items) would cost Ajv allErrors 500,000 error objects: first only.
    const huge = create.validate({ title: 't', count: 1, tags: new Array(524_288).fill(0) });
    expect(huge.map((i) => i.path)).toEqual([['tags', 0]]);
  });

  it('reports the branch a value meant for a failed anyOf of $ref alternatives, not every branch', () => {
    const pets = compileSchemaValue({
      type: 'object',
      properties: {
        pet: { anyOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }] },
        size: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['pet'],
      $defs: {
        Cat: {
          type: 'object',
          properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
          required: ['kind', 'lives'],
        },
        Dog: { type: 'object', properties: { kind: { const: 'dog' }, bark: { type: 'boolean' } }, required: ['kind'] },
      },
    });
    const messages = (value: JsonValue) => pets.validate(value).map((i) => i.message);
    expect(messages({ pet: { kind: 'cat', lives: 'nine' } })).toEqual(['/pet/lives: must be integer']);
    expect(messages({ pet: { kind: 'cow' } })).toEqual(['/pet/kind: must be one of ["cat","dog"]']);
    expect(messages({ pet: 'cat', size: true })).toEqual(['/pet: must be object', '/size: must be string or integer']);
    const either = compileSchemaValue({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] });
    expect(either.validate({}).map((i) => [i.keyword, i.message])).toEqual([
      [
        'anyOf',
        '(root): must match one of the alternatives (anyOf): must have required member "a"; add it; or must have required member "b"; add it',
      ],
    ]);
  });

  it('drops the if issue when its then issues are listed, and says an identical issue once', () => {
    const conditional = compileSchemaValue({
      type: 'object',
      if: { properties: { k: { const: 'a' } } },
      then: { required: ['x'] },
    });
    expect(conditional.validate({ k: 'a' }).map((i) => i.keyword)).toEqual(['required']);
    const twice = compileSchemaValue({ allOf: [{ required: ['id'] }, { required: ['id'] }] });
    expect(twice.validate({}).map((i) => [i.path, i.keyword, i.params])).toEqual([
      [[], 'required', { missingProperty: 'id' }],
    ]);
  });

  it('keeps schemas that differ in annotations on one validator, and each reports all its issues', () => {
    const a = compileSchemaValue({ description: 'A', type: 'object', required: ['p', 'q'] });
    const b = compileSchemaValue({ description: 'B', type: 'object', required: ['p', 'q'] });
    expect(sameValidation(a, b)).toBe(true);
    expect(a.validate({})).toHaveLength(2);
    expect(b.validate({})).toEqual(a.validate({}));
  });
});
