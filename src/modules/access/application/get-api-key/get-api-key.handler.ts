import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ApiKeyRepository } from '../../domain/api-key.js';
import { viewOf, type ApiKeyView } from '../api-key-view.js';
import { GetApiKeyQuery } from './get-api-key.query.js';
import { isUuid } from '../../../../shared/uuid.js';


@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery, ApiKeyView> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ id }: GetApiKeyQuery): Promise<ApiKeyView> {
    const key = isUuid(id) ? await this.keys.findById(id) : undefined;
    if (!key) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id.');
    return viewOf(key, this.clock.now());
  }
}
