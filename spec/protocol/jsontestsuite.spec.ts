/**
 * JSONTestSuite (github nst/JSONTestSuite at 1ef36fa, MIT: test_parsing/* and test_transform/* byte for byte)
 * against admitJson: every n_ file refused, every y_ file admitted except the duplicate-name ones
 * (RFC 7493 refuses them), and a pinned decision for every i_ and transform/ file.
 *
 * The files are bytes; admitJson takes a JS string. The string boundary cannot carry invalid UTF-8,
 * so a file that is not valid UTF-8 (including the UTF-16 ones) is decoded with a fatal decoder and
 * counts as refused: no string exists that would reach the scanner. The decoder keeps a leading
 * BOM (`ignoreBOM: true`) so that the BOM reaches admitJson, which refuses it; the default decoder
 * would silently strip it and admit the file.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { admitJson } from '../../lib/protocol/json';

const DIR = join(__dirname, '..', 'corpora', 'jsontestsuite');

type Decision = 'admitted' | 'refused';
interface Outcome {
  decision: Decision;
  code: string;
}

function admitFile(path: string): Outcome {
  const bytes = readFileSync(path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { decision: 'refused', code: 'undecodable' };
  }
  const r = admitJson(text);
  return r.ok ? { decision: 'admitted', code: 'ok' } : { decision: 'refused', code: r.issue.code };
}

function files(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .sort();
}

/** y_ files that RFC 7493 refuses: member names must be unique (docs/architecture.md section 3.5). */
const Y_EXCEPTIONS: Record<string, string> = {
  'y_object_duplicated_key.json': 'duplicate_member',
  'y_object_duplicated_key_and_value.json': 'duplicate_member',
};

/** Every i_ file: the pinned decision, the issue code (or undecodable) and why. */
const I_DECISIONS: Record<string, [Decision, string, string]> = {
  // A non-zero number that a double would turn into 0 is refused, not silently changed (docs/development.md, decisions: numbers).
  'i_number_double_huge_neg_exp.json': ['refused', 'number_out_of_range', '123.456e-789 is not 0 but would become 0'],
  'i_number_huge_exp.json': ['refused', 'number_out_of_range', 'huge exponent: not finite as a double'],
  'i_number_neg_int_huge_exp.json': ['refused', 'number_out_of_range', '-1e+9999 is -Infinity as a double'],
  'i_number_pos_double_huge_exp.json': ['refused', 'number_out_of_range', '1.5e+9999 is Infinity as a double'],
  'i_number_real_neg_overflow.json': ['refused', 'number_out_of_range', '-123123e100000 overflows a double'],
  'i_number_real_pos_overflow.json': ['refused', 'number_out_of_range', '123123e100000 overflows a double'],
  'i_number_real_underflow.json': ['refused', 'number_out_of_range', '123e-10000000 is not 0 but would become 0'],
  'i_number_too_big_neg_int.json': ['refused', 'number_out_of_range', 'integer literal below -(2^53-1)'],
  'i_number_too_big_pos_int.json': ['refused', 'number_out_of_range', 'integer literal above 2^53-1'],
  'i_number_very_big_negative_int.json': ['refused', 'number_out_of_range', 'integer literal below -(2^53-1)'],
  'i_object_key_lone_2nd_surrogate.json': ['refused', 'lone_surrogate', 'escaped lone low surrogate in a name'],
  'i_string_1st_surrogate_but_2nd_missing.json': ['refused', 'lone_surrogate', 'escaped high surrogate alone'],
  'i_string_1st_valid_surrogate_2nd_invalid.json': ['refused', 'lone_surrogate', 'high surrogate then a non-surrogate'],
  'i_string_UTF-16LE_with_BOM.json': ['refused', 'undecodable', 'UTF-16 text is not UTF-8'],
  'i_string_UTF-8_invalid_sequence.json': ['refused', 'undecodable', 'invalid UTF-8 sequence'],
  'i_string_UTF8_surrogate_U+D800.json': ['refused', 'undecodable', 'UTF-8 encoded surrogate is invalid UTF-8'],
  'i_string_incomplete_surrogate_and_escape_valid.json': ['refused', 'lone_surrogate', '\\uD800 then \\n'],
  'i_string_incomplete_surrogate_pair.json': ['refused', 'lone_surrogate', 'escaped low surrogate alone'],
  'i_string_incomplete_surrogates_escape_valid.json': ['refused', 'lone_surrogate', 'two high surrogates'],
  'i_string_invalid_lonely_surrogate.json': ['refused', 'lone_surrogate', 'escaped \\ud800 alone'],
  'i_string_invalid_surrogate.json': ['refused', 'lone_surrogate', '\\ud800 followed by plain text'],
  'i_string_invalid_utf-8.json': ['refused', 'undecodable', 'byte 0xFF is never UTF-8'],
  'i_string_inverted_surrogates_U+1D11E.json': [
    'refused',
    'lone_surrogate',
    'low surrogate before high (reversed pair)',
  ],
  'i_string_iso_latin_1.json': ['refused', 'undecodable', 'ISO-8859-1 byte, not UTF-8'],
  'i_string_lone_second_surrogate.json': ['refused', 'lone_surrogate', 'escaped low surrogate alone'],
  'i_string_lone_utf8_continuation_byte.json': ['refused', 'undecodable', 'continuation byte without a lead'],
  'i_string_not_in_unicode_range.json': ['refused', 'undecodable', 'code point above U+10FFFF'],
  'i_string_overlong_sequence_2_bytes.json': ['refused', 'undecodable', 'overlong UTF-8 encoding'],
  'i_string_overlong_sequence_6_bytes.json': ['refused', 'undecodable', 'overlong UTF-8 encoding'],
  'i_string_overlong_sequence_6_bytes_null.json': ['refused', 'undecodable', 'overlong UTF-8 encoding of NUL'],
  'i_string_truncated-utf-8.json': ['refused', 'undecodable', 'truncated UTF-8 sequence'],
  'i_string_utf16BE_no_BOM.json': ['refused', 'undecodable', 'UTF-16BE text is not UTF-8'],
  'i_string_utf16LE_no_BOM.json': ['refused', 'undecodable', 'UTF-16LE text is not UTF-8'],
  'i_structure_500_nested_arrays.json': ['admitted', 'ok', '500 levels is well within MAX_DEPTH'],
  'i_structure_UTF-8_BOM_empty_object.json': ['refused', 'invalid_json', 'a BOM is not JSON whitespace'],
};

/** Every transform/ file: the pinned decision, the issue code and why. */
const TRANSFORM_DECISIONS: Record<string, [Decision, string, string]> = {
  'number_-9223372036854775808.json': ['refused', 'number_out_of_range', 'integer literal below -(2^53-1)'],
  'number_-9223372036854775809.json': ['refused', 'number_out_of_range', 'integer literal below -(2^53-1)'],
  'number_1.0.json': ['admitted', 'ok', 'the integer 1 (written with a fraction) is within 2^53-1'],
  'number_1.000000000000000005.json': ['admitted', 'ok', 'fraction, finite (rounds to 1 as a double)'],
  'number_1000000000000000.json': ['admitted', 'ok', '10^15 is within 2^53-1'],
  'number_10000000000000000999.json': ['refused', 'number_out_of_range', 'integer literal above 2^53-1'],
  // Refused since underflow to 0 counts as silently changing a number (docs/development.md, decisions: numbers).
  'number_1e-999.json': ['refused', 'number_out_of_range', 'not 0 but would become 0 as a double'],
  'number_1e6.json': ['admitted', 'ok', 'the integer 10^6 (exponent form) is within 2^53-1'],
  'number_9223372036854775807.json': ['refused', 'number_out_of_range', 'integer literal above 2^53-1'],
  'number_9223372036854775808.json': ['refused', 'number_out_of_range', 'integer literal above 2^53-1'],
  'object_key_nfc_nfd.json': ['admitted', 'ok', 'names compared without normalization: distinct'],
  'object_key_nfd_nfc.json': ['admitted', 'ok', 'names compared without normalization: distinct'],
  'object_same_key_different_values.json': ['refused', 'duplicate_member', 'duplicate name'],
  'object_same_key_same_value.json': ['refused', 'duplicate_member', 'duplicate name, even with the same value'],
  'object_same_key_unclear_values.json': ['refused', 'duplicate_member', 'duplicate name (0 and -0)'],
  'string_1_escaped_invalid_codepoint.json': ['refused', 'lone_surrogate', 'escaped lone surrogate'],
  'string_1_invalid_codepoint.json': ['refused', 'undecodable', 'UTF-8 encoded surrogate is invalid UTF-8'],
  'string_2_escaped_invalid_codepoints.json': ['refused', 'lone_surrogate', 'two escaped high surrogates'],
  'string_2_invalid_codepoints.json': ['refused', 'undecodable', 'UTF-8 encoded surrogates are invalid UTF-8'],
  'string_3_escaped_invalid_codepoints.json': ['refused', 'lone_surrogate', 'three escaped high surrogates'],
  'string_3_invalid_codepoints.json': ['refused', 'undecodable', 'UTF-8 encoded surrogates are invalid UTF-8'],
  'string_with_escaped_NULL.json': ['admitted', 'ok', 'an escaped U+0000 is a valid scalar value'],
};

describe('JSONTestSuite corpus', () => {
  it('holds the expected number of files (the corpus is complete)', () => {
    expect(files(DIR, 'y_')).toHaveLength(95);
    expect(files(DIR, 'n_')).toHaveLength(188);
    expect(files(DIR, 'i_')).toHaveLength(35);
    expect(files(join(DIR, 'transform'), '')).toHaveLength(22);
  });

  it.each(files(DIR, 'n_'))('refuses %s', (file) => {
    expect(admitFile(join(DIR, file)).decision).toBe('refused');
  });

  it.each(files(DIR, 'y_').filter((f) => !(f in Y_EXCEPTIONS)))('admits %s', (file) => {
    expect(admitFile(join(DIR, file))).toEqual({ decision: 'admitted', code: 'ok' });
  });

  it.each(Object.entries(Y_EXCEPTIONS))('refuses %s although RFC 8259 allows it (%s)', (file, code) => {
    expect(admitFile(join(DIR, file))).toEqual({ decision: 'refused', code });
  });

  it('pins a decision for every i_ file, and only for those', () => {
    expect(Object.keys(I_DECISIONS).sort()).toEqual(files(DIR, 'i_'));
  });

  it.each(Object.entries(I_DECISIONS))('decides %s as pinned: %j', (file, [decision, code]) => {
    expect(admitFile(join(DIR, file))).toEqual({ decision, code });
  });

  it('pins a decision for every transform/ file, and only for those', () => {
    expect(Object.keys(TRANSFORM_DECISIONS).sort()).toEqual(files(join(DIR, 'transform'), ''));
  });

  it.each(Object.entries(TRANSFORM_DECISIONS))('decides transform/%s as pinned: %j', (file, [decision, code]) => {
    expect(admitFile(join(DIR, 'transform', file))).toEqual({ decision, code });
  });

  it('keeps the BOM when decoding, so that admitJson sees and refuses it', () => {
    const bom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
      Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d),
    );
    expect(bom.charCodeAt(0)).toBe(0xfeff);
  });
});
