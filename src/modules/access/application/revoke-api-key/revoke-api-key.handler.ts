import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApiKeyRepository, principalOf } from '../../domain/api-key.js';
import { UserSecrets } from '../../../secrets/domain/user-secret.js';
import { ApiKeyChanged, ApiKeyRevoked } from '../../domain/api-key-changed.event.js';
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
    @Inject(UserSecrets) private readonly userSecrets: UserSecrets,
  ) {}

  async execute({ id, actor }: RevokeApiKeyCommand): Promise<ApiKeyView> {
    if (!isUuid(id)) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id.');
    const now = this.clock.now();
    const revoked = await this.uow.run(async () => {
      const before = await this.keys.findById(id);
      if (!before) return undefined;
      const after = await this.keys.revoke(id, now);
      if (before.revokedAt === null) {
        // The key's principal is gone for good: its own upstream secrets go with it.
        const userSecrets = await this.userSecrets.dropPrincipal(principalOf(before).id);
        await this.audit.record({
          actor,
          action: 'api-key.revoked',
          targetType: 'api-key',
          targetId: id,
          targetName: before.name,
          details: { role: before.role, prefix: before.prefix, ...(userSecrets > 0 ? { userSecretsDropped: userSecrets } : {}) },
        });
      }
      return after;
    });
    if (!revoked) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id.');
    this.events.publish(new ApiKeyChanged(revoked.hash));
    this.events.publish(new ApiKeyRevoked(revoked.id));
    return viewOf(revoked, now);
  }
}
