import { Inject, Injectable } from '@nestjs/common';
import { SourceRepository } from '../domain/source.repository.js';
import type { UpstreamTarget } from '../domain/upstream.js';
import { UpstreamTargetResolver } from './upstream-target-resolver.js';

/** How to reach a live source right now, its references resolved; for the execution pipeline. */
@Injectable()
export class UpstreamTargets {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(UpstreamTargetResolver) private readonly resolver: UpstreamTargetResolver,
  ) {}

  async forSource(sourceId: string): Promise<UpstreamTarget | undefined> {
    const source = await this.sources.findLive(sourceId);
    return source ? this.resolver.resolve(source.snapshot()) : undefined;
  }
}
