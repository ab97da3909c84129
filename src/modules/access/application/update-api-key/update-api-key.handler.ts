import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApiKeyRepository, keyState, type ApiKey } from '../../domain/api-key.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { ApiKeySecrets } from '../../domain/api-key-secrets.port.js';
import { changedSettings, checkApiKeySpec } from '../api-key-spec.js';
import { auditedSettings, viewOf, type ApiKeyView } from '../api-key-view.js';
import { UpdateApiKeyCommand } from './update-api-key.command.js';

/**
 * Changes an active key in place: its requests carry the new role and restrictions from the next
 * one on in this process, within a few seconds in the others (their key cache). A revoked or
 * expired key is not brought back; an expiry already past makes the key expire now.
 */
@CommandHandler(UpdateApiKeyCommand)
export class UpdateApiKeyHandler implements ICommandHandler<UpdateApiKeyCommand, ApiKeyView> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(ApiKeySecrets) private readonly secrets: ApiKeySecrets,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
  ) {}

  async execute({ id, input, actor, presetKey }: UpdateApiKeyCommand): Promise<ApiKeyView> {
    const now = this.clock.now();
    const problems = new ProblemList();
    const settings = checkApiKeySpec(input, now, problems, 'allow');
    problems.throwIfAny('The API key settings are invalid.');
    const outcome = await this.uow.run(async () => {
      const before = await this.keys.findById(id);
      if (!before || keyState(before, now) !== 'active') return undefined;
      const { prefix, hash } = presetKey === undefined ? before : this.secrets.of(presetKey);
      const after: ApiKey = { ...before, ...settings, prefix, hash };
      const fields = [...changedSettings(before, settings), ...(hash !== before.hash ? ['key'] : [])];
      if (fields.length === 0) return { before, after: before };
      if (!(await this.keys.update(after))) return undefined;
      await this.audit.record({
        actor,
        action: 'api-key.updated',
        targetType: 'api-key',
        targetId: id,
        targetName: after.name,
        // What changed and to what, never the key: a new key shows only as its new prefix.
        details: { fields, ...auditedSettings(after) },
      });
      return { before, after };
    });
    if (!outcome) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No active API key with this id.');
    if (outcome.after !== outcome.before) this.events.publish(new ApiKeyChanged(outcome.before.hash));
    return viewOf(outcome.after, now);
  }
}
