import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { pageByName } from '../../../../shared/http/cursor.js';
import { SecretRepository } from '../../domain/secret.js';
import { ListSecretsQuery, SecretPage } from './list-secrets.query.js';

@QueryHandler(ListSecretsQuery)
export class ListSecretsHandler implements IQueryHandler<ListSecretsQuery, SecretPage> {
  constructor(@Inject(SecretRepository) private readonly secrets: SecretRepository) {}

  execute({ cursor, limit }: ListSecretsQuery): Promise<SecretPage> {
    return pageByName(cursor, limit, (after, count) => this.secrets.list(after, count), (s) => ({
      name: s.name,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    }));
  }
}
