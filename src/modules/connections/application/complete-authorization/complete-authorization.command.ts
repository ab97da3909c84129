import { Command } from '@nestjs/cqrs';

/** The authorization server sent the browser back to `callback` (its code and state). */
export class CompleteAuthorizationCommand extends Command<{ sourceName: string; returnTo: string | null }> {
  constructor(readonly callback: URL) {
    super();
  }
}
