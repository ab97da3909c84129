import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { SecretRepository } from '../../domain/secret.js';
import { ListSecretsQuery, SecretPage } from './list-secrets.query.js';

@QueryHandler(ListSecretsQuery)
export class ListSecretsHandler implements IQueryHandler<ListSecretsQuery, SecretPage> {
  constructor(@Inject(SecretRepository) private readonly secrets: SecretRepository) {}

  async execute({ cursor, limit }: ListSecretsQuery): Promise<SecretPage> {
    const after = decodeCursor<{ n: string }>(cursor, ['n']);
    const rows = await this.secrets.list(after?.n, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((s) => ({ name: s.name, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() })),
      nextCursor: rows.length > limit && last ? encodeCursor({ n: last.name }) : null,
    };
  }
}
