import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UserSecrets } from '../../domain/user-secret.js';
import { ListUserSecretsQuery, type UserSecretList } from './list-user-secrets.query.js';

@QueryHandler(ListUserSecretsQuery)
export class ListUserSecretsHandler implements IQueryHandler<ListUserSecretsQuery, UserSecretList> {
  constructor(@Inject(UserSecrets) private readonly secrets: UserSecrets) {}

  async execute({ principalId }: ListUserSecretsQuery): Promise<UserSecretList> {
    const rows = await this.secrets.list(principalId);
    return { items: rows.map((s) => ({ name: s.name, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() })) };
  }
}
