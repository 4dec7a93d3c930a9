import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

/** A folder tree. */
export class FolderNode {
  @IsString() @Length(1, 64) name!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => FolderNode) children!: FolderNode[];
}

export class CommentThread {
  @IsString() @Length(1, 500) text!: string;
  @IsOptional() @ValidateNested() @Type(() => CommentThread) reply?: CommentThread;
}

export class PostComment {
  @IsString() @Length(1, 40) postId!: string;
  @ValidateNested() @Type(() => CommentThread) thread!: CommentThread;
}

export class NoArguments {}

export class Thermostat {
  /**
   * Target temperature in degrees Celsius.
   * @minimum 5
   * @maximum 30
   */
  @IsNumber() target!: number;
  /** @pattern ^[a-z]+$ */
  @IsString() room!: string;
}

export class Nullables {
  @IsString() @Length(1, 20) label!: string | null;
  @IsInt() @Min(0) count!: number | null;
  @IsOptional() @IsString() comment?: string;
}

export class Literals {
  @IsString() size!: 'small' | 'medium' | 'large';
  @IsInt() level!: 1 | 2 | 3;
  @IsBoolean() dryRun = true;
}

export class Scores {
  @IsIn(['math', 'art'], { each: true }) subjects!: ('math' | 'art')[];
  @IsInt({ each: true }) @Min(0, { each: true }) @Max(100, { each: true }) values!: number[];
}

@Toolset()
export class MiscZoo {
  @Tool({ name: 'zoo_folder_tree' }) tree(input: FolderNode): string {
    return input.name;
  }
  @Tool({ name: 'zoo_post_comment' }) comment(input: PostComment): string {
    return input.postId;
  }
  @Tool({ name: 'zoo_noop' }) noop(_input: NoArguments): string {
    return 'ok';
  }
  @Tool({ name: 'zoo_thermostat' }) thermostat(input: Thermostat): number {
    return input.target;
  }
  @Tool({ name: 'zoo_nullables' }) nullables(input: Nullables): string {
    return input.label ?? '';
  }
  @Tool({ name: 'zoo_literals' }) literals(input: Literals): string {
    return input.size;
  }
  @Tool({ name: 'zoo_scores' }) scores(input: Scores): number {
    return input.values.length;
  }
}
