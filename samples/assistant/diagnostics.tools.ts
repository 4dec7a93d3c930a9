import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Authorize, Tool, Toolset } from 'scope-tool/decorators';
import { maxRepetitions } from './policies';

/** What the diagnostic echoes back. */
export class TestToolInput {
  /** A value to echo. */
  @IsOptional() @IsString() @MaxLength(200) value?: string;
  /** How many times to run the check. */
  @IsOptional() @IsInt() @Min(1) @Max(10) count?: number;
}

@Toolset()
export class DiagnosticsTools {
  /** Run a connectivity check and echo what was sent. */
  @Tool({ name: 'check_connection' })
  @Authorize(maxRepetitions(1))
  testTool(input: TestToolInput): string {
    return `ok: value=${input.value ?? '-'} count=${input.count ?? 1}`;
  }
}
