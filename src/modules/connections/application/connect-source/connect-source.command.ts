import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../../shared/principal/principal.js';

/** Starts the principal's authorization at the source's authorization server. */
export class ConnectSourceCommand extends Command<{ authorizationUrl: string; expiresAt: string }> {
  constructor(
    readonly sourceName: string,
    readonly principal: Principal,
    readonly returnTo: string | null,
  ) {
    super();
  }
}
