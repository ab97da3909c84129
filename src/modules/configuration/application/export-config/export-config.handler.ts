import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SourceRepository } from '../../../sources/domain/source.repository.js';
import { ExportConfigQuery } from './export-config.query.js';
import { exportedSource } from './exported-source.js';

@QueryHandler(ExportConfigQuery)
export class ExportConfigHandler implements IQueryHandler<ExportConfigQuery, { sources: Record<string, unknown>[] }> {
  constructor(@Inject(SourceRepository) private readonly sources: SourceRepository) {}

  async execute(): Promise<{ sources: Record<string, unknown>[] }> {
    const live = await this.sources.listLive();
    return { sources: live.map((source) => exportedSource(source.snapshot())) };
  }
}
