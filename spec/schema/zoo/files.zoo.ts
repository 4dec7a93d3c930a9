import { Expose } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  Contains,
  IsArray,
  IsBoolean,
  IsHexColor,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  NotContains,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export class ReadFile {
  /** A path inside the workspace. */
  @IsString() @Length(1, 255) @NotContains('..') path!: string;
  @IsOptional() @IsInt() @Min(0) offset?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1048576) length?: number;
}

export class WriteFile {
  @IsString() @Length(1, 255) @NotContains('..') path!: string;
  @IsString() @MaxLength(10000) content!: string;
  @IsBoolean() overwrite = false;
}

export class MoveFile {
  @Expose({ name: 'from_path' }) @IsString() @Length(1, 255) fromPath!: string;
  @Expose({ name: 'to_path' }) @IsString() @Length(1, 255) toPath!: string;
}

export class TagFiles {
  @IsArray()
  @IsString({ each: true })
  @Length(1, 255, { each: true })
  @ArrayUnique()
  @ArrayMaxSize(20)
  paths!: string[];
  @IsString() @Matches(/^[a-z][a-z0-9-]{0,31}$/) tag!: string;
  @IsOptional() @IsHexColor() color?: string;
}

export class SearchFiles {
  @IsString() @Contains('*') glob!: string;
  @IsOptional() @IsInt() @Min(1) @Max(500) maxResults?: number;
}

@Toolset()
export class FilesZoo {
  @Tool({ name: 'zoo_read_file' }) read(input: ReadFile): string {
    return input.path;
  }
  @Tool({ name: 'zoo_write_file' }) write(input: WriteFile): string {
    return input.path;
  }
  @Tool({ name: 'zoo_move_file' }) move(input: MoveFile): string {
    return input.toPath;
  }
  @Tool({ name: 'zoo_tag_files' }) tag(input: TagFiles): string {
    return input.tag;
  }
  @Tool({ name: 'zoo_search_files' }) search(input: SearchFiles): string {
    return input.glob;
  }
}
