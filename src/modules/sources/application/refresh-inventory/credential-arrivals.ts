import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { UserSecretStored } from '../../../secrets/domain/user-secret.js';
import { isPerPrincipal } from '../../domain/upstream-auth.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { RefreshCoordinator, type RefreshOutcome } from './refresh-coordinator.js';

/**
 * A principal got a credential (stored a secret of its own, connected): every enabled per-user
 * source it discovers and that has not discovered yet is refreshed with it now, rather than at its
 * next scheduled refresh. Other modes' credentials (oauth) call `arrived` after a connection.
 */
@Injectable()
export class CredentialArrivals {
  private readonly logger = new Logger('refresh');

  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(RefreshCoordinator) private readonly refresher: RefreshCoordinator,
  ) {}

  /** Refreshes the sources waiting for `principalId`'s credential (only `sourceId`, when given); answers their outcomes. */
  async arrived(principalId: string, sourceId?: string): Promise<Map<string, RefreshOutcome>> {
    const waiting = (await this.sources.listLive())
      .map((source) => source.snapshot())
      .filter((s) => s.enabled && isPerPrincipal(s.upstreamAuth) && s.discoveryPrincipal?.id === principalId && s.lastSuccessAt === null)
      .filter((s) => sourceId === undefined || s.id === sourceId);
    const outcomes = new Map<string, RefreshOutcome>();
    for (const source of waiting) {
      const outcome = await this.refresher.refresh(source.id).catch((error: unknown): RefreshOutcome => ({ ok: false, error: String(error) }));
      if (!outcome.ok && !outcome.awaiting) this.logger.warn(`discovery of ${source.name} with its principal's new credential failed: ${outcome.error}`);
      outcomes.set(source.id, outcome);
    }
    return outcomes;
  }
}

@EventsHandler(UserSecretStored)
export class RefreshOnUserSecretStored implements IEventHandler<UserSecretStored> {
  constructor(@Inject(CredentialArrivals) private readonly arrivals: CredentialArrivals) {}

  handle(event: UserSecretStored): void {
    void this.arrivals.arrived(event.principalId).catch(() => undefined);
  }
}
