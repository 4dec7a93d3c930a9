/**
 * The strict decoder's own rules (docs/architecture.md section 4), on zoo DTOs without a schema gate where the
 * DTO alone decides, and with one where the schema is part of the contract.
 */
import 'reflect-metadata';
import { dtoInput } from '../../lib/dto';
import { notDateTime } from '../../lib/dto/messages';
import { ToolError, type JsonValue } from '../../lib/protocol';
import { RoomBooking } from '../schema/zoo/booking.zoo';
import { FolderNode } from '../schema/zoo/misc.zoo';
import { TaxRates } from '../schema/zoo/invoices.zoo';
import { Suggest } from '../schema/zoo/search.zoo';

function refusal(run: () => unknown): ToolError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    return e as ToolError;
  }
  throw new Error('expected a refusal');
}

const booking = {
  room: 2,
  checkIn: '2024-05-01T10:00:00Z',
  checkOut: '2024-05-03T10:00:00Z',
  guests: [{ name: 'Ada', age: 36 }],
};

describe('the strict decoder', () => {
  it('refuses 5,000 levels of a recursive DTO cleanly (class-transformer would overflow the stack)', () => {
    let node: JsonValue = { name: 'leaf', children: [] };
    for (let i = 0; i < 5000; i++) node = { name: 'n', children: [node] };
    const e = refusal(() => dtoInput(FolderNode).decode(node));
    expect(e.message).not.toMatch(/Maximum call stack/);
  });

  it('refuses a constructor key inside a Record, naming its path', () => {
    const value = JSON.parse('{"rates":{"constructor":1},"roundingCents":5}') as JsonValue;
    expect(refusal(() => dtoInput(TaxRates).decode(value)).message).toMatch(/\/rates\/constructor/);
    const proto = JSON.parse('{"rates":{"__proto__":{"polluted":true}},"roundingCents":5}') as JsonValue;
    refusal(() => dtoInput(TaxRates).decode(proto));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('takes a numeric enum by value only, never by member name or as a numeric string', () => {
    expect(dtoInput(RoomBooking).decode(booking).room).toBe(2);
    refusal(() => dtoInput(RoomBooking).decode({ ...booking, room: 'Double' }));
    refusal(() => dtoInput(RoomBooking).decode({ ...booking, room: '2' }));
  });

  it('refuses null for an optional-only member and accepts its absence', () => {
    expect(dtoInput(Suggest).decode({ prefix: 'ab' })).toBeInstanceOf(Suggest);
    expect(refusal(() => dtoInput(Suggest).decode({ prefix: 'ab', max: null })).message).toMatch(/must not be null/);
  });

  it('counts string lengths in code points (two astral characters meet a minimum of 2)', () => {
    expect(dtoInput(Suggest).decode({ prefix: '😀😀' })).toBeInstanceOf(Suggest);
    refusal(() => dtoInput(Suggest).decode({ prefix: '😀' }));
  });

  it('decodes Date members from RFC 3339 date-time strings (a space separator too) and refuses other strings, a date alone too', () => {
    const decoded = dtoInput(RoomBooking).decode({ ...booking, checkIn: '2024-05-01 10:00:00Z' });
    expect(decoded.checkIn).toBeInstanceOf(Date);
    refusal(() => dtoInput(RoomBooking).decode({ ...booking, checkIn: 'tomorrow' }));
    expect(refusal(() => dtoInput(RoomBooking).decode({ ...booking, checkOut: '2024-05-03' })).issues).toEqual([
      { code: 'dto', path: ['checkOut'], constraint: 'type', message: notDateTime('another string') },
    ]);
  });
});
