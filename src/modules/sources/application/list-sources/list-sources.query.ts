import { Query } from '@nestjs/cqrs';
import type { SourceHealth } from '../../domain/source-settings.js';
import type { SourcePage } from '../source-view.js';

export class ListSourcesQuery extends Query<SourcePage> {
  constructor(
    readonly filter: { enabled?: boolean; health?: SourceHealth; transport?: string; q?: string },
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
