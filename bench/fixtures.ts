/**
 * The two tools every per-call workload runs, in every library's terms: `add {a, b}` and a 6-field
 * `create_note` with a nested array of objects. One set of arguments, one function body, one
 * answer, so every row of the table does the same work.
 */
import { z } from 'zod';
import type { JsonObject } from '../lib/protocol';

/** The input of `add`. */
export interface AddInput {
  readonly a: number;
  readonly b: number;
}

/** One checklist item of `create_note`. */
export interface ChecklistItem {
  readonly text: string;
  readonly done: boolean;
}

/** The input of `create_note`: 6 members, one of them a nested array of objects. */
export interface NoteInput {
  readonly title: string;
  readonly body: string;
  readonly tags: readonly string[];
  readonly priority: number;
  readonly pinned: boolean;
  readonly checklist: readonly ChecklistItem[];
}

/** The function behind `add` (the same body in every library). */
export function add(input: AddInput): { sum: number } {
  return { sum: input.a + input.b };
}

/** The function behind `create_note`: a deterministic id from the input, so results can be compared. */
export function createNote(input: NoteInput): { id: string; items: number } {
  return { id: `note-${input.title.length}-${input.tags.length}`, items: input.checklist.length };
}

/** The raw arguments text a model sends for `add`. */
export const ADD_ARGS = '{"a":2,"b":3}';

/** The raw arguments text a model sends for `create_note` (about 330 UTF-8 bytes). */
export const NOTE_ARGS = JSON.stringify({
  title: 'Quarterly planning',
  body: 'Agenda: budget review, hiring plan, roadmap for Q3.\nBring the numbers from finance.',
  tags: ['work', 'planning', 'q3'],
  priority: 2,
  pinned: true,
  checklist: [
    { text: 'Book the room', done: true },
    { text: 'Send the invite', done: false },
    { text: 'Collect the numbers', done: false },
  ],
});

/** What `add` returns for ADD_ARGS. */
export const ADD_RESULT = { sum: 5 };
/** What `create_note` returns for NOTE_ARGS. */
export const NOTE_RESULT = { id: 'note-18-3', items: 3 };

/** The JSON Schema (draft 2020-12) of `add`. */
export const ADD_SCHEMA: JsonObject = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

/** The JSON Schema (draft 2020-12) of `create_note`; the class-validator DTO of note-dto.ts agrees. */
export const NOTE_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 120 },
    body: { type: 'string', maxLength: 10000 },
    tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 32 }, maxItems: 10 },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    pinned: { type: 'boolean' },
    checklist: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1, maxLength: 200 }, done: { type: 'boolean' } },
        required: ['text', 'done'],
        additionalProperties: false,
      },
    },
  },
  required: ['title', 'body', 'tags', 'priority', 'pinned', 'checklist'],
  additionalProperties: false,
};

/** The zod shape of `add` (peers: Vercel AI SDK, LangChain, OpenAI Agents, MCP SDK). */
export const addZod = z.object({ a: z.number(), b: z.number() }).strict();

/** The zod shape of `create_note`, the same constraints as NOTE_SCHEMA. */
export const noteZod = z
  .object({
    title: z.string().min(1).max(120),
    body: z.string().max(10000),
    tags: z.array(z.string().min(1).max(32)).max(10),
    priority: z.number().int().min(1).max(5),
    pinned: z.boolean(),
    checklist: z.array(z.object({ text: z.string().min(1).max(200), done: z.boolean() }).strict()).max(50),
  })
  .strict();

/** One tool as the workloads see it: its name, arguments, expected answer and schemas. */
export interface BenchTool {
  readonly name: 'add' | 'create_note';
  readonly description: string;
  readonly args: string;
  readonly expected: object;
  readonly schema: JsonObject;
  readonly zod: typeof addZod | typeof noteZod;
  readonly fn: (input: never) => object;
}

/** The tools, in table order. */
export const BENCH_TOOLS: readonly BenchTool[] = [
  {
    name: 'add',
    description: 'Add two numbers.',
    args: ADD_ARGS,
    expected: ADD_RESULT,
    schema: ADD_SCHEMA,
    zod: addZod,
    fn: add,
  },
  {
    name: 'create_note',
    description: 'Create a note with tags and a checklist.',
    args: NOTE_ARGS,
    expected: NOTE_RESULT,
    schema: NOTE_SCHEMA,
    zod: noteZod,
    fn: createNote,
  },
];
