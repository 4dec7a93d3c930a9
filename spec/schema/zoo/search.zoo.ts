import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export enum SortOrder {
  Relevance = 'relevance',
  Newest = 'newest',
  Oldest = 'oldest',
}

/** A full-text search over the document index. */
export class SearchQuery {
  /** What to look for. */
  @IsString() @Length(1, 200) query!: string;
  @IsEnum(SortOrder) sort: SortOrder = SortOrder.Relevance;
  /** Results per page. */
  @IsInt() @Min(1) @Max(100) limit = 10;
  @IsOptional() @IsInt() @Min(0) offset?: number;
}

export class SearchFilter {
  @IsString() @MinLength(1) field!: string;
  @IsIn(['eq', 'ne', 'lt', 'gt']) op!: 'eq' | 'ne' | 'lt' | 'gt';
  @IsString() @MaxLength(64) value!: string;
}

export class FilteredSearch {
  @IsString() @Length(1, 100) query!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => SearchFilter) @ArrayMaxSize(5) filters!: SearchFilter[];
}

export class FacetRequest {
  @IsArray() @IsString({ each: true }) @MaxLength(30, { each: true }) @ArrayUnique() @ArrayMaxSize(8) facets!: string[];
  @IsBoolean() includeCounts!: boolean;
}

export class Suggest {
  @IsString() @Length(2, 50) prefix!: string;
  @IsOptional() @IsInt() @Min(1) @Max(20) max?: number;
}

@Toolset()
export class SearchZoo {
  @Tool({ name: 'zoo_search' }) search(input: SearchQuery): string {
    return input.query;
  }
  @Tool({ name: 'zoo_filtered_search' }) filtered(input: FilteredSearch): string {
    return input.query;
  }
  @Tool({ name: 'zoo_facets' }) facets(input: FacetRequest): number {
    return input.facets.length;
  }
  @Tool({ name: 'zoo_suggest' }) suggest(input: Suggest): string {
    return input.prefix;
  }
}
