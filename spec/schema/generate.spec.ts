import path from 'node:path';
import { generateManifest, type GenerationResult, type ManifestTool } from '../../lib/schema';
import { compileSchemaValue } from '../../lib/protocol';
import { located } from './verdicts';

const FIXTURES = path.join(__dirname, 'fixtures');
/** A Date member: RFC 3339 date-time as a JavaScript Date can hold it (no leap second). */
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:[0-5]\\d(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';
const HEX = '[0-9A-Fa-f]';
const UUID_ALL =
  `^(?:${HEX}{8}-${HEX}{4}-[1-8]${HEX}{3}-[89ABab]${HEX}{3}-${HEX}{12}|00000000-0000-0000-0000-000000000000|` +
  '[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12})$';

// The compiler is slow (seconds per program): every test of the sample project shares one run.
let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(FIXTURES, 'project', 'tsconfig.json') });
});

function tool(name: string): ManifestTool {
  const found = result.manifest.tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`tool ${name} not generated`);
  return found;
}

function schemaOf(name: string): unknown {
  return tool(name).definition.input_schema;
}

const address = {
  type: 'object',
  properties: { street: { type: 'string' }, city: { type: 'string' } },
  additionalProperties: false,
  required: ['street', 'city'],
};

describe('generateManifest on the sample project', () => {
  it('generates without errors and lists every tool sorted by name', () => {
    expect(result.errors).toEqual([]);
    expect(result.manifest.version).toBe(1);
    expect(result.manifest.tools.map((t) => t.name)).toEqual([
      'add_contact',
      'add_customer',
      'book_room',
      'create_note',
      'greet',
      'listNotes',
      'page',
      'ping',
      'plant_tree',
      'rename_user',
      'search',
      'set_optional',
      'set_priority',
      'set_style',
      'tag',
      'update_entity',
    ]);
  });

  it('notes: JSDoc becomes descriptions, @Length bounds code points, optional tags are not required', () => {
    expect(tool('create_note').definition.description).toBe('Create a note and return its id.');
    expect(schemaOf('create_note')).toEqual({
      description: 'A new note.',
      type: 'object',
      properties: {
        title: { description: 'Title shown in the notes list.', type: 'string', minLength: 1, maxLength: 120 },
        tags: { description: 'Optional tags, lower case.', type: 'array', items: { type: 'string' } },
      },
      additionalProperties: false,
      required: ['title'],
    });
  });

  it("notes: a decoder-only decorator is a warning naming the field and why, located at the decorator's line", () => {
    const warnings = result.warnings.filter((w) => w.tool === 'create_note');
    // The manifest carries the sentences of the tool's warnings (lib/schema/messages.ts words them).
    expect(tool('create_note').warnings).toEqual(warnings.map((w) => w.message));
    expect(warnings.map(located)).toEqual([
      {
        tool: 'create_note',
        reported: 'CreateNoteInput.title: decoder_only @IsAlpha',
        file: 'notes.tools.ts',
        line: 7,
      },
    ]);
  });

  it('a method without parameters takes the empty closed object and keeps its JSDoc description', () => {
    expect(tool('listNotes').definition).toEqual({
      name: 'listNotes',
      description: 'List every note.',
      input_schema: { type: 'object', properties: {}, additionalProperties: false },
    });
    expect(tool('listNotes').source).toEqual({
      file: 'notes.tools.ts',
      class: 'NotesTools',
      method: 'listNotes',
      input: null,
    });
    expect(tool('ping').definition).toEqual({
      name: 'ping',
      input_schema: { type: 'object', properties: {}, additionalProperties: false },
    });
  });

  it('search: string enums, @IsIn, @IsInt with @Min/@Max, and the @Tool description literal', () => {
    expect(tool('search').definition.description).toBe('Search the index.');
    expect(schemaOf('search')).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string' },
        sort: { type: 'string', enum: ['relevance', 'newest'] },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
        source: { type: 'string', enum: ['web', 'news'] },
      },
      additionalProperties: false,
      required: ['query', 'sort', 'limit', 'source'],
    });
  });

  it('booking: Date and ISO 8601 strings are date-time strings; a Date member refuses what a Date cannot hold (leap second)', () => {
    expect(schemaOf('book_room')).toEqual({
      type: 'object',
      properties: {
        checkIn: {
          description: 'When the stay starts.',
          type: 'string',
          format: 'date-time',
          pattern: DATE_TIME_PATTERN,
        },
        checkOut: { type: 'string', format: 'date-time' },
        requestedAt: { type: 'string', format: 'date-time' },
      },
      additionalProperties: false,
      required: ['checkIn', 'checkOut', 'requestedAt'],
    });
  });

  it('customer: nested DTOs and arrays of DTOs are closed objects, with array size bounds', () => {
    expect(schemaOf('add_customer')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        billing: address,
        shipping: { type: 'array', items: address, minItems: 1, maxItems: 3 },
      },
      additionalProperties: false,
      required: ['name', 'billing', 'shipping'],
    });
  });

  it('tree: a recursive root DTO is an object at the top (with its properties) that refers to itself with "#", no $defs copy', () => {
    const schema = {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      additionalProperties: false,
      required: ['label', 'children'],
    };
    expect(schemaOf('plant_tree')).toEqual(schema);
    // lib/protocol compiles it (Ajv needs a synthetic $id to resolve "#") and recurses through it.
    const compiled = compileSchemaValue(schemaOf('plant_tree'));
    expect(compiled.validate({ label: 'a', children: [{ label: 'b', children: [] }] })).toEqual([]);
    expect(compiled.validate({ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] })[0]?.path).toEqual([
      'children',
      0,
      'children',
      0,
    ]);
    expect(compiled.value).toEqual(schema);
  });

  it('priority: a numeric enum is an integer enum that accepts its numbers only', () => {
    expect(schemaOf('set_priority')).toEqual({
      type: 'object',
      properties: { priority: { type: 'integer', enum: [1, 2, 3] } },
      additionalProperties: false,
      required: ['priority'],
    });
  });

  it('style: a string-literal union is a string enum', () => {
    expect(schemaOf('set_style')).toEqual({
      type: 'object',
      properties: { mode: { type: 'string', enum: ['fast', 'slow'] } },
      additionalProperties: false,
      required: ['mode'],
    });
  });

  it('optional: x?: T is not required, T | null is required and nullable', () => {
    expect(schemaOf('set_optional')).toEqual({
      type: 'object',
      properties: {
        nickname: { type: 'string' },
        note: { type: ['null', 'string'] },
        age: { type: ['null', 'number'] },
      },
      additionalProperties: false,
      required: ['note'],
    });
  });

  it('rename: @Expose({ name }) is the wire name', () => {
    expect(schemaOf('rename_user')).toEqual({
      type: 'object',
      properties: { user_id: { type: 'string' } },
      additionalProperties: false,
      required: ['user_id'],
    });
  });

  it('paging: an initializer becomes the default and the member is not required', () => {
    expect(schemaOf('page')).toEqual({
      type: 'object',
      properties: {
        limit: { type: 'integer', default: 20, minimum: 1 },
        order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
        cursor: { type: 'string' },
      },
      additionalProperties: false,
      required: ['cursor'],
    });
  });

  it('inheritance: members and JSDoc of the base class come first, in class layout order', () => {
    expect(schemaOf('update_entity')).toEqual({
      type: 'object',
      properties: { id: { description: 'The entity id.', type: 'string' }, value: { type: 'string' } },
      additionalProperties: false,
      required: ['id', 'value'],
    });
  });

  it('greet: class and multi-line member JSDoc become descriptions; the method JSDoc describes the tool', () => {
    expect(tool('greet').definition.description).toBe('Say hello to someone.');
    expect(schemaOf('greet')).toEqual({
      description: 'Who to greet.',
      type: 'object',
      properties: {
        name: { description: "The person's display name.", type: 'string' },
        volume: { description: 'How loud to greet, from 1 to 3.', type: 'number' },
      },
      additionalProperties: false,
      required: ['name', 'volume'],
    });
  });

  it('contact: Matches, Length, Min/Max, IsInt, formats, IsPositive/IsNegative and IsNotEmpty', () => {
    expect(schemaOf('add_contact')).toEqual({
      type: 'object',
      properties: {
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
        digits: { type: 'string', pattern: '^\\d+$' },
        name: { type: 'string', minLength: 2, maxLength: 40 },
        age: { type: 'integer', minimum: 0, maximum: 130 },
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        id: { type: 'string', pattern: UUID_ALL },
        balance: { type: 'number', exclusiveMinimum: 0 },
        debt: { type: 'number', exclusiveMaximum: 0 },
        nickname: { type: 'string', minLength: 1 },
      },
      additionalProperties: false,
      required: ['country', 'digits', 'name', 'age', 'email', 'homepage', 'id', 'balance', 'debt', 'nickname'],
    });
  });

  it('tags: each: true constrains the items; ArrayNotEmpty and ArrayUnique the array', () => {
    expect(schemaOf('tag')).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 10 }, minItems: 1, uniqueItems: true },
        scores: { type: 'array', items: { type: 'integer', minimum: 0 } },
      },
      additionalProperties: false,
      required: ['tags', 'scores'],
    });
  });

  it('no schema carries a draft-07 $schema or a definitions member', () => {
    const text = JSON.stringify(result.manifest);
    expect(text).not.toContain('$schema');
    expect(text).not.toContain('definitions');
  });

  it('records the source and a sha256 fingerprint per tool, through an aliased @Tool import', () => {
    expect(tool('rename_user').source).toEqual({
      file: 'misc.tools.ts',
      class: 'MiscTools',
      method: 'rename',
      input: 'RenameInput',
    });
    for (const t of result.manifest.tools) expect(t.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(new Set(result.manifest.tools.map((t) => t.fingerprint)).size).toBe(result.manifest.tools.length);
  });

  it('is deterministic: a second run over the same files gives the same manifest', () => {
    const again = generateManifest({
      files: [path.join(FIXTURES, 'project', 'notes.tools.ts')],
      root: path.join(FIXTURES, 'project'),
      compilerOptions: { types: [], lib: ['lib.es2022.d.ts'] },
    });
    expect(again.errors).toEqual([]);
    expect(again.manifest.tools).toEqual(result.manifest.tools.filter((t) => t.source.file === 'notes.tools.ts'));
  });
});
