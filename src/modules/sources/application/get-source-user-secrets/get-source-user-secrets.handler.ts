import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UserSecrets } from '../../../secrets/domain/user-secret.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { userSecretNames } from '../../domain/upstream-auth.js';
import { sourceNotFound } from '../source-errors.js';
import { GetSourceUserSecretsQuery, type SourceUserSecrets } from './get-source-user-secrets.query.js';

@QueryHandler(GetSourceUserSecretsQuery)
export class GetSourceUserSecretsHandler implements IQueryHandler<GetSourceUserSecretsQuery, SourceUserSecrets> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(UserSecrets) private readonly userSecrets: UserSecrets,
  ) {}

  async execute({ idOrName }: GetSourceUserSecretsQuery): Promise<SourceUserSecrets> {
    const source = await this.sources.findLive(idOrName);
    if (!source) throw sourceNotFound(idOrName);
    const names = userSecretNames(source.snapshot());
    const holders = await this.userSecrets.holders(names);
    return {
      names,
      items: holders.map(({ principalId, names: holds }) => ({ principalId, holds, missing: names.filter((name) => !holds.includes(name)) })),
    };
  }
}
