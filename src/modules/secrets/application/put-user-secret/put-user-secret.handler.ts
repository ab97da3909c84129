import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { checkSecretName, checkSecretValue, type SecretMetadata } from '../../domain/secret.js';
import { MAX_USER_SECRET_BYTES, MAX_USER_SECRETS_PER_PRINCIPAL, UserSecretStored, UserSecrets } from '../../domain/user-secret.js';
import { PutUserSecretCommand } from './put-user-secret.command.js';

/** Stores a principal's own value (sealed); the audit event names it, never its value. */
@CommandHandler(PutUserSecretCommand)
export class PutUserSecretHandler implements ICommandHandler<PutUserSecretCommand, SecretMetadata & { created: boolean }> {
  constructor(
    @Inject(UserSecrets) private readonly secrets: UserSecrets,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
  ) {}

  async execute({ principalId, name, value, shapeProblems }: PutUserSecretCommand): Promise<SecretMetadata & { created: boolean }> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    checkSecretName(name, problems);
    checkSecretValue(value, MAX_USER_SECRET_BYTES, problems);
    problems.throwIfAny('The secret is invalid.');
    const result = await this.uow.run(async () => {
      const held = await this.secrets.list(principalId);
      if (held.length >= MAX_USER_SECRETS_PER_PRINCIPAL && !held.some((secret) => secret.name === name)) {
        throw new DomainError('conflict', 'USER_SECRET_LIMIT', `A principal keeps at most ${MAX_USER_SECRETS_PER_PRINCIPAL} secrets of its own; delete one first.`, [
          { path: 'name', message: `would be secret number ${held.length + 1}` },
        ]);
      }
      const saved = await this.secrets.put(principalId, name, value as string, this.clock.now());
      await this.audit.record({ actor: principalId, action: 'user_secret.put', targetType: 'user-secret', targetId: `${principalId}:${name}`, targetName: name, details: { created: saved.created } });
      return saved;
    });
    this.events.publish(new UserSecretStored(principalId, name));
    return result;
  }
}
