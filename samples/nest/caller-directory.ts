import { Injectable } from '@nestjs/common';

/** The people the assistant serves and their team (a real service would query its user store). */
@Injectable()
export class CallerDirectory {
  readonly #teams = new Map([['alice', 'research']]);

  teamOf(user: string): string | undefined {
    return this.#teams.get(user);
  }
}
