import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ApiKeyRepository } from '../../../access/domain/api-key.js';
import { GroupRepository } from '../../../groups/domain/group.js';
import { InterceptorRepository } from '../../../interceptors/domain/interceptor.js';
import { SourceRepository } from '../../../sources/domain/source.repository.js';
import { ExportConfigQuery, type ExportedConfig } from './export-config.query.js';
import { exportedGroup } from './exported-group.js';
import { exportedInterceptor } from './exported-interceptor.js';
import { exportedKey } from './exported-key.js';
import { exportedSource } from './exported-source.js';

@QueryHandler(ExportConfigQuery)
export class ExportConfigHandler implements IQueryHandler<ExportConfigQuery, ExportedConfig> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(GroupRepository) private readonly groups: GroupRepository,
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ includeKeys, includeGroups, includeInterceptors }: ExportConfigQuery): Promise<ExportedConfig> {
    const live = await this.sources.listLive();
    const sources = live.map((source) => exportedSource(source.snapshot()));
    // No `groups:`, `interceptors:` or `keys:` without any: a file that has the list manages them all (prune removes what it leaves out).
    const groups = includeGroups ? await this.groups.all() : [];
    const interceptors = includeInterceptors ? await this.interceptors.all() : [];
    const keys = includeKeys ? await this.keys.listActive(this.clock.now()) : [];
    return {
      sources,
      ...(groups.length > 0 ? { groups: groups.map(exportedGroup) } : {}),
      ...(interceptors.length > 0 ? { interceptors: interceptors.map(exportedInterceptor) } : {}),
      ...(keys.length > 0 ? { keys: keys.map(exportedKey) } : {}),
    };
  }
}
