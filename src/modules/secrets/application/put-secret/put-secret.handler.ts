import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { checkSecretName, checkSecretValue, MAX_SECRET_BYTES, SecretMetadata, SecretRepository } from '../../domain/secret.js';
import { PutSecretCommand } from './put-secret.command.js';

@CommandHandler(PutSecretCommand)
export class PutSecretHandler implements ICommandHandler<PutSecretCommand, SecretMetadata & { created: boolean }> {
  constructor(
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ name, value, actor }: PutSecretCommand): Promise<SecretMetadata & { created: boolean }> {
    const problems = new ProblemList();
    checkSecretName(name, problems);
    checkSecretValue(value, MAX_SECRET_BYTES, problems);
    problems.throwIfAny('The secret is invalid.');
    return this.uow.run(async () => {
      const result = await this.secrets.put(name, value, this.clock.now());
      await this.audit.record({ actor, action: 'secret.put', targetType: 'secret', targetId: name, targetName: name, details: { created: result.created } });
      return result;
    });
  }
}
