/**
 * `@IsNumber({ maxDecimalPlaces })`: class-validator reads the places off `String(value)`, so it
 * throws on 1e-7 ("a validator or transformer threw") and miscounts 1.5e-7. The decoder counts the
 * places of the shortest decimal form itself, and leaves class-validator's metadata as it found it.
 */
import 'reflect-metadata';
import { IsNumber, IsPositive, getMetadataStorage } from 'class-validator';
import { dtoInput } from '../../lib/dto';
import { decimalPlaces } from '../../lib/dto/overrides';
import { ToolError, type JsonValue } from '../../lib/protocol';

class Price {
  @IsNumber({ maxDecimalPlaces: 2 }) @IsPositive() amount!: number;
  @IsNumber({ maxDecimalPlaces: 8 }, { each: true }) rates!: number[];
}

/** 'accepted', or where and by which constraint the decoder refused the arguments. */
function decode(json: string): 'accepted' | { path: readonly (string | number)[]; constraint?: string }[] {
  try {
    dtoInput(Price).decode(JSON.parse(json) as JsonValue);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe('ERR_INVALID_INVOCATION');
    return ((e as ToolError).issues ?? []).map(({ path, constraint }) => ({ path, constraint }));
  }
}

describe('maxDecimalPlaces', () => {
  it('counts the places of the shortest decimal form, exponent forms included', () => {
    expect([0.5, 0.125, 1e-7, 1.5e-7, 12.34, 1e21, 5, -0.001].map(decimalPlaces)).toEqual([1, 3, 7, 8, 2, 0, 0, 3]);
  });

  it('refuses 1e-7 beyond the places as an ordinary issue, never as a crash', () => {
    expect(decode('{"amount":1e-7,"rates":[]}')).toEqual([{ path: ['amount'], constraint: 'isNumber' }]);
  });

  it('accepts exponent forms within the places, and refuses 1.5e-7 (8 places) that class-validator would count as 4', () => {
    expect(decode('{"amount":0.25,"rates":[1e-7,1.5e-8,0.12345678]}')).toEqual([
      { path: ['rates', 1], constraint: 'isNumber' },
    ]);
    expect(decode('{"amount":0.25,"rates":[1e-7,0.12345678]}')).toBe('accepted');
    expect(decode('{"amount":1.5e-7,"rates":[]}')).toEqual([{ path: ['amount'], constraint: 'isNumber' }]);
  });

  it('keeps the other checks of the member (IsPositive) and leaves the metadata as it was', () => {
    expect(decode('{"amount":-1e-7,"rates":[]}')).toContainEqual({ path: ['amount'], constraint: 'isPositive' });
    const options = getMetadataStorage()
      .getTargetValidationMetadatas(Price, '', true, false)
      .filter((r) => r.name === 'isNumber')
      .map((r) => (r.constraints[0] as { maxDecimalPlaces?: number }).maxDecimalPlaces);
    expect(options.sort()).toEqual([2, 8]);
  });
});
