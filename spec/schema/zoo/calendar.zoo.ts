import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsDate,
  IsEnum,
  IsInt,
  IsMilitaryTime,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export enum Weekday {
  Mon = 1,
  Tue = 2,
  Wed = 3,
  Thu = 4,
  Fri = 5,
  Sat = 6,
  Sun = 7,
}

export class Attendee {
  @IsString() @Length(1, 100) name!: string;
  @IsBoolean() optional = false;
}

/** A calendar event. */
export class CreateEvent {
  @IsString() @Length(1, 140) title!: string;
  @IsDate() @Type(() => Date) start!: Date;
  /** Duration in minutes. */
  @IsInt() @Min(5) @Max(1440) durationMinutes!: number;
  @IsOptional() @ArrayMaxSize(10) @ValidateNested({ each: true }) @Type(() => Attendee) attendees?: Attendee[];
}

export class RecurringEvent {
  @IsString() @Length(1, 140) title!: string;
  @IsEnum(Weekday, { each: true }) @ArrayMaxSize(7) days!: Weekday[];
  @IsMilitaryTime() at!: string;
}

export class EventRef {
  @IsUUID('4') eventId!: string;
}

export class MoveEvent extends EventRef {
  @IsDate() @Type(() => Date) newStart!: Date;
  @IsBoolean() notify = true;
}

export class FreeBusy {
  @IsDate() @Type(() => Date) from!: Date;
  @IsDate() @Type(() => Date) until!: Date;
  @IsOptional() @IsInt() @Min(15) @Max(240) slotMinutes?: number;
}

@Toolset()
export class CalendarZoo {
  @Tool({ name: 'zoo_create_event' }) create(input: CreateEvent): string {
    return input.title;
  }
  @Tool({ name: 'zoo_recurring_event' }) recurring(input: RecurringEvent): string {
    return input.at;
  }
  @Tool({ name: 'zoo_delete_event' }) remove(input: EventRef): string {
    return input.eventId;
  }
  @Tool({ name: 'zoo_move_event' }) move(input: MoveEvent): string {
    return input.eventId;
  }
  @Tool({ name: 'zoo_free_busy' }) freeBusy(input: FreeBusy): number {
    return input.slotMinutes ?? 30;
  }
}
