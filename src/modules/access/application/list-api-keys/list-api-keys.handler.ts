import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, pageOf } from '../../../../shared/http/cursor.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ApiKeyRepository } from '../../domain/api-key.js';
import { viewOf } from '../api-key-view.js';
import { ApiKeyPage, ListApiKeysQuery } from './list-api-keys.query.js';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery, ApiKeyPage> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ cursor, limit }: ListApiKeysQuery): Promise<ApiKeyPage> {
    const after = decodeCursor<{ t: string; i: string }>(cursor, ['t', 'i']);
    const rows = await this.keys.list(after ? { createdAt: new Date(after.t), id: after.i } : undefined, limit + 1);
    const now = this.clock.now();
    return pageOf(rows, limit, (key) => viewOf(key, now), (last) => ({ t: last.createdAt.toISOString(), i: last.id }));
  }
}
