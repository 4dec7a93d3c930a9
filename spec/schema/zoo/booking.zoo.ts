import { Expose, Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsBoolean,
  IsDate,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export enum RoomType {
  Single = 1,
  Double = 2,
  Suite = 3,
}

export class Guest {
  @IsString() @Length(1, 80) name!: string;
  @IsInt() @Min(0) @Max(120) age!: number;
}

/** A hotel room reservation. */
export class RoomBooking {
  @IsEnum(RoomType) room!: RoomType;
  @IsDate() @Type(() => Date) checkIn!: Date;
  @IsDate() @Type(() => Date) checkOut!: Date;
  @ValidateNested({ each: true }) @Type(() => Guest) @ArrayMinSize(1) guests!: Guest[];
  @IsOptional() @IsString() @Length(0, 500) notes?: string;
}

export class TableBooking {
  @IsInt() @Min(1) @Max(12) partySize!: number;
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/) time!: string;
  @IsBoolean() outdoor = false;
}

export class FlightSearch {
  @Matches(/^[A-Z]{3}$/) from!: string;
  @Matches(/^[A-Z]{3}$/) to!: string;
  @IsInt() @IsPositive() @Max(9) passengers = 1;
  @IsOptional() @IsIn(['economy', 'business', 'first']) cabin?: 'economy' | 'business' | 'first';
}

export class CancelBooking {
  @Expose({ name: 'booking_id' }) @Matches(/^BK-\d{6}$/) bookingId!: string;
  @IsOptional() @IsString() @Length(1, 200) reason?: string;
}

export class CarRental {
  @IsString() @Length(3, 3) pickupCode!: string;
  @IsInt() @Min(1) @Max(30) days!: number;
  @IsBoolean() insurance!: boolean;
}

@Toolset()
export class BookingZoo {
  @Tool({ name: 'zoo_book_room' }) room(input: RoomBooking): string {
    return String(input.room);
  }
  @Tool({ name: 'zoo_book_table' }) table(input: TableBooking): number {
    return input.partySize;
  }
  @Tool({ name: 'zoo_find_flight' }) flight(input: FlightSearch): string {
    return input.from;
  }
  @Tool({ name: 'zoo_cancel_booking' }) cancel(input: CancelBooking): string {
    return input.bookingId;
  }
  @Tool({ name: 'zoo_rent_car' }) car(input: CarRental): number {
    return input.days;
  }
}
