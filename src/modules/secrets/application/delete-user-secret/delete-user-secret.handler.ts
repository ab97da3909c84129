import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../../shared/domain-error.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { UserSecrets } from '../../domain/user-secret.js';
import { DeleteUserSecretCommand } from './delete-user-secret.command.js';

@CommandHandler(DeleteUserSecretCommand)
export class DeleteUserSecretHandler implements ICommandHandler<DeleteUserSecretCommand, void> {
  constructor(
    @Inject(UserSecrets) private readonly secrets: UserSecrets,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async execute({ principalId, name }: DeleteUserSecretCommand): Promise<void> {
    await this.uow.run(async () => {
      if (!(await this.secrets.delete(principalId, name))) throw new NotFound('SECRET_NOT_FOUND', `You hold no secret named "${name.slice(0, 128)}".`);
      await this.audit.record({ actor: principalId, action: 'user_secret.deleted', targetType: 'user-secret', targetId: `${principalId}:${name}`, targetName: name, details: {} });
    });
  }
}
