import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsDate,
  IsEmpty,
  IsIn,
  IsNotIn,
  IsInt,
  IsObject,
  IsOptional,
  IsRFC3339,
  IsString,
  Length,
  Max,
  Min,
  NotEquals,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

/**
 * DTOs for the disagreements found between the schema and the decoder, so the property
 * tests keep covering them: null items under `each: true`, free-form values holding forbidden
 * names, Date members and leap seconds, and the row DTO that replaces a matrix of DTOs.
 */

/** A seating plan: (number | null)[] whose each-constraints refuse null, so the schema refuses null items. */
export class SeatScores {
  @IsArray() @IsInt({ each: true }) @Min(0, { each: true }) @Max(10, { each: true }) @ArrayMaxSize(6) scores!: (
    number | null
  )[];
  @IsOptional() @IsIn(['aisle', 'window'], { each: true }) seats?: ('aisle' | 'window' | null)[];
  /** Checks that pass a null item keep it: null stays in the items' schema. */
  @IsOptional() @IsArray() @IsNotIn(['blocked'], { each: true }) @NotEquals('none', { each: true }) labels?: (
    string | null
  )[];
  @IsOptional() @IsArray() @IsEmpty({ each: true }) blanks?: (string | null)[];
}

/** Free-form metadata: no `__proto__` / `constructor` / `prototype` at any depth. */
export class TagBag {
  @IsObject() labels!: Record<string, string>;
  @IsObject() extra!: Record<string, unknown>;
  @Allow() payload!: unknown;
  @IsOptional() @IsArray() notes?: unknown[];
}

/** A reminder at an instant a JavaScript Date can hold. */
export class Reminder {
  @IsString() @Length(1, 80) text!: string;
  @IsDate() @Type(() => Date) at!: Date;
  @IsOptional() @IsDate({ each: true }) @Type(() => Date) @ArrayMaxSize(3) repeats?: Date[];
  /** An RFC 3339 string (a leap second is fine here: it stays a string). */
  @IsOptional() @IsRFC3339() sentAt?: string;
}

export class Cell {
  @IsString() @Length(1, 10) value!: string;
}

/** What to write instead of Cell[][]: each row is a DTO. */
export class CellRow {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Cell) @ArrayMaxSize(4) cells!: Cell[];
}

export class Sheet {
  @IsArray() @ValidateNested({ each: true }) @Type(() => CellRow) @ArrayMaxSize(4) rows!: CellRow[];
}

@Toolset()
export class ContractZoo {
  @Tool({ name: 'zoo_seat_scores' }) seats(input: SeatScores): number {
    return input.scores.length;
  }
  @Tool({ name: 'zoo_tag_bag' }) tags(input: TagBag): number {
    return Object.keys(input.labels).length;
  }
  @Tool({ name: 'zoo_reminder' }) remind(input: Reminder): string {
    return input.text;
  }
  @Tool({ name: 'zoo_sheet' }) sheet(input: Sheet): number {
    return input.rows.length;
  }
}
