import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import type { InventoryChanges } from '../../../inventory/domain/inventory-diff.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { sourceNotFound } from '../source-errors.js';
import { RefreshCoordinator } from './refresh-coordinator.js';
import { RefreshInventoryCommand } from './refresh-inventory.command.js';

@CommandHandler(RefreshInventoryCommand)
export class RefreshInventoryHandler implements ICommandHandler<RefreshInventoryCommand, InventoryChanges> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(RefreshCoordinator) private readonly coordinator: RefreshCoordinator,
    @Inject(AuditLog) private readonly audit: AuditLog,
  ) {}

  async execute({ idOrName, actor, callerToken }: RefreshInventoryCommand): Promise<InventoryChanges> {
    const source = await this.sources.findLive(idOrName);
    if (!source) throw sourceNotFound(idOrName);
    if (!source.enabled) {
      throw new DomainError('conflict', 'SOURCE_DISABLED', `Source "${source.name}" is disabled; enable it before refreshing.`);
    }
    const ownToken = source.snapshot().discoveryPrincipal?.id === actor ? callerToken : undefined;
    const outcome = await this.coordinator.refresh(source.id, actor, ownToken);
    await this.audit.record({
      actor,
      action: 'source.refreshed',
      targetType: 'source',
      targetId: source.id,
      targetName: source.name,
      details: outcome.ok ? { ...outcome.changes } : { error: outcome.error, ...(outcome.manifestProblems ? { problems: outcome.manifestProblems } : {}) },
    });
    if (!outcome.ok && outcome.manifestProblems) {
      throw new DomainError(
        'invalid',
        'MANIFEST_INVALID',
        `The manifest in the plugin directory of source "${source.name}" cannot be used; the source keeps the one it had and was not refreshed.`,
        outcome.manifestProblems,
      );
    }
    if (!outcome.ok && outcome.awaiting) {
      const { code, message, missing, connectUrl } = outcome.awaiting;
      throw new DomainError('conflict', 'SOURCE_AWAITING_CONNECTION', `Source "${source.name}" cannot discover its tools yet: ${message}`, [
        { path: 'code', message: code },
        ...(missing ?? []).map((name) => ({ path: 'missing', message: name })),
        ...(connectUrl ? [{ path: 'connectUrl', message: connectUrl }] : []),
      ]);
    }
    if (!outcome.ok) {
      throw new DomainError('upstream', 'REFRESH_FAILED', `Discovery of source "${source.name}" failed: ${outcome.error}`);
    }
    return outcome.changes;
  }
}
