import { Injectable } from '@nestjs/common';
import type { Authorization, Authorizer, CallOptions } from 'scope-tool';
import type { Caller } from '../assistant/policies';
import { CallerDirectory } from './caller-directory';

/** Permits a call only for a caller the directory knows; reads who is calling from CallOptions.context. */
@Injectable()
export class KnownCallerPolicy implements Authorizer {
  constructor(private readonly directory: CallerDirectory) {}

  authorize(authorization: Authorization, options: CallOptions): boolean {
    const caller = options.context as Caller | undefined;
    const team = caller === undefined ? undefined : this.directory.teamOf(caller.user);
    caller?.audit?.push(
      `KnownCallerPolicy: ${team ? 'permit' : 'refuse'} ${caller.user} (${team ?? 'unknown'}) for ${authorization.definition().name}`,
    );
    return team !== undefined;
  }
}
