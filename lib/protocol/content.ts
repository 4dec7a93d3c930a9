/**
 * Content blocks of a tool output (docs/architecture.md section 3.13): text and media. Ports the content-block rules
 * of `core/content` (through their `chat.Part` ancestor).
 */
import { goQuote, messageOf } from './errors';
import { hasLoneSurrogate } from './json';

/** A text block: `{ kind: 'text', text }`, text non-empty and valid Unicode. */
export interface TextBlock {
  readonly kind: 'text';
  readonly text: string;
}

/**
 * Where media bytes live: inline base64 (RFC 4648, padded, non-empty), an absolute URI, or an
 * opaque non-blank reference understood by the runtime.
 */
export type MediaSource =
  | { readonly kind: 'bytes'; readonly bytes: string }
  | { readonly kind: 'uri'; readonly uri: string }
  | { readonly kind: 'reference'; readonly ref: string };

/** A media block: `{ kind: 'media', media: { mime: 'type/subtype[; params]', source } }`. */
export interface MediaBlock {
  readonly kind: 'media';
  readonly media: { readonly mime: string; readonly source: MediaSource };
}

/** One model-visible content block of an Output. */
export type ContentBlock = TextBlock | MediaBlock;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MIME = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[^"\\\\]*"))*$`);
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function exactKeys(value: object, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new Error(`${where}: unknown member ${goQuote(key)}; expected ${allowed.join(', ')}`);
  }
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where} must be a string`);
  if (hasLoneSurrogate(value)) throw new Error(`${where} must be valid UTF-8 (no lone surrogates)`);
  return value;
}

function checkSource(source: unknown): MediaSource {
  if (typeof source !== 'object' || source === null) throw new Error('media.source must be an object');
  const { kind } = source as { kind?: unknown };
  const fields = source as Record<string, unknown>;
  switch (kind) {
    case 'bytes': {
      exactKeys(source, ['kind', 'bytes'], 'media.source');
      const bytes = text(fields.bytes, 'media.source.bytes');
      if (bytes === '' || !BASE64.test(bytes))
        throw new Error('media.source.bytes must be non-empty padded base64 (RFC 4648)');
      return Object.freeze({ kind, bytes });
    }
    case 'uri': {
      exactKeys(source, ['kind', 'uri'], 'media.source');
      const uri = text(fields.uri, 'media.source.uri');
      let absolute = URI_SCHEME.test(uri);
      try {
        new URL(uri);
      } catch {
        absolute = false;
      }
      if (!absolute) throw new Error(`media.source.uri ${goQuote(uri)} must be an absolute URI with a scheme`);
      return Object.freeze({ kind, uri });
    }
    case 'reference': {
      exactKeys(source, ['kind', 'ref'], 'media.source');
      const ref = text(fields.ref, 'media.source.ref');
      if (ref.trim() === '') throw new Error('media.source.ref must not be blank');
      return Object.freeze({ kind, ref });
    }
    default:
      throw new Error(`media.source.kind must be "bytes", "uri" or "reference", not ${goQuote(messageOf(kind))}`);
  }
}

/**
 * Validates one content block and returns a frozen copy of it.
 * @throws Error (plain, wrapped by Output as ERR_INVALID_OUTPUT) naming the field that is wrong
 */
export function freezeBlock(block: unknown): ContentBlock {
  if (typeof block !== 'object' || block === null) throw new Error('block must be an object');
  const { kind } = block as { kind?: unknown };
  if (kind === 'text') {
    exactKeys(block, ['kind', 'text'], 'text block');
    const value = text((block as { text?: unknown }).text, 'text');
    if (value === '') throw new Error('text must not be empty; use an output without blocks instead');
    return Object.freeze({ kind, text: value });
  }
  if (kind === 'media') {
    exactKeys(block, ['kind', 'media'], 'media block');
    const media = (block as { media?: unknown }).media;
    if (typeof media !== 'object' || media === null) throw new Error('media must be an object { mime, source }');
    exactKeys(media, ['mime', 'source'], 'media');
    const mime = text((media as { mime?: unknown }).mime, 'media.mime');
    if (!MIME.test(mime)) throw new Error(`media.mime ${goQuote(mime)} must be a MIME type such as "image/png"`);
    const source = checkSource((media as { source?: unknown }).source);
    return Object.freeze({ kind, media: Object.freeze({ mime, source }) });
  }
  throw new Error(`kind must be "text" or "media", not ${goQuote(messageOf(kind))}`);
}
