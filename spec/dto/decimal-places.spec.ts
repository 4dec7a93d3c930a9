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

function decode(json: string): string {
  try {
    dtoInput(Price).decode(JSON.parse(json) as JsonValue);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return (e as ToolError).message;
  }
}

describe('maxDecimalPlaces', () => {
  it('counts the places of the shortest decimal form, exponent forms included', () => {
    expect([0.5, 0.125, 1e-7, 1.5e-7, 12.34, 1e21, 5, -0.001].map(decimalPlaces)).toEqual([1, 3, 7, 8, 2, 0, 0, 3]);
  });

  it('refuses 1e-7 beyond the places as an ordinary issue, never as a crash', () => {
    expect(decode('{"amount":1e-7,"rates":[]}')).toBe(
      'tool: invalid invocation: /amount: must be a number conforming to the specified constraints (isNumber)',
    );
  });

  it('accepts exponent forms within the places, and refuses 1.5e-7 (8 places) that class-validator would count as 4', () => {
    expect(decode('{"amount":0.25,"rates":[1e-7,1.5e-8,0.12345678]}')).toBe(
      'tool: invalid invocation: /rates/1: each value must be a number conforming to the specified constraints (isNumber)',
    );
    expect(decode('{"amount":0.25,"rates":[1e-7,0.12345678]}')).toBe('accepted');
    expect(decode('{"amount":1.5e-7,"rates":[]}')).toMatch(/\/amount: must be a number conforming/);
  });

  it('keeps the other checks of the member (IsPositive) and leaves the metadata as it was', () => {
    expect(decode('{"amount":-1e-7,"rates":[]}')).toMatch(/\/amount: must be a positive number \(isPositive\)/);
    const options = getMetadataStorage()
      .getTargetValidationMetadatas(Price, '', true, false)
      .filter((r) => r.name === 'isNumber')
      .map((r) => (r.constraints[0] as { maxDecimalPlaces?: number }).maxDecimalPlaces);
    expect(options.sort()).toEqual([2, 8]);
  });
});
