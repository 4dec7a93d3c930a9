/**
 * The provider-neutral value a tool produces: ordered content blocks plus optional JSON details.
 * Ports `Output`, `NewTextOutput`, `NewJSONOutput`, `Output.Text`, its JSON form and `JSONSchemaModel`.
 */
import type { ContentBlock } from './content';
import { freezeBlock } from './content';
import { ToolError, goQuote, messageOf } from './errors';
import type { JsonObject, JsonValue } from './json';
import { MAX_INPUT_BYTES, admitJson, checkJson, hasLoneSurrogate, utf8Length } from './json';
import { isJsonObject, toJsonData } from './json-data';
import { wireJsonRefused } from './messages';

const TOKEN = Symbol('Output');
let emptyOutput: Output | undefined;
/** Brand check: true only for objects the Output constructor initialized (set in a static block). */
let hasOutputBrand: (value: object) => boolean = () => false;

/** Wire form of an Output: `{"content":[...],"details":<json>}`, each member omitted when absent. */
export interface OutputWire {
  readonly content?: readonly ContentBlock[];
  readonly details?: JsonValue;
}

/** Configuration of Output.create. `details` is raw JSON text, kept exactly. */
export interface OutputConfig {
  readonly content?: readonly ContentBlock[];
  readonly details?: string;
}

/**
 * An immutable tool output.
 * - `content`: model-visible blocks in order (frozen); text blocks are non-empty.
 * - `details`: one RFC 7493 JSON text for structured consumers, exactly as given (at most
 *   MAX_INPUT_BYTES UTF-8 bytes), or `undefined` when absent.
 * Immutable, so sharing an Output is as safe as Go's deep copies.
 */
export class Output {
  readonly #content: readonly ContentBlock[];
  readonly #details: string | undefined;

  static {
    hasOutputBrand = (value) => #content in value;
  }

  /** @internal use Output.text, Output.json, Output.create or Output.empty */
  constructor(token: symbol, content: readonly ContentBlock[], details: string | undefined) {
    if (token !== TOKEN)
      throw new ToolError('ERR_INVALID_OUTPUT', 'use Output.text(), Output.json() or Output.create()');
    this.#content = content;
    this.#details = details;
    Object.freeze(this);
  }

  /** The empty output: no blocks, no details (Go's zero Output). `asText()` is `""`. */
  static get empty(): Output {
    emptyOutput ??= new Output(TOKEN, Object.freeze([]), undefined);
    return emptyOutput;
  }

  /**
   * A text output: one text block, or Output.empty for `""`. Ports NewTextOutput.
   * @throws ToolError ERR_INVALID_OUTPUT when `text` is not a string or holds a lone surrogate
   */
  static text(text: string): Output {
    if (typeof text !== 'string' || hasLoneSurrogate(text)) {
      throw new ToolError('ERR_INVALID_OUTPUT', 'content[0]: text must be a valid Unicode string');
    }
    return text === ''
      ? Output.empty
      : new Output(TOKEN, Object.freeze([Object.freeze({ kind: 'text', text } as const)]), undefined);
  }

  /**
   * A structured output whose details are `rawJson`, kept exactly (whitespace included). Ports NewJSONOutput.
   * @param rawJson - one RFC 7493 JSON text, at most MAX_INPUT_BYTES UTF-8 bytes
   * @throws ToolError ERR_INVALID_OUTPUT when empty, too large or not one valid JSON value
   */
  static json(rawJson: string): Output {
    return new Output(TOKEN, Object.freeze([]), checkDetails(rawJson));
  }

  /**
   * An output with content blocks and/or details, validated and frozen.
   * @throws ToolError ERR_INVALID_OUTPUT (`content[i]: ...` or `details ...`) naming what is wrong
   */
  static create(config: OutputConfig): Output {
    if (typeof config !== 'object' || config === null)
      throw new ToolError('ERR_INVALID_OUTPUT', 'config must be an object');
    const blocks = config.content ?? [];
    if (!Array.isArray(blocks)) throw new ToolError('ERR_INVALID_OUTPUT', 'content must be an array of blocks');
    const content = blocks.map((block, i) => {
      try {
        return freezeBlock(block);
      } catch (e) {
        throw new ToolError('ERR_INVALID_OUTPUT', `content[${i}]: ${messageOf(e)}`);
      }
    });
    const details = config.details === undefined ? undefined : checkDetails(config.details);
    if (content.length === 0 && details === undefined) return Output.empty;
    return new Output(TOKEN, Object.freeze(content), details);
  }

  /**
   * Decodes the wire form strictly (RFC 7493, no unknown members) and validates it. Details are
   * re-encoded compactly from the admitted value. Ports Output.UnmarshalJSON.
   * @throws ToolError ERR_INVALID_OUTPUT naming what is wrong
   */
  static parse(wireJson: string): Output {
    const admitted = admitJson(String(wireJson));
    if (!admitted.ok) throw wireJsonRefused('ERR_INVALID_OUTPUT', admitted.issue);
    const wire = admitted.value;
    if (!isJsonObject(wire))
      throw new ToolError('ERR_INVALID_OUTPUT', 'wire JSON must be an object { content?, details? }');
    for (const key of Object.keys(wire)) {
      if (key !== 'content' && key !== 'details') {
        throw new ToolError('ERR_INVALID_OUTPUT', `unknown member ${goQuote(key)}; expected content, details`);
      }
    }
    let details: string | undefined;
    if (wire.details !== undefined) {
      const data = toJsonData(wire.details);
      if (!data.ok) throw new ToolError('ERR_INVALID_OUTPUT', `details: ${data.reason}`);
      details = data.text;
    }
    return Output.create({ content: wire.content as unknown as ContentBlock[] | undefined, details });
  }

  /** The content blocks, in order (frozen). */
  get content(): readonly ContentBlock[] {
    return this.#content;
  }

  /** The details JSON text exactly as given, or undefined when absent. */
  get details(): string | undefined {
    return this.#details;
  }

  /** True for the empty output (no blocks, no details). */
  get isEmpty(): boolean {
    return this.#content.length === 0 && this.#details === undefined;
  }

  /**
   * The lossless text projection. Ports Output.Text: with no blocks, the details text (`""` when
   * absent); with any media block, `undefined`; otherwise the text blocks joined with no separator
   * (details ignored).
   */
  asText(): string | undefined {
    if (this.#content.length === 0) return this.#details ?? '';
    let out = '';
    for (const block of this.#content) {
      if (block.kind !== 'text') return undefined;
      out += block.text;
    }
    return out;
  }

  /** The wire form for JSON.stringify: `{content?, details?}` (details as a parsed JSON value). */
  toJSON(): OutputWire {
    const wire: { content?: readonly ContentBlock[]; details?: JsonValue } = {};
    if (this.#content.length > 0) wire.content = this.#content;
    if (this.#details !== undefined) {
      const admitted = admitJson(this.#details);
      if (admitted.ok) wire.details = admitted.value;
    }
    return wire;
  }
}

/**
 * A structured output for JSON text the protocol itself wrote (toJsonText). When `admitted` (the
 * writer guarantees RFC 7493 admission, see JsonText), only the size bound is checked here, which
 * is all Output.json would still find; otherwise Output.json runs its full check. Either way the
 * result, and any refusal, is what Output.json(text) gives. @internal
 */
export function jsonOutputOf(text: string, admitted: boolean): Output {
  if (!admitted || text === '' || (text.length * 3 > MAX_INPUT_BYTES && utf8Length(text) > MAX_INPUT_BYTES))
    return Output.json(text);
  return new Output(TOKEN, EMPTY_CONTENT, text);
}

const EMPTY_CONTENT: readonly ContentBlock[] = Object.freeze([]);

/**
 * Reports whether `value` is a genuine Output built by this module: a private-field brand check, so
 * an object made with `Object.create(Output.prototype)` (an Output built by hand, whose getters
 * would throw) is not one, and a Proxy never runs a trap. @internal
 */
export function isOutput(value: unknown): value is Output {
  return typeof value === 'object' && value !== null && hasOutputBrand(value);
}

function checkDetails(rawJson: unknown): string {
  if (typeof rawJson !== 'string') throw new ToolError('ERR_INVALID_OUTPUT', 'details must be a string of JSON text');
  if (rawJson === '') throw new ToolError('ERR_INVALID_OUTPUT', 'details must not be empty');
  const size = utf8Length(rawJson);
  if (size > MAX_INPUT_BYTES) {
    throw new ToolError('ERR_INVALID_OUTPUT', `details are ${size} bytes, more than the ${MAX_INPUT_BYTES}-byte limit`);
  }
  const issue = checkJson(rawJson);
  if (issue !== undefined) {
    throw new ToolError('ERR_INVALID_OUTPUT', `details must be one valid RFC 7493 JSON document: ${issue.message}`, {
      issues: [issue],
    });
  }
  return rawJson;
}

const SOURCE_SCHEMA = {
  oneOf: [
    {
      type: 'object',
      properties: { kind: { const: 'bytes' }, bytes: { type: 'string', minLength: 1 } },
      required: ['kind', 'bytes'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { kind: { const: 'uri' }, uri: { type: 'string', format: 'uri' } },
      required: ['kind', 'uri'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { kind: { const: 'reference' }, ref: { type: 'string', minLength: 1 } },
      required: ['kind', 'ref'],
      additionalProperties: false,
    },
  ],
};

/** JSON Schema (draft 2020-12) of the Output wire form. Ports Output.JSONSchemaModel. */
export const OUTPUT_SCHEMA: JsonObject = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    content: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'text' }, text: { type: 'string', minLength: 1 } },
            required: ['kind', 'text'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: {
              kind: { const: 'media' },
              media: {
                type: 'object',
                properties: { mime: { type: 'string' }, source: SOURCE_SCHEMA },
                required: ['mime', 'source'],
                additionalProperties: false,
              },
            },
            required: ['kind', 'media'],
            additionalProperties: false,
          },
        ],
      },
    },
    details: true,
  },
  additionalProperties: false,
}) as unknown as JsonObject;

/**
 * Freezes JSON data deeply (an object already frozen is left as it is, with what it holds).
 * Iterative, so no depth overflows it (a loaded manifest's schemas, lib/container/manifest.ts). @internal
 */
export function deepFreeze<T>(value: T): T {
  const work: unknown[] = [value];
  while (work.length > 0) {
    const v = work.pop();
    if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const x of Object.values(v)) work.push(x);
    }
  }
  return value;
}
