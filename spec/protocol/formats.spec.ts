import {
  DATE_TIME_PATTERN,
  DATE_TIME_TEXT,
  RFC3339_PATTERN,
  describeFormat,
  describePattern,
} from '../../lib/protocol/formats';
import { compileSchemaValue } from '../../lib/protocol/schema';

// The one place the format descriptions are pinned; other specs use describeFormat.
describe('formats: what a format or a known pattern asks for, in words', () => {
  it('describes a date-time with an example, for the format and for both date-time patterns', () => {
    expect(DATE_TIME_TEXT).toBe('an RFC 3339 date-time, e.g. 2025-07-01T00:00:00Z');
    expect(describeFormat('date-time')).toBe(DATE_TIME_TEXT);
    expect(describePattern(DATE_TIME_PATTERN)).toBe(DATE_TIME_TEXT);
    expect(describePattern(RFC3339_PATTERN)).toBe(DATE_TIME_TEXT);
  });

  it('describes the other common formats, each with an example', () => {
    expect(describeFormat('date')).toBe('an RFC 3339 full-date, e.g. 2025-07-01');
    expect(describeFormat('email')).toBe('an email address, e.g. ada@example.com');
    expect(describeFormat('uri')).toBe('an absolute URI, e.g. https://example.com/notes');
  });

  it('leaves unknown formats and patterns to be shown as written', () => {
    expect(describeFormat('regex')).toBeUndefined();
    expect(describePattern('^[a-z]+$')).toBeUndefined();
    expect(describeFormat(7)).toBeUndefined();
    expect(describePattern(undefined)).toBeUndefined();
  });

  it('each example is what its own format admits (the examples are not made up)', () => {
    const example = (text: string) => text.slice(text.indexOf('e.g. ') + 5);
    expect(new RegExp(DATE_TIME_PATTERN, 'u').test(example(DATE_TIME_TEXT))).toBe(true);
    expect(new RegExp(RFC3339_PATTERN, 'u').test(example(DATE_TIME_TEXT))).toBe(true);
    for (const format of ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname']) {
      const text = describeFormat(format) as string;
      expect(compileSchemaValue({ type: 'string', format }).validate(example(text))).toEqual([]);
    }
  });
});
