import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export class Point {
  @IsNumber() @Min(-90) @Max(90) lat!: number;
  @IsNumber() @Min(-180) @Max(180) lng!: number;
}

/** Places near a point. */
export class NearbySearch {
  @ValidateNested() @Type(() => Point) center!: Point;
  /** Radius in meters. */
  @IsNumber() @Min(1) @Max(50000) radius!: number;
  @IsOptional() @IsString() @Length(1, 60) category?: string;
}

export class Route {
  @ArrayMinSize(2) @ArrayMaxSize(25) @ValidateNested({ each: true }) @Type(() => Point) waypoints!: Point[];
  @IsIn(['driving', 'walking', 'cycling']) mode: 'driving' | 'walking' | 'cycling' = 'driving';
}

export class Geocode {
  @IsString() @Length(3, 300) address!: string;
  @IsOptional() @IsString() @Length(2, 2) country?: string;
}

export class BoundingBox {
  @ValidateNested() @Type(() => Point) southWest!: Point;
  @ValidateNested() @Type(() => Point) northEast!: Point;
}

export class Elevation {
  @ArrayMinSize(1) @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => Point) points!: Point[];
}

@Toolset()
export class GeoZoo {
  @Tool({ name: 'zoo_nearby' }) nearby(input: NearbySearch): number {
    return input.radius;
  }
  @Tool({ name: 'zoo_route' }) route(input: Route): number {
    return input.waypoints.length;
  }
  @Tool({ name: 'zoo_geocode' }) geocode(input: Geocode): string {
    return input.address;
  }
  @Tool({ name: 'zoo_in_box' }) box(input: BoundingBox): number {
    return input.northEast.lat;
  }
  @Tool({ name: 'zoo_elevation' }) elevation(input: Elevation): number {
    return input.points.length;
  }
}
