import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ApiKeyRepository } from '../../../access/domain/api-key.js';
import { SourceRepository } from '../../../sources/domain/source.repository.js';
import { ExportConfigQuery, type ExportedConfig } from './export-config.query.js';
import { exportedKey } from './exported-key.js';
import { exportedSource } from './exported-source.js';

@QueryHandler(ExportConfigQuery)
export class ExportConfigHandler implements IQueryHandler<ExportConfigQuery, ExportedConfig> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ includeKeys }: ExportConfigQuery): Promise<ExportedConfig> {
    const live = await this.sources.listLive();
    const sources = live.map((source) => exportedSource(source.snapshot()));
    if (!includeKeys) return { sources };
    const keys = await this.keys.listActive(this.clock.now());
    // No `keys:` without keys: a file that has the list manages them all (prune revokes what it leaves out).
    return keys.length > 0 ? { sources, keys: keys.map(exportedKey) } : { sources };
  }
}
