import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../../shared/domain-error.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { SecretRepository } from '../../domain/secret.js';
import { DeleteSecretCommand } from './delete-secret.command.js';

@CommandHandler(DeleteSecretCommand)
export class DeleteSecretHandler implements ICommandHandler<DeleteSecretCommand, void> {
  constructor(
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async execute({ name, actor }: DeleteSecretCommand): Promise<void> {
    await this.uow.run(async () => {
      if (!(await this.secrets.delete(name))) throw new NotFound('SECRET_NOT_FOUND', `No secret named "${name.slice(0, 128)}".`);
      await this.audit.record({ actor, action: 'secret.deleted', targetType: 'secret', targetId: name, targetName: name, details: {} });
    });
  }
}
