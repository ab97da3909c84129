import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApiKeyRepository } from '../../domain/api-key.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { viewOf, type ApiKeyView } from '../api-key-view.js';
import { RevokeApiKeyCommand } from './revoke-api-key.command.js';
import { isUuid } from '../../../../shared/uuid.js';


/** Revokes a key (revoking it again changes nothing); the key's requests are refused from then on. */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand, ApiKeyView> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
  ) {}

  async execute({ id, actor }: RevokeApiKeyCommand): Promise<ApiKeyView> {
    if (!isUuid(id)) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id.');
    const now = this.clock.now();
    const revoked = await this.uow.run(async () => {
      const before = await this.keys.findById(id);
      if (!before) return undefined;
      const after = await this.keys.revoke(id, now);
      if (before.revokedAt === null) {
        await this.audit.record({ actor, action: 'api-key.revoked', targetType: 'api-key', targetId: id, targetName: before.name, details: { role: before.role, prefix: before.prefix } });
      }
      return after;
    });
    if (!revoked) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id.');
    this.events.publish(new ApiKeyChanged(revoked.hash));
    return viewOf(revoked, now);
  }
}
