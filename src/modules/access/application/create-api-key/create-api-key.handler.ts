import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApiKeyRepository, type ApiKey } from '../../domain/api-key.js';
import { checkApiKeySpec } from '../api-key-spec.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { ApiKeySecrets } from '../../domain/api-key-secrets.port.js';
import { auditedSettings, viewOf, type ApiKeyView } from '../api-key-view.js';
import { CreateApiKeyCommand } from './create-api-key.command.js';

/** The new key's view, and the key itself: shown this once, never stored. */
export type CreatedApiKey = ApiKeyView & { key: string };

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand, CreatedApiKey> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(ApiKeySecrets) private readonly secrets: ApiKeySecrets,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(EventBus) private readonly events: EventBus,
  ) {}

  async execute({ input, actor, presetKey, shapeProblems }: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const now = this.clock.now();
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const settings = checkApiKeySpec(input, now, problems);
    problems.throwIfAny('The API key request is invalid.');

    const secret = presetKey === undefined ? this.secrets.generate() : this.secrets.of(presetKey);
    const key: ApiKey = {
      id: this.ids.next(),
      ...settings,
      prefix: secret.prefix,
      hash: secret.hash,
      createdAt: now,
      createdBy: actor,
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.uow.run(async () => {
      await this.keys.insert(key);
      await this.audit.record({
        actor,
        action: 'api-key.created',
        targetType: 'api-key',
        targetId: key.id,
        targetName: key.name,
        details: { ...auditedSettings(key), ...(presetKey !== undefined ? { given: true } : {}) },
      });
    });
    // A given key may have been presented before it existed: this process read it as unknown then.
    if (presetKey !== undefined) this.events.publish(new ApiKeyChanged(key.hash));
    return { ...viewOf(key, now), key: secret.key };
  }
}
