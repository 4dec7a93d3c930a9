import { Expose } from 'class-transformer';
import {
  ArrayUnique,
  Equals,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export class UserRef {
  /** The user's handle. */
  @Matches(/^[a-z0-9_]{3,20}$/) handle!: string;
}

/** Create an account; the handle must not be reserved. */
export class CreateUser extends UserRef {
  @IsNotIn(['admin', 'root', 'system']) declare handle: string;
  @IsString() @Length(1, 100) displayName!: string;
  @IsIn(['member', 'editor']) role: 'member' | 'editor' = 'member';
}

export class UpdateProfile extends UserRef {
  @IsOptional() @IsString() @MaxLength(160) bio?: string;
  @IsString() @Length(0, 100) location!: string | null;
}

export class DeleteUser extends UserRef {
  @Equals(true) confirm!: boolean;
}

export class AssignRoles {
  @Expose({ name: 'user_handle' }) @Matches(/^[a-z0-9_]{3,20}$/) userHandle!: string;
  @IsIn(['reader', 'writer', 'owner'], { each: true }) @ArrayUnique() roles!: ('reader' | 'writer' | 'owner')[];
}

export class ListUsers {
  @IsOptional() @IsBoolean() activeOnly?: boolean;
  @IsInt() @Min(1) @Max(100) limit = 20;
}

@Toolset()
export class UsersZoo {
  @Tool({ name: 'zoo_create_user' }) create(input: CreateUser): string {
    return input.handle;
  }
  @Tool({ name: 'zoo_update_profile' }) update(input: UpdateProfile): string {
    return input.handle;
  }
  @Tool({ name: 'zoo_delete_user' }) remove(input: DeleteUser): string {
    return input.handle;
  }
  @Tool({ name: 'zoo_assign_roles' }) assign(input: AssignRoles): number {
    return input.roles.length;
  }
  @Tool({ name: 'zoo_list_users' }) list(input: ListUsers): number {
    return input.limit;
  }
}
